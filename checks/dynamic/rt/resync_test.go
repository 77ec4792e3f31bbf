package rt

import (
	"slices"
	"testing"
	"time"
)

// TestResyncKeepsChoices: a replay with Schedule.Resync that leaves its
// recorded decisions takes, at each later select, the case the same
// goroutine took on its same-numbered select at that site in the
// recording; without Resync the strategy chooses (the unperturbed one:
// the first ready case). The shrinker's tries rely on it: a preemption
// taken out moves the decisions after it, and the choices a failure hangs
// on (httprc's canceled context) must stay.
func TestResyncKeepsChoices(t *testing.T) {
	var took []int
	body := func(t *testing.T) {
		took = took[:0]
		b, c := make(chan int, 1), make(chan int, 1)
		Send(b, 1)
		Send(c, 2)
		for n := 0; n < 2; n++ {
			k := Select(false, RecvCase(b), RecvCase(c))
			select {
			case <-PickRecv(k, 0, b):
			case <-PickRecv(k, 1, c):
			}
			took = append(took, k)
		}
	}
	cfg := Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 5 * time.Second, Trace: true}
	rec := RunSchedules(t, cfg, body, nil)
	mustPass(t, rec)
	if !slices.Equal(took, []int{0, 1}) {
		t.Fatalf("unperturbed: took %v, want [0 1]", took)
	}
	// The recording as if the first select had taken its second case,
	// with a first decision no run makes: the replay leaves it at once.
	ds := slices.Clone(rec[0].Decisions)
	sels := 0
	for i := range ds {
		if ds[i].Op != "select" {
			continue
		}
		if sels == 0 {
			one, zero := 1, 0
			ds[i].Choice, ds[i].First = &one, &zero
		} else {
			zero := 0
			ds[i].Choice = &zero
		}
		sels++
	}
	if sels != 2 {
		t.Fatalf("recorded %d selects, want 2: %+v", sels, ds)
	}
	ds[0].Op = "nothing"
	for _, resync := range []bool{false, true} {
		sch := &Schedule{Strategy: PlainStrategy, Decisions: ds, Resync: resync}
		r := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, Plain{}, sch, body)
		if r.Diverged == "" || r.Outcome != "pass" {
			t.Fatalf("resync %v: %s, diverged %q; want a pass that left the recording", resync, r.Outcome, r.Diverged)
		}
		want := []int{0, 1}
		if resync {
			want = []int{1, 0}
		}
		if !slices.Equal(took, want) {
			t.Errorf("resync %v: took %v, want %v", resync, took, want)
		}
	}
}
