package eventually

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A job runs on a 5-second timer and the test waits for it with testify's
// Eventually: its timer and ticker must be on the clock the job's timer is
// on (as under testing/synctest), or the schedule waits 5 s of real time
// while Eventually polls.
func TestEventuallyOnVirtualClock(t *testing.T) {
	var done atomic.Bool
	tm := time.AfterFunc(5*time.Second, func() { done.Store(true) })
	defer tm.Stop()
	assert.Eventually(t, func() bool { return done.Load() }, 10*time.Second, 10*time.Millisecond)
}
