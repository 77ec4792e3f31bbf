package rt

import (
	"context"
	"encoding/json"
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

// pacedBody is TestReplayPacedTimers' kernel: a request to a real server
// whose handler sleeps *handler for real, a 5ms timer of the clock
// counting ticks (*ticks) until the answer; *took is the clock's time to
// the answer.
func pacedBody(handler, took *time.Duration, ticks *int) func(t *testing.T) {
	return func(t *testing.T) {
		d := *handler
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
		*ticks = 0
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
				*ticks++
			}
		}
		*took = Since(start)
	}
}

// recordPaced records pacedBody's schedule with a 60ms handler.
func recordPaced(t *testing.T, handler *time.Duration, body func(*testing.T)) Result {
	*handler = 60 * time.Millisecond
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, body, nil)
	if len(rs) != 1 || rs[0].Outcome != "pass" {
		t.Fatalf("recording: %+v", rs)
	}
	return rs[0]
}

// replaySlower replays rec with a 400ms handler: "" when it followed the
// recording (no divergence, the same ticks), what differed otherwise.
// The response comes after the replay's last tick even on a loaded
// machine (about 5ms of real time each: waitOutside); one that comes
// sooner than the recording's is TestReplayResponseBackSooner's case.
func replaySlower(t *testing.T, handler *time.Duration, body func(*testing.T), rec Result, ticks *int, recTicks int) string {
	return replayWithServer(t, 400*time.Millisecond, handler, body, rec, ticks, recTicks) // the replay's server is slower
}

// replayWithServer is replaySlower with the replay's server taking delay.
func replayWithServer(t *testing.T, delay time.Duration, handler *time.Duration, body func(*testing.T), rec Result, ticks *int, recTicks int) string {
	*handler = delay
	// The decisions as a schedule file carries them: marshalled as the
	// harness writes a result, read back as replay reads it.
	var saved Result
	if err := json.Unmarshal(marshalResult(rec), &saved); err != nil {
		return fmt.Sprintf("the recording's result does not decode: %v", err)
	}
	rr := RunSchedules(t, Config{Replay: &Schedule{Seed: saved.Seed, Decisions: saved.Decisions}, StepTimeout: 10 * time.Second}, body, nil)
	switch {
	case len(rr) != 1:
		return fmt.Sprintf("replay: %d results", len(rr))
	case rr[0].Outcome != "pass" || rr[0].Diverged != "":
		return fmt.Sprintf("replay: %s %q diverged %q", rr[0].Outcome, rr[0].Message, rr[0].Diverged)
	case *ticks != recTicks:
		return fmt.Sprintf("the replay counted %d ticks, the recording %d", *ticks, recTicks)
	}
	return ""
}

// TestReplayPacedTimers: where real time passed a deadline while a
// request was out (keepPace fired the timer, Decision.Paced), a replay
// fires it at the same decision and clock, whatever its own server's
// delay: the program reads the same time and counts as many ticks. Every
// one of pacedRecordings recordings replays (1 in 10 to 20 diverged
// before awaitRecordedClock waited for a response that had come back
// before the recording's clock moved: TestReplayResponseWithoutClock).
func TestReplayPacedTimers(t *testing.T) {
	const pacedRecordings = 12
	var handler, took time.Duration
	var ticks int
	body := pacedBody(&handler, &took, &ticks)
	var failures []string
	paced := 0
	for i := 0; i < pacedRecordings; i++ {
		rec := recordPaced(t, &handler, body)
		for _, d := range rec.Decisions {
			if d.Paced != 0 {
				paced++
				break
			}
		}
		recTook, recTicks := took, ticks
		if f := replaySlower(t, &handler, body, rec, &ticks, recTicks); f != "" {
			failures = append(failures, fmt.Sprintf("recording %d (%v, %d ticks): %s", i, recTook, recTicks, f))
		}
	}
	if paced == 0 {
		t.Error("no recording fired a timer where real time passed its deadline")
	}
	if len(failures) > 0 {
		t.Errorf("%d of %d recordings did not replay:\n%s", len(failures), pacedRecordings, strings.Join(failures, "\n"))
	}
}

