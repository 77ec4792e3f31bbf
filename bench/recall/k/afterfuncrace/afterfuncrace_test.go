// Package afterfuncrace: a time.AfterFunc callback runs on its own
// goroutine and writes a field the caller reads after sleeping, which
// orders nothing.
package afterfuncrace

import (
	"testing"
	"time"
)

type conn struct{ timedOut bool }

func TestIdleTimeout(t *testing.T) {
	c := &conn{}
	time.AfterFunc(time.Millisecond, func() { c.timedOut = true })
	time.Sleep(20 * time.Millisecond) // not a synchronization
	if !c.timedOut {
		t.Log("timer has not fired yet")
	}
}
