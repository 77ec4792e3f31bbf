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
	t.Parallel()
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

// A base build that failed without a compiler's error (killed under
// memory pressure, no output) is tried again; one that shows an error at
// a position, or go's own, is the code's and is not.
func TestCompileFailed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&BuildError{Package: "p", Output: "# p.test\n/tmp/b/x_test.go:8:10: undefined: Stamp\n"}, true},
		{&BuildError{Package: "p", Output: "go: updates to go.mod needed; to update it:\n\tgo mod tidy\n"}, true},
		{&BuildError{Package: "p", Output: "signal: killed\n"}, false},
		{&BuildError{Package: "p", Output: ""}, false},
		{&BuildError{Package: "p", Output: "# p.test\n/usr/lib/go/pkg/tool/linux_amd64/link: signal: killed\n"}, false},
		{errors.New("package p is not in this module"), true},
	} {
		if got := compileFailed(c.err); got != c.want {
			t.Errorf("compileFailed(%q) = %v, want %v", c.err, got, c.want)
		}
	}
}
