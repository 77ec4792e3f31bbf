package testctx

import (
	"testing"
	"time"
)

func TestNewEndsBeforeTheBinarysDeadline(t *testing.T) {
	ctx := New(t)
	end, ok := t.Deadline()
	got, has := ctx.Deadline()
	if !ok {
		if has {
			t.Fatalf("no test deadline, yet the context ends at %v", got)
		}
		return
	}
	if !has || !got.Before(end) {
		t.Fatalf("context deadline %v (set %v), want before the binary's %v", got, has, end)
	}
}

func TestMargin(t *testing.T) {
	for _, c := range []struct{ left, want time.Duration }{
		{10 * time.Minute, time.Minute},
		{5 * time.Minute, 30 * time.Second},
		{0, 0},
	} {
		if got := margin(c.left); got != c.want {
			t.Errorf("margin(%v) = %v, want %v", c.left, got, c.want)
		}
	}
}

func TestNewInACleanup(t *testing.T) {
	t.Cleanup(func() {
		if err := New(t).Err(); err != nil {
			t.Errorf("a context made in a cleanup has ended: %v", err)
		}
	})
}
