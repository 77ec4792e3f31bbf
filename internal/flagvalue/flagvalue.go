// Package flagvalue holds the flag.Value types the command line and the
// PR job's configuration share.
package flagvalue

import (
	"fmt"
	"strings"
)

// Choice is a string flag restricted to a set of values.
type Choice struct {
	Value   string
	Allowed []string
}

func (c *Choice) String() string { return c.Value }

// Set accepts only one of c.Allowed.
func (c *Choice) Set(s string) error {
	for _, a := range c.Allowed {
		if s == a {
			c.Value = s
			return nil
		}
	}
	return fmt.Errorf("valid values are %s", strings.Join(c.Allowed, ", "))
}

// List is a comma-separated list flag; repeating the flag appends.
type List []string

func (l *List) String() string { return strings.Join(*l, ",") }

// Set appends the non-empty, trimmed elements of s.
func (l *List) Set(s string) error {
	*l = append(*l, Split(s)...)
	return nil
}

// Split returns the non-empty, trimmed elements of a comma-separated s.
func Split(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}
