package explore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
)

// TestReplayPlanCounts: on a counted clock, a replay runs only when its
// test's cost and a process start, or what the previous replay took,
// fit in what is left; without Left every replay fits.
func TestReplayPlanCounts(t *testing.T) {
	t.Parallel()
	now := time.Unix(0, 0)
	left := 10 * time.Second
	p := &ReplayPlan{Left: func() time.Duration { return left }, Now: func() time.Time { return now }}
	if !p.Fits(2 * time.Second) {
		t.Fatal("a 2s replay does not fit in 10s")
	}
	now, left = now.Add(4*time.Second), 6*time.Second // it took 4s: start-up on a loaded machine
	p.Done()
	if !p.Fits(time.Second) {
		t.Fatal("a replay measured at 4s does not fit in 6s")
	}
	now, left = now.Add(4*time.Second), 3*time.Second
	p.Done()
	if p.Fits(time.Second) {
		t.Error("a replay measured at 4s fits in 3s: it would run past the budget")
	}
	left = 0
	if p.Fits(0) {
		t.Error("a replay fits when nothing is left")
	}
	var none *ReplayPlan
	if !none.Fits(time.Hour) || !(&ReplayPlan{}).Fits(time.Hour) {
		t.Error("a plan without Left bounds a replay")
	}
}

// TestCheckBaseWithinLeft: CheckBase replays a failure on the base
// commit only when it fits in what is left of the job's budget
// (BaseOptions.Left, counted, not timed), and searches there only with a
// second left: a failure with no time gets a verdict that says so
// (uncompared, never posted as the change's), and with time enough
// nothing is lost (the verdict as without Left). Without Left, the
// replays and a search of at least a second ran past the base stage's
// share (gocron-stop-twice: the base stage took 14.1s).
func TestCheckBaseWithinLeft(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a test binary; skipped with -short")
	}
	ctx := context.Background()
	root, p := passingCarryBase(t)
	f := checks.Finding{Kind: checks.Panic, Package: "example.com/carrymod/carry", Test: "TestCarried", Message: "panic: the carried test ran", Schedule: p}
	base := BaseOptions{Dir: root, Budget: time.Minute, Schedules: 2, Workers: 1, Seed: 1}

	// Nothing left: no replay, no search.
	var searched []string
	opts := base
	opts.Left = func() time.Duration { return 0 }
	opts.Stage = func(e StageEvent) {
		if strings.HasPrefix(e.Name, "searching") || strings.HasPrefix(e.Name, "unperturbed") {
			searched = append(searched, e.Name)
		}
	}
	vs, err := CheckBase(ctx, []checks.Finding{f}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if v := vs[0]; v.OnBase || !v.Uncompared || !strings.Contains(v.How, "no time was left") {
		t.Errorf("nothing left: %+v, want uncompared for want of time", v)
	}
	if len(searched) > 0 {
		t.Errorf("nothing left, yet searched: %q", searched)
	}

	// Time for the replay only (counted: the first call is the replay's
	// plan, every later one finds nothing left): its verdict, no search.
	calls := 0
	opts = base
	opts.Left = func() time.Duration {
		calls++
		if calls == 1 {
			return time.Minute
		}
		return 0
	}
	searched = nil
	opts.Stage = base.Stage
	vs, err = CheckBase(ctx, []checks.Finding{f}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if v := vs[0]; v.OnBase || v.Unconfirmed || !strings.Contains(v.How, "no time was left in the budget to search there") {
		t.Errorf("time for the replay only: %+v, want its schedule's verdict, no search", v)
	}

	// Time enough: replayed and searched, as without Left.
	opts = base
	opts.Left = func() time.Duration { return time.Minute }
	vs, err = CheckBase(ctx, []checks.Finding{f}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if v := vs[0]; v.OnBase || v.Unconfirmed || !strings.Contains(v.How, "neither its schedule nor") {
		t.Errorf("time enough: %+v, want searched on the base and not failing there", v)
	}
}

// passingCarryBase is a base commit whose carried test passes, and the
// head's failing schedule of it (the carried test's own).
func passingCarryBase(t *testing.T) (root, schedule string) {
	t.Helper()
	root = carryModule(t)
	passing := strings.Replace(carriedTest, "v == 1", "v == 2", 1)
	if err := os.WriteFile(filepath.Join(root, "carry", "carried_test.go"), []byte(passing), 0o644); err != nil {
		t.Fatal(err)
	}
	schedule = filepath.Join(root, ".interleave", "schedules", "own.json")
	if err := WriteSchedule(schedule, carriedSchedule(nil)); err != nil {
		t.Fatal(err)
	}
	return root, schedule
}
