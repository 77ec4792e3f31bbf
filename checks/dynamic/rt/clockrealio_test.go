package rt

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestClockKeepsUpWithRealIO (open, branch applic26-hedgeclock): a
// handler on net/http's goroutine (outside control) sleeps 100ms for real;
// the controlled test hedges a request every 10ms of the virtual clock
// until one answers, as cristalhq/hedgedhttp's TestClient does. The answer
// cannot come before 100ms: the clock must not run slower than real time
// while the program waits on real I/O. Fails on 2026-12-01: the answer
// comes at 20-30ms of the clock (hedgedhttp: 10ms, 2 round trips of 5).
func TestClockKeepsUpWithRealIO(t *testing.T) {
	var took time.Duration
	var sent int
	handler := 100 * time.Millisecond
	rs := RunSchedules(t, Config{Schedules: 3, Seed: 1, StepTimeout: 5 * time.Second}, hedgeRealServer(&handler, &took, &sent), nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Errorf("schedule %d: %s %q", r.Index, r.Outcome, r.Message)
		}
	}
}

// hedgeRealServer is the kernel's body: a request to a real server whose
// handler sleeps *handler for real, hedged every 10ms of the clock until
// one answers; *took is the clock's time to the answer, *sent the
// requests sent.
func hedgeRealServer(handler, took *time.Duration, sent *int) func(t *testing.T) {
	return func(t *testing.T) {
		d := *handler
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			Sleep(d) // outside control: for real
		}))
		ctx, cancel := context.WithCancel(context.Background())
		res := make(chan int, 50)
		errs := make(chan error, 50)
		start := Now()
		*sent = 0
	loop:
		for *sent < 50 {
			*sent++
			Go(func() {
				req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL, nil)
				resp, err := http.DefaultTransport.RoundTrip(req)
				if err != nil {
					Send(errs, err)
					return
				}
				resp.Body.Close()
				Send(res, 1)
			})
			tm := NewTimer(10 * time.Millisecond)
			k := Select(false, RecvCase(res), RecvCase(errs), RecvCase(ctx.Done()), RecvCase(tm.C))
			select {
			case <-PickRecv(k, 0, res):
				break loop
			case <-PickRecv(k, 1, errs):
			case <-PickRecv(k, 2, ctx.Done()):
			case <-PickRecv(k, 3, tm.C):
			}
		}
		*took = Since(start)
		if *took < d {
			t.Errorf("the answer came after %v of the clock (%d sent), before the handler's %v", *took, *sent, d)
		}
		cancel()
		srv.Close()
	}
}

// TestReplayPacedTimers: where real time passed a deadline while a
// request was out (keepPace fired the timer, Decision.Paced), a replay
// fires it at the same decision and clock, whatever its own server's
// delay: the program reads the same time and counts as many ticks.
func TestReplayPacedTimers(t *testing.T) {
	handler := 60 * time.Millisecond
	var took time.Duration
	var ticks int
	body := func(t *testing.T) {
		d := handler
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			Sleep(d) // outside control: for real
		}))
		defer srv.Close()
		res := make(chan error, 1)
		start := Now()
		Go(func() {
			resp, err := http.Get(srv.URL)
			if err == nil {
				resp.Body.Close()
			}
			Send(res, err)
		})
		ticks = 0
	loop:
		for {
			tm := NewTimer(5 * time.Millisecond)
			k := Select(false, RecvCase(res), RecvCase(tm.C))
			select {
			case err := <-PickRecv(k, 0, res):
				if err != nil {
					t.Error(err)
				}
				break loop
			case <-PickRecv(k, 1, tm.C):
				ticks++
			}
		}
		took = Since(start)
	}
	// A replay that waits on real I/O can still diverge where the
	// response's timing decides what the recording did not record (1 in
	// 10 here, load ~40): up to three recordings, one must replay.
	var failures []string
	for attempt := 0; attempt < 3; attempt++ {
		handler = 60 * time.Millisecond
		var rec *Result
		for try := 0; try < 10 && rec == nil; try++ {
			rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, body, nil)
			if len(rs) != 1 || rs[0].Outcome != "pass" {
				t.Fatalf("recording: %+v", rs)
			}
			for _, d := range rs[0].Decisions {
				if d.Paced != 0 {
					rec = &rs[0]
				}
			}
		}
		if rec == nil {
			t.Fatal("no recording fired a timer where real time passed its deadline")
		}
		recTook, recTicks := took, ticks
		handler = 120 * time.Millisecond // the replay's server is slower
		sched := &Schedule{Seed: rec.Seed, Decisions: rec.Decisions}
		rr := RunSchedules(t, Config{Replay: sched, StepTimeout: 10 * time.Second}, body, nil)
		switch {
		case len(rr) != 1 || rr[0].Outcome != "pass" || rr[0].Diverged != "":
			failures = append(failures, fmt.Sprintf("replay: %d results, the first %s %q diverged %q", len(rr), rr[0].Outcome, rr[0].Message, rr[0].Diverged))
		case took != recTook || ticks != recTicks:
			failures = append(failures, fmt.Sprintf("the replay read %v after %d ticks, the recording %v after %d", took, ticks, recTook, recTicks))
		default:
			return
		}
	}
	t.Errorf("no replay of three followed its recording:\n%s", strings.Join(failures, "\n"))
}

// TestClockJumpsWithoutRealIO: the same hedging loop against a server of
// controlled goroutines that answers after 10 minutes of the clock, after
// a real round trip has come and gone and while a real server stays open
// (its accept loop in network I/O): nothing waits on the outside world,
// so the clock jumps to each hedge's deadline (every 90s) instead of keeping pace
// with real time (keepPace), and the test takes 10 minutes of the clock
// in far less real time (an hour is a bound no loaded machine comes near).
func TestClockJumpsWithoutRealIO(t *testing.T) {
	var took, real time.Duration
	var sent int
	rs := RunSchedules(t, Config{Schedules: 3, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		realStart := time.Now()
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
		defer srv.Close()
		done := make(chan struct{})
		Go(func() {
			if resp, err := http.Get(srv.URL); err == nil {
				resp.Body.Close()
			}
			Close(done)
		})
		Recv(done)
		res := make(chan int, 20)
		start := Now()
		sent = 0
	loop:
		for sent < 20 {
			sent++
			Go(func() {
				Sleep(10 * time.Minute)
				Send(res, 1)
			})
			tm := NewTimer(90 * time.Second)
			k := Select(false, RecvCase(res), RecvCase(tm.C))
			select {
			case <-PickRecv(k, 0, res):
				break loop
			case <-PickRecv(k, 1, tm.C):
			}
		}
		took, real = Since(start), time.Since(realStart)
		if took < 10*time.Minute || took > 10*time.Minute+time.Millisecond || sent != 7 {
			t.Errorf("the answer came after %v of the clock (%d sent), want 10m0s and 7", took, sent)
		}
		if real >= time.Hour {
			t.Errorf("the schedule took %v of real time for %v of the clock", real, took)
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Errorf("schedule %d: %s %q", r.Index, r.Outcome, r.Message)
		}
	}
}
