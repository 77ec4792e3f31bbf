package explore

import (
	"testing"

	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
)

// TestBatchesInGoTestOrder: whatever order the search ranks its tests in
// (pr puts the tests that reach the change first), a batch runs them in
// go test's order, a subtest where its test is: a test finds in its
// process the state of tests go test runs before it, not after.
func TestBatchesInGoTestOrder(t *testing.T) {
	pkg := rewrite.Package{ImportPath: "example.com/p", Tests: []string{"TestZeta", "TestAlpha", "TestMu"}}
	other := rewrite.Package{ImportPath: "example.com/q", Tests: []string{"TestB", "TestA"}}
	var ranked []*target
	for _, name := range []string{"TestMu", "TestAlpha/sub", "TestZeta"} {
		ranked = append(ranked, &target{pkg: pkg, name: name, bin: "p.test"})
	}
	for _, name := range []string{"TestA", "TestB"} {
		ranked = append(ranked, &target{pkg: other, name: name, bin: "q.test"})
	}
	var got [][]string
	for _, b := range batchesOf(ranked, 1, 1) {
		var names []string
		for _, t := range b {
			names = append(names, t.name)
		}
		got = append(got, names)
	}
	want := [][]string{{"TestZeta", "TestAlpha/sub", "TestMu"}, {"TestB", "TestA"}}
	if len(got) != len(want) || len(got[0]) != 3 || len(got[1]) != 2 {
		t.Fatalf("batches %q, want %q", got, want)
	}
	for i := range want {
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				t.Fatalf("batches %q, want %q", got, want)
			}
		}
	}
	if ranked[0].name != "TestMu" {
		t.Errorf("batchesOf reordered its argument: %q first", ranked[0].name)
	}
}
