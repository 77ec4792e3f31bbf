// Package poller waits for a callback with a poll-until-true helper of a
// module the rewriter leaves as written (polldep, like testify's
// Eventually): every schedule waits about a second of real time outside
// the scheduler's control. A schedule started just before the end of its
// test's share must be let run to its end, not called stuck.
package poller

import (
	"testing"
	"time"

	"polldep"
)

func TestPoll1(t *testing.T) { pollCallback(t) }
func TestPoll2(t *testing.T) { pollCallback(t) }
func TestPoll3(t *testing.T) { pollCallback(t) }
func TestPoll4(t *testing.T) { pollCallback(t) }

func pollCallback(t *testing.T) {
	checkCh := make(chan struct{})
	go func() { checkCh <- struct{}{} }()
	if !polldep.Eventually(func() bool {
		select {
		case <-checkCh:
			return true
		default:
			return false
		}
	}, 5*time.Second, time.Second) {
		t.Fatal("the callback never ran")
	}
}
