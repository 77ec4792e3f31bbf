// Package okparallelsubtestcopy: each parallel subtest makes its own
// client. Must not be reported.
package okparallelsubtestcopy

import "testing"

type client struct {
	base string
}

func (c *client) url(path string) string { return c.base + path }

func TestURL(t *testing.T) {
	for _, tc := range []struct{ name, base, path, want string }{
		{"a", "http://a", "/x", "http://a/x"},
		{"b", "http://b", "/y", "http://b/y"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := &client{base: tc.base}
			if got := c.url(tc.path); got != tc.want {
				t.Errorf("url = %q, want %q", got, tc.want)
			}
		})
	}
}
