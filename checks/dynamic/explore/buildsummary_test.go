package explore

import (
	"errors"
	"fmt"
	"testing"
)

// TestBuildErrorSummary: a base commit that cannot build a package says
// why in its one-line verdict (the compiler's first error, or how go test
// ended), not just "build pkg:" with the reason on the lines cut off.
func TestBuildErrorSummary(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{&BuildError{Package: "example.com/p", Output: "# example.com/p\n./p.go:3:1: syntax error: unexpected }\n"}, "build example.com/p: ./p.go:3:1: syntax error: unexpected }"},
		{fmt.Errorf("base: %w", &BuildError{Package: "example.com/p", Output: "\nsignal: killed"}), "build example.com/p: signal: killed"},
		{&BuildError{Package: "example.com/p"}, "build example.com/p: no output"},
		{errors.New("first\nsecond"), "first"},
	} {
		if got := errSummary(c.err); got != c.want {
			t.Errorf("errSummary(%q) = %q, want %q", c.err, got, c.want)
		}
	}
}
