package cancel

import (
	"context"
	"testing"
	"time"

	"dep"
)

// The standard library's context closes Done inside cancel, where the
// scheduler does not see it (or hands out its pre-closed channel): the
// select must not take default.
func TestDoneBeforeDefault(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	select {
	case <-ctx.Done():
	default:
		t.Fatal("ctx.Done() not closed after cancel")
	}
}

// A goroutine cancels; the test waits for Done or an hour. The hour must
// not win: the close is visible before the clock moves.
func TestDoneBeforeTimer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go cancel()
	select {
	case <-ctx.Done():
	case <-time.After(time.Hour):
		t.Fatal("the hour passed before ctx.Done() was seen")
	}
}

// A dependency's goroutine feeds and closes channels.
func TestForeignChannels(t *testing.T) {
	select {
	case v := <-dep.Feed(7):
		if v != 7 {
			t.Fatalf("got %d", v)
		}
	case <-time.After(time.Hour):
		t.Fatal("the hour passed before the dependency's send was seen")
	}
	done := dep.Closed()
	for {
		select {
		case <-done:
			return
		case <-time.After(time.Hour):
			t.Fatal("the hour passed before the dependency's close was seen")
		}
	}
}
