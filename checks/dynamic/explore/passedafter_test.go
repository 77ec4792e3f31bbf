package explore

import (
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestPassedOnlyAfterOthers: a test that fails when no other test ran
// before it in its process and passes after them (groupcache's
// TestTruncatingByteSliceTarget: its group is made only by the earlier
// tests' setup) is labelled order-dependent, not schedule-dependent; one
// that also passed with no other test before it keeps its label (a
// schedule the step bound stopped is no such pass).
func TestPassedOnlyAfterOthers(t *testing.T) {
	for _, passFirst := range []bool{false, true} {
		s, tg, _ := newFakeSearch(t, "TestUses", fakeBudget, 1)
		tg.stats = &TestStats{}
		testAt := func(i int) string {
			if i == 0 || i == 10 {
				return "TestSetup"
			}
			return "TestUses"
		}
		pass := func(i int) rt.Result { return rt.Result{Index: i, Seed: int64(i + 1), Outcome: "pass"} }
		fail := rt.Result{Index: 5, Seed: 6, Outcome: string(checks.TestFailure), Message: "test failed: k_test.go:12: nil group", Site: "/src/k/k_test.go:12"}
		// A batch process: TestSetup, then TestUses passes twice.
		whole := &childOutcome{crashed: -1, leftovers: -1, results: []rt.Result{pass(0), pass(1), pass(2)}}
		s.collectIn(tg, whole.part(1, 3), 1, "random", whole, testAt)
		// A process of TestUses alone: it fails.
		keys := s.collect(tg, &childOutcome{crashed: -1, leftovers: -1, results: []rt.Result{fail}}, 5, "random")
		if passFirst {
			s.collect(tg, &childOutcome{crashed: -1, leftovers: -1, results: []rt.Result{pass(7)}}, 7, "random")
		} else {
			// Alone, a schedule the step bound stopped: no pass.
			stopped := pass(8)
			stopped.Inconclusive = rt.StepBoundPrefix + "no end after 20000 scheduling steps"
			s.collect(tg, &childOutcome{crashed: -1, leftovers: -1, results: []rt.Result{stopped}}, 8, "random")
		}
		tg.stats.Schedules = 4
		if len(keys) != 1 {
			t.Fatalf("keys %v, want the failure", keys)
		}
		for k := range keys {
			s.mu.Lock()
			q := s.frequency(tg, tg.name+"|"+k)
			s.mu.Unlock()
			if q == nil || q.PassedOnlyAfterOthers == passFirst {
				t.Fatalf("passed with no test before it %v: frequency %+v", passFirst, q)
			}
			label := q.Label()
			if want := "order-dependent: it passed only after other tests ran in its process"; strings.Contains(label, want) == passFirst {
				t.Errorf("passed with no test before it %v: label %q", passFirst, label)
			}
			if f := (checks.Finding{Frequency: q}); f.OrderDependent() == passFirst {
				t.Errorf("passed with no test before it %v: OrderDependent %v", passFirst, !passFirst)
			}
		}
	}
}

// TestOrderLabelNeedsAloneFailing: the order-dependent label of a test
// that passed only after others stays when plain go test, the test alone,
// fails on every run, and goes otherwise.
func TestOrderLabelNeedsAloneFailing(t *testing.T) {
	for _, c := range []struct {
		plain *checks.PlainGo
		keep  bool
	}{
		{&checks.PlainGo{Runs: 1, Failed: 1}, true},
		{&checks.PlainGo{Runs: 3, Failed: 2}, false},
		{&checks.PlainGo{Runs: 1}, false},
		{&checks.PlainGo{NotRun: "the budget ran out"}, false},
		{nil, false},
	} {
		fd := checks.Finding{Frequency: &checks.Frequency{Failing: 2, Schedules: 3, PassedOnlyAfterOthers: true}, PlainGo: c.plain}
		keepOrderIfAloneFails(&fd)
		if fd.Frequency.PassedOnlyAfterOthers != c.keep {
			t.Errorf("plain go test %+v: kept %v, want %v", c.plain, !c.keep, c.keep)
		}
	}
}
