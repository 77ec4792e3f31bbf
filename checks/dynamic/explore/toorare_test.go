package explore

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
)

// TestChancesNeeded: how many schedules on the base commit a failure
// needs, by how often it failed on the head (counts, no clock).
func TestChancesNeeded(t *testing.T) {
	for _, c := range []struct {
		q    *checks.Frequency
		want int
	}{
		{nil, 1},
		{&checks.Frequency{Failing: 5, Schedules: 5}, 2},
		{&checks.Frequency{Failing: 1, Schedules: 1}, 20}, // fsnotify v1.7.0's TestClose leak
		{&checks.Frequency{Failing: 20, Schedules: 20}, 1},
		{&checks.Frequency{Failing: 19, Schedules: 19}, 2},
		{&checks.Frequency{Failing: 1, Schedules: 2}, 39},
		{&checks.Frequency{Failing: 1, Schedules: 3}, 58},     // gocron v1.15.0's TestScheduler_Update
		{&checks.Frequency{Failing: 9, Schedules: 470}, 185},  // ttlcache-stopfirst's leak
		{&checks.Frequency{Failing: 2, Schedules: 952}, 3313}, // ttlcache-stopfirst's Test_Cache_Start race
	} {
		if got := chancesNeeded(c.q); got != c.want {
			t.Errorf("chancesNeeded(%+v) = %d, want %d", c.q, got, c.want)
		}
	}
	// 162 schedules of the base (its replay and 161 searched) are not
	// enough for 2 of 952; 3312 searched are.
	q := &checks.Frequency{Failing: 2, Schedules: 952}
	if v := tooRareOnBase(BaseVerdict{How: "searched"}, q, 161, false); !v.TooRare || !v.Uncompared || v.OnBase {
		t.Errorf("161 searched for 2 of 952: %+v, want too rare to compare", v)
	}
	if v := tooRareOnBase(BaseVerdict{How: "searched"}, q, 3311, false); !v.TooRare {
		t.Errorf("3311 searched for 2 of 952: %+v, want too rare to compare", v)
	}
	if v := tooRareOnBase(BaseVerdict{How: "searched"}, q, 3312, false); v.TooRare || v.Uncompared || v.How != "searched" {
		t.Errorf("3312 searched for 2 of 952: %+v, want the search's verdict", v)
	}
	// A failure on the one schedule of the head: its replay on the base
	// decides when it kept to the schedule; else 5 more say nothing.
	one := &checks.Frequency{Failing: 1, Schedules: 1}
	if v := tooRareOnBase(BaseVerdict{How: "searched"}, one, 5, false); !v.TooRare || !v.Uncompared {
		t.Errorf("1 of 1, a replay that left the schedule and 5 searched: %+v, want too rare to compare", v)
	}
	if v := tooRareOnBase(BaseVerdict{How: "searched"}, one, 0, true); v.TooRare || v.How != "searched" {
		t.Errorf("1 of 1, a replay that kept to the schedule: %+v, want the replay's verdict", v)
	}
	if v := tooRareOnBase(BaseVerdict{How: "searched"}, q, 0, true); !v.TooRare {
		t.Errorf("2 of 952, a replay that kept to the schedule: %+v, want too rare to compare", v)
	}
}

