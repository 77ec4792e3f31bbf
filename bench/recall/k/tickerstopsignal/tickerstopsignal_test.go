// Package tickerstopsignal: stop sends its signal without blocking, and the
// polling loop is not always at its select to take it, so the loop (and its
// ticker) runs forever.
package tickerstopsignal

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

func (p *poller) close() {
	select {
	case p.stop <- struct{}{}:
	default: // the loop is busy: the signal is dropped (should close(p.stop))
	}
}

func TestPoller(t *testing.T) {
	p := &poller{stop: make(chan struct{})}
	go p.run()
	time.Sleep(3 * time.Millisecond)
	p.close()
}
