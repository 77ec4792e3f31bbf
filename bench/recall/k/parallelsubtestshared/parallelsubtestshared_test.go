// Package parallelsubtestshared: table-driven parallel subtests share one
// client the parent made, and each sets its base URL on it before use.
package parallelsubtestshared

import "testing"

type client struct {
	base string
}

func (c *client) url(path string) string { return c.base + path }

func TestURL(t *testing.T) {
	c := &client{}
	for _, tc := range []struct{ name, base, path, want string }{
		{"a", "http://a", "/x", "http://a/x"},
		{"b", "http://b", "/y", "http://b/y"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c.base = tc.base // shared by the parallel subtests
			if got := c.url(tc.path); got != tc.want {
				t.Errorf("url = %q, want %q", got, tc.want)
			}
		})
	}
}
