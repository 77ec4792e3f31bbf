package prjob

import (
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// fakeClock is a clock the test moves.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time       { return c.t }
func (c *fakeClock) pass(d time.Duration) { c.t = c.t.Add(d) }
func (c *fakeClock) build(stage func(explore.StageEvent), name string, d time.Duration) {
	stage(explore.StageEvent{Name: name})
	c.pass(d)
	stage(explore.StageEvent{Name: name, Done: true, Took: d})
}

// Each stage is charged its wall time less its builds, and the next one
// gets what is left: a job whose stages run as long as they are given
// ends on its budget, whatever its builds took.
func TestLedgerSplitsWhatIsLeft(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	l := newLedger(2 * time.Minute)
	l.now = clock.now
	var events []string
	stage := l.watch(func(ev explore.StageEvent) { events = append(events, ev.Name) })
	genShare := 30 * time.Second
	dynBudget := 2*time.Minute - genShare
	keep := 30 * time.Second // baseKeep: the search found a failure

	// dynamic: a 100s race build, then the search runs to its budget but
	// what it keeps.
	l.charge("dynamic", func() {
		clock.build(stage, "building the test binary of m/p", 100*time.Second)
		clock.build(stage, "loading and instrumenting m/p", 5*time.Second)
		stage(explore.StageEvent{Name: "searching m/p.TestA (1/1) for 55s", Done: true, Took: 55 * time.Second})
		clock.pass(dynBudget - keep)
	})
	if got := l.left(); got != genShare+keep {
		t.Fatalf("left after dynamic %v, want %v", got, genShare+keep)
	}
	// base: its checkout and build are outside; it runs as long as given.
	base := baseStageBudget(l.left(), genShare)
	if base != keep {
		t.Fatalf("base budget %v, want %v", base, keep)
	}
	l.charge("base", func() {
		l.build(3 * time.Second) // the checkout
		clock.pass(3 * time.Second)
		clock.build(stage, "instrumenting m/p", 40*time.Second)
		clock.pass(base)
	})
	// gen gets the rest.
	g := genStageBudget(l.left(), genShare)
	if g != genShare {
		t.Fatalf("gen budget %v, want %v", g, genShare)
	}
	l.charge("gen", func() {
		clock.build(stage, "copying the module to add the generated tests", 10*time.Second)
		clock.pass(g)
	})
	if got := l.afterBuild(); got != 2*time.Minute {
		t.Errorf("after the builds %v, want the budget, 2m", got)
	}
	if l.left() != 0 {
		t.Errorf("left %v, want 0", l.left())
	}
	line := l.line()
	for _, w := range []string{"took 2m0s (+0.0%)", "dynamic 1m0s", "base 30s", "gen 30s", "builds took 2m38s more, outside -budget"} {
		if !strings.Contains(line, w) {
			t.Errorf("line %q lacks %q", line, w)
		}
	}
	if len(events) != 9 {
		t.Errorf("%d events passed on, want 9", len(events))
	}
}

// A search that found nothing keeps nothing: gen gets what is left, and a
// stage that finds the budget spent still gets its floor.
func TestLedgerFloors(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	l := newLedger(time.Minute)
	l.now = clock.now
	l.charge("dynamic", func() { clock.pass(70 * time.Second) })
	if l.left() != 0 {
		t.Fatalf("left %v, want 0", l.left())
	}
	if got := baseStageBudget(l.left(), 15*time.Second); got != minBaseBudget {
		t.Errorf("base budget %v, want the floor %v", got, minBaseBudget)
	}
	if got := genStageBudget(l.left(), 15*time.Second); got != 1500*time.Millisecond {
		t.Errorf("gen budget %v, want a tenth of its share", got)
	}
	if !strings.Contains(l.line(), "(+16.7%)") {
		t.Errorf("line %q does not say the overrun", l.line())
	}
}

// A job made without a ledger (as tests make one) runs its stages and
// charges nothing. TestCheckPlainUnconfirmed panicked on it.
func TestLedgerNil(t *testing.T) {
	var l *ledger
	ran := false
	l.charge("plain", func() { ran = true })
	l.build(time.Second)
	if !ran || l.left() != 0 || l.watch(nil) != nil {
		t.Errorf("nil ledger: ran %v, left %v", ran, l.left())
	}
}
