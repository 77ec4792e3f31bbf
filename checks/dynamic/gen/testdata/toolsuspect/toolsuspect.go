// Package toolsuspect holds two types that claim thread safety, for
// explore's sibling rule (issue 21): Score is broken (two Incs can count
// one), a true "not linearizable" failure on some schedules; Probe is
// correct, but its generated tests fail on every schedule under
// interleave, the unperturbed one included, and pass under plain go test:
// a failure the tool causes, a note. Probe's note must not file Score's
// finding as the tool's doing too.
package toolsuspect

import (
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
)

// Score counts events.
//
// (Inc reads and writes the atomic in two steps.)
//
//interleave:threadsafe
type Score struct {
	n atomic.Int64
}

// Inc counts one event and returns the new count.
func (s *Score) Inc() int64 {
	v := s.n.Load()
	s.n.Store(v + 1)
	return v + 1
}

// Probe answers pings.
//
//interleave:threadsafe
type Probe struct {
	mu    sync.Mutex
	pings int
}

// Ping counts a ping and says whether it was answered. It stands for code
// that interleave's runtime keeps from working (as toolsibling's server
// in explore's testdata): on a goroutine the runtime started it is not
// answered, so the generated test's concurrent calls give an outcome no
// sequential order gives, under interleave only.
func (p *Probe) Ping() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pings++
	return !onToolGoroutine()
}

// onToolGoroutine reports whether the caller runs on a goroutine that
// interleave's runtime started (not the test's own).
func onToolGoroutine() bool {
	s := string(debug.Stack())
	return strings.Contains(s, "interleavert") && !strings.Contains(s, "testing.tRunner")
}
