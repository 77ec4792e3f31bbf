// Package oksynctestafterfunc: a retry timer whose callback logs on the
// bubble's T. The callback fires as the bubble's clock reaches it, beside
// the test's goroutine waking from the same sleep; synctest.Test waits for
// it, so it always logs before the test completes.
package oksynctestafterfunc

import (
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

type retrier struct {
	attempts atomic.Int32
}

func (r *retrier) schedule(t *testing.T, d time.Duration) {
	time.AfterFunc(d, func() {
		n := r.attempts.Add(1)
		t.Logf("retry %d", n)
	})
}

func TestRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var r retrier
		r.schedule(t, time.Second)
		time.Sleep(time.Second)
	})
}
