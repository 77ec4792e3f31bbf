package rt

import (
	"strings"
	"sync"
	"testing"
)

func TestRWMutex(t *testing.T) {
	bad := 0
	rs := explore(t, 40, func(t *testing.T) {
		var rw sync.RWMutex
		var wg sync.WaitGroup
		var cmu sync.Mutex // plain: guards the counters, no scheduling point
		readers, writers := 0, 0
		for i := 0; i < 3; i++ {
			WaitGroupAdd(&wg, 1)
			Go(func() {
				defer WaitGroupDone(&wg)
				if i == 0 {
					WLock(&rw)
					cmu.Lock()
					writers++
					if readers != 0 || writers != 1 {
						bad++
					}
					cmu.Unlock()
					Gosched()
					cmu.Lock()
					writers--
					cmu.Unlock()
					WUnlock(&rw)
					return
				}
				RLock(&rw)
				cmu.Lock()
				readers++
				if writers != 0 {
					bad++
				}
				cmu.Unlock()
				Gosched()
				cmu.Lock()
				readers--
				cmu.Unlock()
				RUnlock(&rw)
			})
		}
		WaitGroupWait(&wg)
	})
	mustPass(t, rs)
	if bad != 0 {
		t.Fatalf("RWMutex exclusion violated %d times", bad)
	}
}

// A recursive read lock deadlocks when a writer arrives in between: Go's
// RWMutex blocks new readers once a writer waits.
func TestRecursiveRLockDeadlock(t *testing.T) {
	rs := explore(t, 100, func(t *testing.T) {
		var rw sync.RWMutex
		done := make(chan bool, 1)
		Go(func() { WLock(&rw); WUnlock(&rw) })
		RLock(&rw)
		Gosched()
		RLock(&rw)
		RUnlock(&rw)
		RUnlock(&rw)
		done <- true
	})
	o := outcomes(rs)
	if o["deadlock"] == 0 || o["pass"] == 0 {
		t.Fatalf("want both outcomes, got %v", o)
	}
}

// A channel fed by a goroutine the scheduler does not control is polled,
// not reported as a deadlock.
func TestForeignSender(t *testing.T) {
	rs := explore(t, 5, func(t *testing.T) {
		ch := make(chan int)
		sel := make(chan int)
		go func() { ch <- 1; sel <- 2 }() // uncontrolled
		if v := Recv(ch); v != 1 {
			t.Errorf("got %d", v)
		}
		k := Select(false, RecvCase(sel))
		//lint:ignore S1000 this is the shape the rewriter gives a select
		select {
		case v := <-PickRecv(k, 0, sel):
			if v != 2 {
				t.Errorf("select got %d", v)
			}
		}
	})
	mustPass(t, rs)
}

func TestTargetedStrategy(t *testing.T) {
	s := NewStrategy("random", []string{"/x/a.go:10"})
	s.Reset(2) // an even seed: a targeted schedule
	stay := 0
	cands := []Candidate{{G: 0, Site: "b.go:3"}, {G: 1, Site: "a.go:10"}}
	for i := 0; i < 1000; i++ {
		if cands[s.Next(cands, 0, i)].G == 0 {
			stay++
		}
	}
	pre := 0
	for i := 0; i < 1000; i++ {
		if cands[s.Next(cands, 1, i)].G != 1 {
			pre++
		}
	}
	if stay < 700 || pre < 800 {
		t.Fatalf("targeted: stayed %d/1000 off target, preempted %d/1000 at target", stay, pre)
	}
	if !strings.Contains(shortSite("/x/a.go:10"), "a.go:10") {
		t.Fatal("shortSite")
	}
}

func TestRLockerAndLocker(t *testing.T) {
	order := map[string]int{}
	rs := explore(t, 40, func(t *testing.T) {
		var rw sync.RWMutex
		var mu sync.Mutex
		var wg sync.WaitGroup
		var seq []string
		var smu sync.Mutex // plain
		add := func(s string) { smu.Lock(); seq = append(seq, s); smu.Unlock() }
		WaitGroupAdd(&wg, 1)
		Go(func() {
			defer WaitGroupDone(&wg)
			WLock(&rw)
			add("w")
			WUnlock(&rw)
		})
		rl := rw.RLocker()
		LockerLock(rl)
		add("r")
		Gosched()
		add("r")
		LockerUnlock(rl)
		LockerLock(&mu)
		LockerUnlock(&mu)
		WaitGroupWait(&wg)
		order[strings.Join(seq, "")]++
	})
	mustPass(t, rs)
	for k := range order {
		if k != "rrw" && k != "wrr" {
			t.Fatalf("writer ran inside the read section: %v", order)
		}
	}
	if len(order) != 2 {
		t.Fatalf("both orders expected: %v", order)
	}
}

// A TryRLock while a writer waits for the readers to leave fails, as Go's
// does (a waiting writer shuts new readers out), and nothing is locked: a
// RUnlock only follows a TryRLock that succeeded. xsync's RBMutex
// (TryRLock ∥ Lock, then RUnlock) ended "fatal error: sync: RUnlock of
// unlocked RWMutex" when the real TryRLock succeeded beside a writer the
// shadow state had waiting.
func TestTryRLockBesideWaitingWriter(t *testing.T) {
	failed := 0
	rs := explore(t, 200, func(t *testing.T) {
		var rw sync.RWMutex
		var wg sync.WaitGroup
		RLock(&rw)
		WaitGroupAdd(&wg, 2)
		Go(func() {
			defer WaitGroupDone(&wg)
			WLock(&rw)
			WUnlock(&rw)
		})
		Go(func() {
			defer WaitGroupDone(&wg)
			for i := 0; i < 3; i++ {
				if TryRLock(&rw) {
					RUnlock(&rw)
				} else {
					failed++
				}
				Gosched()
			}
		})
		Gosched()
		Gosched()
		RUnlock(&rw)
		WaitGroupWait(&wg)
	})
	mustPass(t, rs)
	if failed == 0 {
		t.Fatal("no TryRLock failed beside a waiting writer in 200 schedules")
	}
}
