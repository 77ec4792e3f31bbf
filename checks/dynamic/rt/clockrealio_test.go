package rt

import (
	"context"
	"net/http"
	"net/http/httptest"
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
	rs := RunSchedules(t, Config{Schedules: 3, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			Sleep(100 * time.Millisecond) // outside control: for real
		}))
		ctx, cancel := context.WithCancel(context.Background())
		res := make(chan int, 5)
		errs := make(chan error, 5)
		start := Now()
		sent = 0
	loop:
		for sent < 50 {
			sent++
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
		took = Since(start)
		if took < 100*time.Millisecond {
			t.Errorf("the answer came after %v of the clock (%d sent), before the handler's 100ms", took, sent)
		}
		cancel()
		srv.Close()
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Errorf("schedule %d: %s %q", r.Index, r.Outcome, r.Message)
		}
	}
}
