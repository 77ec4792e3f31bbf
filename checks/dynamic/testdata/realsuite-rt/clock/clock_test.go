package clock

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A test that measures a sleep must see the slept duration.
func TestElapsed(t *testing.T) {
	start := time.Now()
	time.Sleep(2 * time.Second)
	if d := time.Since(start); d < 2*time.Second {
		t.Fatalf("slept 2s, time.Since says %v", d)
	}
	deadline := start.Add(3 * time.Second)
	if u := time.Until(deadline); u > time.Second {
		t.Fatalf("time.Until(start+3s) = %v after sleeping 2s", u)
	}
}

// A context deadline and a timer are on one clock: the 50ms deadline
// expires long before the hour.
func TestTimeoutBeforeHour(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	select {
	case <-ctx.Done():
	case <-time.After(time.Hour):
		t.Fatal("an hour passed before a 50ms deadline")
	}
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("err = %v", ctx.Err())
	}
	// A context derived from it says why.
	sub, cancelSub := context.WithCancel(ctx)
	defer cancelSub()
	if !errors.Is(sub.Err(), context.DeadlineExceeded) {
		t.Fatalf("derived err = %v", sub.Err())
	}
}

// A deadline does not expire while the test sleeps less, and does after.
func TestDeadlineNotEarly(t *testing.T) {
	dl := time.Now().Add(2 * time.Second)
	ctx, cancel := context.WithDeadline(context.Background(), dl)
	defer cancel()
	time.Sleep(500 * time.Millisecond)
	if ctx.Err() != nil {
		t.Fatalf("a 2s deadline expired after 500ms: %v", ctx.Err())
	}
	if got, ok := ctx.Deadline(); !ok || !got.Equal(dl) {
		t.Fatalf("Deadline() = %v, %v; want %v", got, ok, dl)
	}
	if left := time.Until(dl); left > 1500*time.Millisecond {
		t.Fatalf("time left %v after 500ms of 2s", left)
	}
	time.Sleep(2 * time.Second)
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("after the deadline err = %v", ctx.Err())
	}
}

// Workers stop at a deadline while a ticker counts.
func TestTickerUntilDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 95*time.Millisecond)
	defer cancel()
	tk := time.NewTicker(10 * time.Millisecond)
	defer tk.Stop()
	n := 0
	for {
		select {
		case <-tk.C:
			n++
		case <-ctx.Done():
			if n < 5 || n > 10 {
				t.Fatalf("%d ticks of 10ms in a 95ms deadline", n)
			}
			return
		}
	}
}