// TestReplayResponseWithoutClock: the decision at which the response comes
// back carries no clock when it came back before real time moved the
// recording's clock (at the decision after a timer's creation, 1 in 10
// to 20 recordings of pacedBody). The replay, whose response is slower,
// waits for it (awaitRecordedClock) rather than fire the pending timer
// the recording had not fired: it diverged there before.
func TestReplayResponseWithoutClock(t *testing.T) {
	var handler, took time.Duration
	var ticks int
	body := pacedBody(&handler, &took, &ticks)
	rec := recordPaced(t, &handler, body)
	recTicks := ticks
	// The schedule of a recording whose response came back at once: the
	// response's send (g1's last decision) with no clock, and, the
	// receiver's select not settled then (no hand-off: commit.go), the
	// select's own decision after it.
	at, sel := -1, -1
	for i, d := range rec.Decisions {
		switch {
		case d.G == 1 && d.Op == opSend.String():
			at = i
		case d.G == 0 && d.Op == opSelect.String():
			sel = i
		}
	}
	n := len(rec.Decisions)
	switch {
	case at == n-2 && sel == n-1 && rec.Decisions[at].Clock == 0:
		// Recorded so.
	case at == n-1 && sel >= 0:
		rec.Decisions[at].Clock, rec.Decisions[at].Partner = 0, nil
		first := 0
		rec.Decisions = append(rec.Decisions, Decision{G: 0, Site: rec.Decisions[sel].Site, Op: opSelect.String(), Obj: rec.Decisions[sel].Obj, Choice: &first})
	default:
		t.Fatalf("want g1's send last, or before g0's select, in %+v", rec.Decisions)
	}
	if f := replaySlower(t, &handler, body, rec, &ticks, recTicks); f != "" {
		t.Error(f)
	}
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

// TestClockReadBackFromRealIO: the test's own goroutine makes a request to
// a real server whose handler sleeps 100ms for real (no hedging, no timer:
// cristalhq/hedgedhttp's TestClientBadNextUpto) and reads the clock as soon
// as the answer is back, before any other scheduling point. The read
// cannot say less than 100ms: no real run can. Before the fix it said 0s
// to 85ms (the scheduler had not yet added the real time it waited for the
// goroutine to come back).
func TestClockReadBackFromRealIO(t *testing.T) {
	const handler = 100 * time.Millisecond
	var took []time.Duration
	body := func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(handler) // outside control: for real
		}))
		defer srv.Close()
		start := Now()
		resp, err := http.Get(srv.URL)
		d := Since(start)
		took = append(took, d)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if d < handler {
			t.Errorf("the answer came after %v of the clock, before the handler's %v", d, handler)
		}
	}
	rs := RunSchedules(t, Config{Schedules: 3, Seed: 1, StepTimeout: 5 * time.Second}, body, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Errorf("schedule %d: %s %q (took %v)", r.Index, r.Outcome, r.Message, took)
		}
	}
	if t.Failed() || len(rs) == 0 {
		return
	}
	// Its replay reads what the recording read, whatever the server's
	// timing this time.
	recTook := took[len(took)-1]
	rec := rs[len(rs)-1]
	rr := RunSchedules(t, Config{Replay: &Schedule{Seed: rec.Seed, Decisions: rec.Decisions}, StepTimeout: 5 * time.Second}, body, nil)
	if len(rr) != 1 || rr[0].Outcome != "pass" || rr[0].Diverged != "" {
		t.Fatalf("replay: %+v", rr)
	}
	if got := took[len(took)-1]; got != recTook {
		t.Errorf("the replay read %v of the clock, the recording %v", got, recTook)
	}
}
