// Package leftrunning has tests that leave a goroutine of their own behind,
// as plain go test does too (issue 14, mechanism 11). A job the test never
// stops is still running after it returns, in whichever worker took it: the
// test's own clean-up, not a finding, whatever the schedule. A reply the
// test gives up on strands its sender, blocked forever, on some
// interleavings: a finding, though plain go test leaves that goroutine too.
package leftrunning

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// stopJobs is never set: a long job outlives its test.
var stopJobs atomic.Bool

func longJob() {
	for !stopJobs.Load() {
		runtime.Gosched()
	}
}

// Pool runs jobs on two workers; a janitor polls until it is closed.
type Pool struct {
	jobs   chan func()
	closed atomic.Bool
}

func NewPool() *Pool {
	p := &Pool{jobs: make(chan func())}
	go p.primary()
	p.grow()
	p.startJanitor()
	return p
}

func (p *Pool) grow() { go p.overflow() }

func (p *Pool) startJanitor() { go p.janitor() }

func (p *Pool) primary() {
	for j := range p.jobs {
		j()
	}
}

func (p *Pool) overflow() {
	for j := range p.jobs {
		j()
	}
}

func (p *Pool) janitor() {
	for !p.closed.Load() {
		runtime.Gosched()
	}
}

func (p *Pool) Close() {
	p.closed.Store(true)
	close(p.jobs)
}

func TestLeavesLongJob(t *testing.T) {
	p := NewPool()
	defer p.Close()
	done := make(chan struct{})
	p.jobs <- longJob // never stopped: it runs on after the test
	p.jobs <- func() { close(done) }
	<-done
}

// served counts the replies computed.
var served atomic.Int64

func TestGivesUpOnReply(t *testing.T) {
	reply := make(chan int64)
	started := make(chan struct{})
	go func() {
		close(started)
		v := served.Add(1)
		reply <- v // blocks forever once the test gave up
	}()
	<-started
	select {
	case <-reply:
	default:
	}
}
