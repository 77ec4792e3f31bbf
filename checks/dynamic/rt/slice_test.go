package rt

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// TestPlainSliceWhileRealTimeRuns: in the unperturbed schedule, while a
// goroutine waits on a real server (the clock keeps pace with real time),
// a goroutine that can run is not passed over for more than a time slice
// of the clock (as the runtime preempts one that ran 10ms): the test's
// goroutine, woken from its sleep while a newer one works on, runs before
// the real request returns. Before, Plain ran the newest goroutine on
// until the request came back (yamux's TestWriteDeadline_BlockedWrite:
// the test's goroutine waited 350ms of paced clock behind the stream's
// writer while the keepalive's 250ms ran out, a note of the tool's).
func TestPlainSliceWhileRealTimeRuns(t *testing.T) {
	var ranBefore bool
	rs := RunSchedules(t, Config{Strategy: PlainStrategy, Schedules: 1, Seed: 1, MaxSteps: 1 << 20, StepTimeout: 10 * time.Second}, func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select { // outside control: for real
			case <-time.After(2 * time.Second):
			case <-r.Context().Done():
			}
		}))
		defer srv.Close()
		ctx, cancel := context.WithCancel(context.Background())
		var mu sync.Mutex
		back, stop := false, false
		done := make(chan struct{})
		Go(func() {
			req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL, nil)
			if resp, err := http.DefaultTransport.RoundTrip(req); err == nil {
				resp.Body.Close()
			}
			Lock(&mu)
			back = true
			Unlock(&mu)
			Close(done)
		})
		Sleep(time.Millisecond) // the request goes out
		worked := make(chan struct{})
		Go(func() {
			defer Close(worked)
			bump := func(i int) bool { // other arguments each time: work, not a spin
				_ = i
				Lock(&mu)
				defer Unlock(&mu)
				return stop
			}
			for i := 0; !bump(i); i++ {
			}
		})
		Sleep(time.Millisecond)
		Lock(&mu)
		ranBefore, stop = !back, true
		Unlock(&mu)
		cancel()
		Recv(worked)
		Recv(done)
	}, nil)
	if len(rs) != 1 || rs[0].Outcome != "pass" {
		t.Fatalf("results %+v", rs)
	}
	if !ranBefore {
		t.Errorf("the test's goroutine ran only after the real request returned: passed over while the clock kept pace with real time")
	}
}