// TestCheckBaseTooRare: a failure the head had on 1 of 1000 schedules,
// that its schedule's replay on the base commit misses, with no time left
// there to search, is not compared ("too rare to compare in the time
// left"), never the change's: one schedule says nothing at that rate.
// The same miss of a failure on every schedule of the head is its
// replay's verdict when the replay kept to the schedule. What is left of the budget is a constant
// (Left): room for the replay, under the second a search needs.
func TestCheckBaseTooRare(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary; skipped with -short")
	}
	ctx := context.Background()
	root, p := passingCarryBase(t)
	rare := checks.Finding{Kind: checks.Panic, Package: "example.com/carrymod/carry", Test: "TestCarried", Message: "panic: the carried test ran", Schedule: p,
		Frequency: &checks.Frequency{Failing: 1, Schedules: 1000}}
	every := rare
	every.Frequency = &checks.Frequency{Failing: 3, Schedules: 3}
	var searched int
	opts := BaseOptions{Dir: root, Budget: time.Hour, Schedules: 2, Workers: 1, Seed: 1, Stage: func(e StageEvent) {
		if strings.HasPrefix(e.Name, "searching") {
			searched++
		}
	}, Left: func() time.Duration { return minBaseSearch / 2 }}
	vs, err := CheckBase(ctx, []checks.Finding{rare}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if v := vs[0]; v.OnBase || !v.Uncompared || !v.TooRare || !strings.Contains(v.How, "too rare to compare in the time left: it failed on 1 of 1000 schedules here, and the base commit ran its schedule and 0 schedules of its test, under the 19086") {
		t.Errorf("1 of 1000, missed by its replay, no search: %+v, want not compared, too rare", v)
	}
	if searched != 0 {
		t.Errorf("the base commit was searched %d times with under a second left", searched)
	}
	vs, err = CheckBase(ctx, []checks.Finding{every}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if v := vs[0]; v.OnBase || v.Unconfirmed || v.TooRare || !strings.Contains(v.How, "its schedule does not fail this way on the base commit") {
		t.Errorf("3 of 3, missed on the base: %+v, want its replay's verdict", v)
	}
	// Another failure of its cause, in a test the base commit does not
	// have: the cause is new in the change, as when that one came first.
	onHead := carriedSchedule(nil)
	onHead.Test = "TestOnlyOnHead"
	op := filepath.Join(root, ".interleave", "schedules", "onhead.json")
	if err := WriteSchedule(op, onHead); err != nil {
		t.Fatal(err)
	}
	withNew := rare
	withNew.SameCause = []checks.Occurrence{{Test: "TestCarried", Schedule: p}, {Test: "TestOnlyOnHead", Schedule: op}}
	onlyOld := rare
	onlyOld.SameCause = []checks.Occurrence{{Test: "TestCarried", Schedule: p}}
	vs, err = CheckBase(ctx, []checks.Finding{withNew, onlyOld}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if v := vs[0]; v.OnBase || !v.Unconfirmed || v.Uncompared || v.TooRare || !strings.Contains(v.How, "the base commit has no test TestOnlyOnHead, where this failure's cause fails too") {
		t.Errorf("too rare, another of its cause in a test only the head has: %+v, want new in the change", v)
	}
	if v := vs[1]; !v.TooRare {
		t.Errorf("too rare, its cause only in tests the base has: %+v, want too rare", v)
	}
}

// TestBaseSchedules: a count-bounded search on the base commit runs at
// least what gives each failure its chances, over the workers; an
// unbounded one stays unbounded.
func TestBaseSchedules(t *testing.T) {
	fs := []checks.Finding{
		{Frequency: &checks.Frequency{Failing: 1, Schedules: 201}},
		{Frequency: &checks.Frequency{Failing: 3, Schedules: 3}},
	}
	for _, c := range []struct {
		schedules, workers int
		idx                []int
		want               int
	}{
		{0, 2, []int{0, 1}, 0},
		{20, 2, []int{1}, 20},
		{20, 1, []int{0, 1}, chancesNeeded(fs[0].Frequency) - 1},
		{20, 2, []int{0}, chancesNeeded(fs[0].Frequency) / 2},
	} {
		if got := baseSchedules(BaseOptions{Schedules: c.schedules, Workers: c.workers}, fs, c.idx); got != c.want {
			t.Errorf("baseSchedules(count %d, %d workers, %v) = %d, want %d", c.schedules, c.workers, c.idx, got, c.want)
		}
	}
}

// TestComparedSchedules: after a head search aimed at the change, only
// the base's search aimed alike weighs against the head's rate; the
// unaimed one's schedules are told, not counted.
func TestComparedSchedules(t *testing.T) {
	st := []Stats{
		{Tests: []TestStats{{Test: "TestA", Schedules: 7}, {Test: "TestB", Schedules: 3}}},
		{Tests: []TestStats{{Test: "TestA", Schedules: 190}}},
	}
	for _, c := range []struct {
		st              []Stats
		aimed           bool
		n, wantCompared int
	}{
		{st, true, 197, 7},
		{st, false, 197, 197},
		{st[:1], true, 7, 7},
		{nil, true, 0, 0},
	} {
		if n, compared := comparedSchedules(c.st, "TestA", c.aimed); n != c.n || compared != c.wantCompared {
			t.Errorf("comparedSchedules(%d searches, aimed %v) = %d, %d; want %d, %d", len(c.st), c.aimed, n, compared, c.n, c.wantCompared)
		}
	}
	// 7 aimed misses say nothing against a failure on 2 of 6 head
	// schedules; 197 would have called it new.
	q := &checks.Frequency{Failing: 2, Schedules: 6}
	if v := tooRareOnBase(BaseVerdict{How: "searched"}, q, 7, false); !v.TooRare {
		t.Errorf("2 of 6 on the head, 7 aimed misses on the base: %+v, want too rare to compare", v)
	}
	if v := tooRareOnBase(BaseVerdict{How: "searched"}, q, 197, false); v.TooRare {
		t.Errorf("2 of 6 on the head, 197 misses on the base: %+v, want compared", v)
	}
}
