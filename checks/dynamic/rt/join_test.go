package rt

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// handlerGo is bench/recall's httphandlergo in rt's calls: net/http's
// connection goroutine (outside control) runs the handler, whose go
// statement starts the recording goroutine; the test reads the log after
// the response without waiting for it. With wait set, the handler waits
// for its goroutine before it answers (the correct twin). With
// RT_JOIN_SLOW set, the handler waits a while for real before its go
// statement. Run in child processes (TestMainChild), whose schedules may
// fail.
func handlerGo(wait bool) func(t *testing.T) {
	return func(t *testing.T) {
		var mu sync.Mutex
		var paths []string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if os.Getenv("RT_JOIN_SLOW") != "" {
				time.Sleep(50 * time.Millisecond)
			}
			done := make(chan struct{})
			Go(func() { // joinLine
				Lock(&mu)
				paths = append(paths, r.URL.Path)
				Unlock(&mu)
				Close(done)
			})
			if wait {
				<-done // outside control: for real
			}
			w.WriteHeader(http.StatusNoContent)
		}))
		resp, err := http.Get(srv.URL + "/x")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		srv.Close()
		Lock(&mu)
		n := len(paths)
		Unlock(&mu)
		if n != 1 {
			t.Fatalf("audit has %d entries, want 1", n)
		}
	}
}

// TestJoinOutside: a goroutine started by a go statement run outside
// control (the handler, on net/http's goroutine) joins the schedule at a
// recorded decision, so the search can run the test's read before it and
// a replay in which it comes later (its parent slow) still does. Before,
// it ran outside control: the search saw the failure now and then, by the
// machine's timing, and no replay could reproduce it.
func TestJoinOutside(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	rs, out, _ := runMain(t, Config{Test: "TestHandlerGo", Schedules: 200, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second})
	var failing *Result
	joins := 0
	for _, r := range rs {
		for _, d := range r.Decisions {
			if d.Op == opJoinName {
				joins++
				if d.G != 1 || !strings.HasPrefix(d.Site, "join_test.go:") {
					t.Fatalf("schedule %d: join %+v, want g1 at the handler's go statement", r.Index, d)
				}
			}
		}
		if r.Outcome == "test-failure" && failing == nil && hasJoinBeforeRead(r.Decisions) {
			failing = &r
		}
	}
	if len(rs) != 200 || joins == 0 || failing == nil {
		t.Fatalf("%d results, %d joins, a failing schedule with g1 joined before the test's read: %v; want 200, some, one\n%s", len(rs), joins, failing != nil, out)
	}
	sched := &Schedule{Seed: failing.Seed, Decisions: failing.Decisions}
	for i := 0; i < 3; i++ {
		rs, out, _ := runMain(t, Config{Test: "TestHandlerGo", Replay: sched, StepTimeout: 10 * time.Second})
		if len(rs) != 1 || rs[0].Outcome != "test-failure" || rs[0].Diverged != "" {
			t.Fatalf("replay %d: %+v, want the recorded test failure\n%s", i, rs, out)
		}
	}
	// The parent is slow to start it: the replay waits for the joiner at
	// its recorded decision.
	t.Setenv("RT_JOIN_SLOW", "1")
	rs, out, _ = runMain(t, Config{Test: "TestHandlerGo", Replay: sched, StepTimeout: 10 * time.Second})
	if len(rs) != 1 || rs[0].Outcome != "test-failure" || rs[0].Diverged != "" {
		t.Fatalf("replay with the handler slow: %+v, want the recorded test failure\n%s", rs, out)
	}
}

// hasJoinBeforeRead: g1 joined, then g0 locked before g1 did.
func hasJoinBeforeRead(ds []Decision) bool {
	joined := false
	for _, d := range ds {
		switch {
		case d.Op == opJoinName:
			joined = true
		case d.Op == "Mutex.Lock":
			return joined && d.G == 0
		}
	}
	return false
}

// TestJoinOutsideWaited: the correct twin (the handler waits for its
// goroutine, outside control, before it answers) passes on every
// schedule: the joiner is not held back while its parent waits for it.
func TestJoinOutsideWaited(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	for _, r := range RunSchedules(t, Config{Schedules: 30, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second}, handlerGo(true), nil) {
		if r.Outcome != "pass" || r.Inconclusive != "" {
			t.Fatalf("schedule %d: %s %s (inconclusive %q)", r.Index, r.Outcome, r.Message, r.Inconclusive)
		}
	}
}

// TestAbortFreesJoiners: once a schedule unwinds no decision admits a
// joiner, so those queued run free at once (a handler waiting for its
// goroutine can answer the test's goroutine, which then unwinds too).
func TestAbortFreesJoiners(t *testing.T) {
	s := &sched{}
	openJoins(s)
	defer closeJoins(s)
	ran := make(chan struct{})
	go joinMain(&joiner{}, func() { close(ran) })
	for len(s.queuedJoiners()) == 0 {
		time.Sleep(time.Millisecond)
	}
	s.abort()
	// A hang guard only: the test binary's deadline, less a margin.
	var end <-chan time.Time
	if d, ok := t.Deadline(); ok {
		end = time.After(time.Until(d) * 9 / 10)
	}
	select {
	case <-ran:
	case <-end:
		t.Fatal("the queued joiner did not run after the schedule began to unwind")
	}
}

// The join queue is guarded by a semaphore the race detector does not
// see: a joiner taken off the queue by one goroutine and one queued next
// by another must not show it a race in the queue's array (rt's own race
// seen on goworkerpool: join.go's append against a slice copy). A test
// for -race; without it, the queue's order is checked.
func TestJoinQueueNoRace(t *testing.T) {
	s := &sched{}
	openJoins(s)
	defer closeJoins(s)
	a, b, c := &joiner{}, &joiner{}, &joiner{}
	for i, j := range []*joiner{a, b} {
		go joinMain(j, func() {})
		for len(s.queuedJoiners()) != i+1 {
			time.Sleep(time.Millisecond)
		}
	}
	// Taken by another goroutine, ordered with this one only by the
	// queue's semaphore and the polling below.
	go takeJoiner(a)
	for len(s.queuedJoiners()) != 1 {
		time.Sleep(time.Millisecond)
	}
	go joinMain(c, func() {})
	for len(s.queuedJoiners()) != 2 {
		time.Sleep(time.Millisecond)
	}
	if q := s.queuedJoiners(); q[0] != b || q[1] != c {
		t.Errorf("queue %v, want b then c", q)
	}
}
