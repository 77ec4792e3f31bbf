package gen

import (
	"strings"
	"testing"
	"time"
)

// The sequential runs are paid from the budget: the search gets the rest,
// at least a tenth.
func TestSearchBudget(t *testing.T) {
	for _, c := range []struct{ budget, seq, want time.Duration }{
		{30 * time.Second, 10 * time.Second, 20 * time.Second},
		{30 * time.Second, 0, 30 * time.Second},
		{30 * time.Second, time.Minute, 3 * time.Second},
	} {
		if got := searchBudget(c.budget, c.seq); got != c.want {
			t.Errorf("searchBudget(%v, %v) = %v, want %v", c.budget, c.seq, got, c.want)
		}
	}
}

// The sequential check's first round always runs; the others only before
// their end, and never more than maxFeedbackRounds.
func TestAnotherRound(t *testing.T) {
	t0 := time.Unix(1000, 0)
	until := t0.Add(15 * time.Second)
	for _, c := range []struct {
		round int
		now   time.Time
		until time.Time
		want  bool
	}{
		{0, t0.Add(time.Hour), until, true},
		{1, t0.Add(10 * time.Second), until, true},
		{1, t0.Add(15 * time.Second), until, false},
		{3, t0.Add(time.Hour), time.Time{}, true},
		{maxFeedbackRounds, t0, time.Time{}, false},
	} {
		if got := anotherRound(c.round, c.now, c.until); got != c.want {
			t.Errorf("anotherRound(%d, %v, %v) = %v, want %v", c.round, c.now.Sub(t0), c.until.Sub(t0), got, c.want)
		}
	}
}

// go test's build time is until its first test binary started: the
// sequential runs are charged their run time only.
func TestBuildTime(t *testing.T) {
	began := time.Unix(1000, 0)
	out := []byte(`{"Time":"1970-01-01T00:16:52Z","Action":"start","Package":"m/p"}
{"Time":"1970-01-01T00:16:53Z","Action":"run","Package":"m/p","Test":"TestA"}
{"Time":"1970-01-01T00:16:54Z","Action":"pass","Package":"m/p","Test":"TestA"}
{"Time":"1970-01-01T00:16:51Z","Action":"start","Package":"m/q"}
`)
	st, _, started := parseTestJSON(out)
	if st["m/p.TestA"] != "pass" {
		t.Fatalf("status %v", st)
	}
	if got, want := buildTime(began, started, began.Add(20*time.Second)), 11*time.Second; got != want {
		t.Errorf("build time %v, want %v (until the first start)", got, want)
	}
	if got, want := buildTime(began, time.Time{}, began.Add(20*time.Second)), 20*time.Second; got != want {
		t.Errorf("build time with no start %v, want all of it, %v", got, want)
	}
}

// Rounds after the first stop at the sequential runs' end: go test's
// -timeout is what is left, but enough for a blocking case to fail.
func TestRoundTimeout(t *testing.T) {
	t0 := time.Unix(1000, 0)
	until := t0.Add(40 * time.Second)
	for _, c := range []struct {
		round int
		now   time.Time
		until time.Time
		want  string
	}{
		{0, t0, until, "30m"},
		{1, t0, time.Time{}, "30m"},
		{1, t0.Add(10 * time.Second), until, "30s"},
		{2, t0.Add(39 * time.Second), until, (sequentialTimeout + 5*time.Second).String()},
	} {
		if !strings.Contains(sequentialHelpers, "const genSequentialTimeout = 10 * time.Second") {
			t.Fatal("sequentialTimeout is not the generated file's genSequentialTimeout")
		}
		if got := roundTimeout(c.round, c.now, c.until); got != c.want {
			t.Errorf("roundTimeout(%d, %v) = %s, want %s", c.round, c.now.Sub(t0), got, c.want)
		}
	}
}
