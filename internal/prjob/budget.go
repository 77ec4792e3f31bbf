package prjob

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// -budget is the wall time of the job's stages after their builds: the
// dynamic search (unperturbed runs, schedules, replays, plain go test
// runs, shrinking), the replays and search on the base commit, the plain
// go test runs of failures no base confirms, and gen (its sequential runs,
// search and replays). The static and affected stages, the base commit's
// checkout and every build (loading, instrumenting, compiling the test
// binaries, copying the module for gen) are stages of their own, outside
// it. Each stage is charged its wall time less its builds, and the next
// one gets what is left.

// ledger counts what the stages spent of the budget. A nil ledger
// counts nothing: f runs, nothing is left (a job a test made by hand).
type ledger struct {
	total time.Duration
	now   func() time.Time // time.Now; a test's clock in tests

	mu     sync.Mutex
	builds time.Duration // every build so far, in any stage
	spent  time.Duration // charged to the budget
	parts  []stageTime   // what each stage was charged
	outOf  time.Duration // the builds of the charged stages
	// The stage being charged, if any: when it began and the builds
	// counted by then (leftNow).
	running bool
	began   time.Time
	b0      time.Duration
}

func newLedger(total time.Duration) *ledger {
	return &ledger{total: total, now: time.Now}
}

// buildStage reports whether a stage event of explore or gen is a build:
// loading and type-checking, instrumenting, compiling, copying the module.
func buildStage(name string) bool {
	for _, p := range []string{"loading", "instrumenting", "building", "copying"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// watch returns a Stage callback that counts the builds and passes every
// event on to next (when set). Stage events may come from several
// goroutines.
func (l *ledger) watch(next func(explore.StageEvent)) func(explore.StageEvent) {
	if l == nil {
		return next
	}
	return func(ev explore.StageEvent) {
		if ev.Done && buildStage(ev.Name) {
			l.build(ev.Took)
		}
		if next != nil {
			next(ev)
		}
	}
}

// build counts d as build time (outside the budget).
func (l *ledger) build(d time.Duration) {
	if l == nil {
		return
	}
	l.mu.Lock()
	l.builds += d
	l.mu.Unlock()
}

// charge runs f, a stage of the budget, and charges its wall time less
// the builds counted while it ran. It returns the charge.
func (l *ledger) charge(name string, f func()) time.Duration {
	if l == nil {
		f()
		return 0
	}
	start := l.now()
	l.mu.Lock()
	b0 := l.builds
	l.running, l.began, l.b0 = true, start, b0
	l.mu.Unlock()
	f()
	wall := l.now().Sub(start)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.running = false
	b := l.builds - b0
	d := max(wall-b, 0)
	l.spent += d
	l.outOf += min(b, wall)
	l.parts = append(l.parts, stageTime{name, d})
	return d
}

// left is what is left of the budget.
func (l *ledger) left() time.Duration {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return max(l.total-l.spent, 0)
}

// leftNow is what is left of the budget now, the stage being charged
// counted so far (its wall time less the builds it finished): the one
// clock of the job, which a stage's replays and searches read to end
// inside the budget. Zero when nothing is left.
func (l *ledger) leftNow() time.Duration {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	spent := l.spent
	if l.running {
		spent += max(l.now().Sub(l.began)-(l.builds-l.b0), 0)
	}
	return max(l.total-spent, 0)
}

// leftFunc is leftNow as a function (nil for a nil ledger: no bound).
func (l *ledger) leftFunc() func() time.Duration {
	if l == nil {
		return nil
	}
	return l.leftNow
}

// shareLeft is, for a stage that begins with left of the budget and
// takes share of it (its floor included), what is left of that share at
// any moment of the stage: what it runs then ends inside it, and leaves
// the rest to the stages after it (nil for a nil ledger: no bound).
func (l *ledger) shareLeft(left, share time.Duration) func() time.Duration {
	if l == nil {
		return nil
	}
	after := left - share // what the later stages are owed (less when share is a floor)
	return func() time.Duration { return max(l.leftNow()-after, 0) }
}

// clock is the ledger's clock (nil for a nil ledger).
func (l *ledger) clock() func() time.Time {
	if l == nil {
		return nil
	}
	return l.now
}

// afterBuild is what the budget's stages took, their builds excluded.
func (l *ledger) afterBuild() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.spent
}

// line says what the budget's stages took against the budget, and the
// builds they did outside it.
func (l *ledger) line() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var parts []string
	for _, p := range l.parts {
		parts = append(parts, fmt.Sprintf("%s %v", p.name, p.d.Round(100*time.Millisecond)))
	}
	over := ""
	if l.total > 0 {
		over = fmt.Sprintf(" (%+.1f%%)", 100*(l.spent-l.total).Seconds()/l.total.Seconds())
	}
	return fmt.Sprintf("-budget %v: the stages after their builds took %v%s: %s; their builds took %v more, outside -budget",
		l.total, l.spent.Round(100*time.Millisecond), over, strings.Join(parts, ", "), l.outOf.Round(100*time.Millisecond))
}

// minBaseBudget is the least the base commit's replays and search get
// when the search before them spent the budget: past the budget, but a
// failure is not posted as new without asking the base.
const minBaseBudget = 2 * time.Second

// baseStageBudget is the budget of the base commit's stage: what is left
// but what gen, still to run, is owed (at least minBaseBudget).
func baseStageBudget(left, genOwed time.Duration) time.Duration {
	return max(left-genOwed, minBaseBudget)
}

// genStageBudget is gen's budget: what is left, at least a tenth of its
// share (its search must run at all to find anything).
func genStageBudget(left, share time.Duration) time.Duration {
	return max(left, share/10)
}

// genOver is how far past its budget gen's search may end to keep its
// replay reserve (gen.Options.Over): what -budget's 5% leaves once gen's
// budget is all that is left (less what gen's least share is past it).
// gocron-stop-twice: the base commit's replays took 10.7s of their 3s,
// gen got 29.8s, its sequential runs 22.5s, and its search 5.8s (gen's
// own 5%) found the restart deadlock with no time left to replay it.
func (r *job) genOver() time.Duration {
	l := r.budget
	if l == nil || l.total <= 0 {
		return 0
	}
	left := l.left()
	return max(l.total/20-max(genStageBudget(left, r.opts.GenBudget)-left, 0), time.Nanosecond)
}
