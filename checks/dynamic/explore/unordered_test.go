package explore

import (
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestUnorderedRangeNoted: a schedule whose range over a map kept the
// runtime's order (rt.Result.Unordered: keys stored by code that is not
// rewritten) gives one note per test and site, where the user reads it,
// instead of a replay that silently follows another order.
func TestUnorderedRangeNoted(t *testing.T) {
	t.Parallel()
	s := &search{}
	tg := &target{pkg: rewrite.Package{ImportPath: "example.com/k"}, name: "TestDrain", stats: &TestStats{}}
	u := &rt.UnorderedRange{Site: "router.go:40", Ranges: 1, Keys: 3}
	for range 3 {
		s.counted(tg, rt.Result{Outcome: "pass", Unordered: u})
	}
	s.counted(tg, rt.Result{Outcome: "pass"})
	if len(s.notes) != 1 || !strings.HasPrefix(s.notes[0], "TestDrain: a range over a map at router.go:40 met 3 keys holding pointers or channels that no rewritten code stored") {
		t.Errorf("notes %q, want one about the range at router.go:40", s.notes)
	}
}
