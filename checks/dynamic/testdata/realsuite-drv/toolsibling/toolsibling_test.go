// Package toolsibling has a failure the tool causes (issue 21): a server
// that cannot start under interleave's runtime. TestStartsServer fails so
// on every schedule, the unperturbed one included, and plain go test
// passes it: a note. TestStartsServerLate fails the same way on some
// schedules only; its message matches the sibling's note and plain go
// test passes it: a note too, never a finding. TestFailsEitherWay fails
// under plain go test too, another way (buntdb's TestReloadNotInvalid): a
// note that says so, quoting plain go test's exit and line, and does not
// blame the tool.
package toolsibling

import (
	"errors"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
)

// startServer stands for a server the tool's runtime keeps from starting.
func startServer() error {
	if strings.Contains(string(debug.Stack()), "interleavert") {
		return errors.New("address in use")
	}
	return nil
}

func mustStart() {
	if err := startServer(); err != nil {
		panic("Unable to start server: " + err.Error())
	}
}

func TestStartsServer(t *testing.T) {
	mustStart()
}

func TestStartsServerLate(t *testing.T) {
	var late atomic.Bool
	done := make(chan struct{})
	go func() {
		late.Store(true)
		close(done)
	}()
	if late.Load() {
		mustStart()
	}
	<-done
}

// TestFailsEitherWay fails with or without the tool, not the same way.
func TestFailsEitherWay(t *testing.T) {
	if strings.Contains(string(debug.Stack()), "interleavert") {
		panic("invalid argument to Intn")
	}
	t.Fatal("invalid database")
}
