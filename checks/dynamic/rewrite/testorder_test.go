package rewrite

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestGoTestOrder: a package's tests are listed in the order go test runs
// them (by file name, then as declared, the package's before the external
// package's), as `go test -list` prints them; a name both test packages
// declare is listed once, where go test first runs it. A batch process
// runs its tests in this order, so a test finds the state left by tests
// go test runs before it, not by tests that sort before it by name.
func TestGoTestOrder(t *testing.T) {
	const testing_ = "import \"testing\"\n\n"
	dir := writeModule(t, map[string]string{
		"go.mod":      "module example.com/order\n\ngo 1.24\n",
		"p/p.go":      "package p\n",
		"p/b_test.go": "package p\n\n" + testing_ + "func TestZeta(t *testing.T) {}\n\nfunc TestAlpha(t *testing.T) {}\n",
		"p/a_test.go": "package p\n\n" + testing_ + "func TestMu(t *testing.T) {}\n\nfunc TestBeta(t *testing.T) {}\n",
		"p/c_test.go": "package p_test\n\n" + testing_ + "func TestGamma(t *testing.T) {}\n\nfunc TestAlpha(t *testing.T) {}\n\nfunc TestDelta(t *testing.T) {}\n",
	})
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatalf("Instrument: %v", err)
	}
	t.Cleanup(func() { res.Cleanup() })
	if len(res.Packages) != 1 {
		t.Fatalf("packages %v, want example.com/order/p", res.Packages)
	}
	got := res.Packages[0].Tests

	cmd := exec.Command("go", "test", "-list", ".", "./p")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go test -list: %v\n%s", err, out)
	}
	var want []string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "Test") && !slices.Contains(want, line) {
			want = append(want, line)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("tests %q, want go test's order %q", got, want)
	}
	if !slices.Equal(want, []string{"TestMu", "TestBeta", "TestZeta", "TestAlpha", "TestGamma", "TestDelta"}) {
		t.Errorf("go test -list: %q", want)
	}
}
