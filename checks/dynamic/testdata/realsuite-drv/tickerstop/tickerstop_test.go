// Package tickerstop stops a polling loop with a signal sent without
// blocking: when the loop is busy with a tick, not at its select, the
// signal is dropped and the loop, with its ticker, runs on after the test
// (a leak of a goroutine still running, judged thousands of decisions
// after the test returned). Plain go test passes.
package tickerstop

import (
	"sync/atomic"
	"testing"
	"time"
)

type poller struct {
	stop  chan struct{}
	polls atomic.Int64
}

func (p *poller) run() {
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.polls.Add(1)
		}
	}
}

// close drops the signal when the loop is not waiting for it (it should
// close the channel).
func (p *poller) close() {
	select {
	case p.stop <- struct{}{}:
	default:
	}
}

func TestStopPoller(t *testing.T) {
	p := &poller{stop: make(chan struct{})}
	go p.run()
	time.Sleep(2 * time.Millisecond)
	p.close()
}
