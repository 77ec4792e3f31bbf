package afterreturn

import (
	"testing"
	"time"
)

// reporter is what an assertion library takes (testify's TestingT).
type reporter interface {
	Errorf(format string, args ...any)
}

func noError(t reporter, err error) {
	if err != nil {
		t.Errorf("unexpected error: %v", err)
	}
}

// TestCloseWaitsForHandler checks that Close waits for a handler, and
// leaves both behind: the handler never returns, and Close fails the test
// through noError 30 s after the test returned.
func TestCloseWaitsForHandler(t *testing.T) {
	r := New()
	started := make(chan struct{})
	r.Handle(func(<-chan struct{}) {
		close(started)
		select {}
	})
	<-started
	closed := make(chan struct{})
	go func() {
		noError(t, r.Close())
		close(closed)
	}()
	select {
	case <-closed:
		t.Fatal("Close returned before its handler did")
	case <-time.After(100 * time.Millisecond):
	}
}

// TestCloseStopsHandler: a handler that returns when the router closes;
// nothing fails, nothing is left.
func TestCloseStopsHandler(t *testing.T) {
	r := New()
	r.Handle(func(closing <-chan struct{}) { <-closing })
	noError(t, r.Close())
}
