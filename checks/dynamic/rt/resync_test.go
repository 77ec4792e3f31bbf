package rt

import (
	"slices"
	"testing"
	"time"
)

// TestResyncKeepsChoices: a replay with Schedule.Leave that leaves its
// recorded decisions takes, at each later select, the case the same
// goroutine took on its same-numbered select at that site in Resync,
// counting its selects from the start; without Leave the strategy
// chooses (the unperturbed one: the first ready case). The shrinker's
// tries rely on it: a preemption taken out moves the decisions after it,
// and the choices a failure hangs on (httprc's canceled context) must
// stay.
func TestResyncKeepsChoices(t *testing.T) {
	var took []int
	body := func(t *testing.T) {
		took = took[:0]
		b, c, x := make(chan int, 2), make(chan int, 2), make(chan int, 1)
		Send(b, 1)
		Send(b, 2)
		Send(c, 3)
		Send(c, 4)
		for n := 0; n < 2; n++ { // both cases ready each time
			k := Select(false, RecvCase(b), RecvCase(c))
			select {
			case <-PickRecv(k, 0, b):
			case <-PickRecv(k, 1, c):
			}
			took = append(took, k)
			if n == 0 {
				Send(x, 0)
			}
		}
	}
	cfg := Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 5 * time.Second, Trace: true}
	rec := RunSchedules(t, cfg, body, nil)
	mustPass(t, rec)
	if !slices.Equal(took, []int{0, 0}) {
		t.Fatalf("unperturbed: took %v, want [0 0]", took)
	}
	// The recording as if the second select had taken its second case,
	// with the send between the selects made an operation no run makes:
	// the replay follows the first select, then leaves the decisions.
	ds := slices.Clone(rec[0].Decisions)
	sels, left := 0, false
	for i := range ds {
		switch {
		case ds[i].Op == "select":
			if sels == 1 {
				one, zero := 1, 0
				ds[i].Choice, ds[i].First = &one, &zero
			}
			sels++
		case ds[i].Op == "chan send" && sels == 1:
			ds[i].Op, left = "nothing", true
		}
	}
	if sels != 2 || !left {
		t.Fatalf("recorded %d selects (want 2), a send between them %v: %+v", sels, left, ds)
	}
	for _, resync := range []bool{false, true} {
		sch := &Schedule{Strategy: PlainStrategy, Decisions: ds}
		if resync {
			sch.Leave, sch.Resync = true, ds
		}
		r := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, Plain{}, sch, body)
		if r.Diverged == "" || r.Outcome != "pass" {
			t.Fatalf("resync %v: %s, diverged %q; want a pass that left the recording", resync, r.Outcome, r.Diverged)
		}
		want := []int{0, 0}
		if resync {
			want = []int{0, 1}
		}
		if !slices.Equal(took, want) {
			t.Errorf("resync %v: took %v, want %v", resync, took, want)
		}
	}
}
