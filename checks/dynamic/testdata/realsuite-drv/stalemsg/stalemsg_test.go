// Package stalemsg leaves, on every schedule, a sender outside the
// scheduler's control blocked on a package-level channel: it looks parked
// out of the way, so the next schedule in the process runs beside it, and
// there it receives the stale message and fails. Alone in a fresh process
// (as under plain go test) the test passes: a note, never a finding.
package stalemsg

import (
	"testing"

	"cachedep"
)

var inbox = make(chan int) // package-level: every schedule reaches it

func TestStaleMessage(t *testing.T) {
	select {
	case v := <-inbox:
		t.Errorf("a message from an earlier test: %d", v)
	default:
	}
	cachedep.SendLater(inbox, 1)
}
