package rt

import (
	"testing"
	"time"
)

// TestSelectFirstReady: a select that takes another ready case than its
// first records that first case (Decision.First), which the unperturbed
// schedule takes; one that takes its first ready case, or its only one,
// records none. httprc's tests of a canceled context fail when its
// select sends rather than take ctx.Done(), with no preemption: the
// choice is what the story and the grouping must see.
func TestSelectFirstReady(t *testing.T) {
	took := map[int]int{}
	rs := explore(t, 40, func(t *testing.T) {
		a, b, c := make(chan int, 1), make(chan int, 1), make(chan int, 1)
		Send(b, 1)
		Send(c, 2)
		for n := 0; n < 2; n++ { // b and c ready, then only the other one
			k := Select(false, RecvCase(a), RecvCase(b), RecvCase(c))
			select {
			case <-PickRecv(k, 0, a):
			case <-PickRecv(k, 1, b):
			case <-PickRecv(k, 2, c):
			}
		}
	})
	mustPass(t, rs)
	for _, r := range rs {
		var sels []Decision
		for _, d := range r.Decisions {
			if d.Op == "select" {
				sels = append(sels, d)
			}
		}
		if len(sels) != 2 || sels[0].Choice == nil || sels[1].Choice == nil {
			t.Fatalf("schedule %d: selects %+v, want two with a choice", r.Index, sels)
		}
		k := *sels[0].Choice
		took[k]++
		switch {
		case k == 1 && sels[0].First != nil:
			t.Errorf("schedule %d: took case 2, its first ready one, but records first %d", r.Index, *sels[0].First)
		case k == 2 && (sels[0].First == nil || *sels[0].First != 1):
			t.Errorf("schedule %d: took case 3 while case 2 was ready, records first %v, want 1", r.Index, sels[0].First)
		}
		if sels[1].First != nil {
			t.Errorf("schedule %d: the second select had one ready case, records first %d", r.Index, *sels[1].First)
		}
	}
	if took[1] == 0 || took[2] == 0 {
		t.Fatalf("cases taken first %v, want both ready ones sometimes", took)
	}
	// The unperturbed schedule takes the first ready case.
	plain := RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		b, c := make(chan int, 1), make(chan int, 1)
		Send(b, 1)
		Send(c, 2)
		k := Select(false, RecvCase(b), RecvCase(c))
		select {
		case <-PickRecv(k, 0, b):
		case <-PickRecv(k, 1, c):
		}
	}, nil)
	for _, d := range plain[0].Decisions {
		if d.Op == "select" && (d.Choice == nil || *d.Choice != 0 || d.First != nil) {
			t.Errorf("unperturbed: select %+v, want case 1 taken and no first recorded", d)
		}
	}
}
