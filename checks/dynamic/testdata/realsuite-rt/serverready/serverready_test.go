// Package serverready: a dependency starts a server on a goroutine of its
// own, outside control, which works for real before it listens, while
// the test's call polls for it on the virtual clock.
package serverready

import (
	"testing"
	"time"

	"clockdep"
)

func TestServerReadyInTime(t *testing.T) {
	s, err := clockdep.StartServer(func() {
		start := time.Now()
		for time.Since(start) < 500*time.Millisecond { // the start-up's real work
		}
	}, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
}
