// Package farjump is otelmetric-inst's shape with a test of its own that
// races only on its timeout path: a reader's constructor starts the
// goroutine that collects on every tick, then (the change) takes an id and
// publishes a stats field that collect reads. A tick comes when nothing
// else can run, so only a clock jump made while the constructor is at its
// changed line (rt's farNow) races there; the same jump may fire the
// test's own thirty-second watchdog instead, whose race is the test's.
package farjump

import (
	"sync/atomic"
	"time"
)

// Reader collects every interval and when Flush asks.
type Reader struct {
	interval time.Duration
	flush    chan chan int
	quit     chan struct{}
	done     chan struct{}
	count    int
	stats    *stats
}

type stats struct {
	id          int64
	collections int
}

var readerIDs atomic.Int64

// New starts a reader.
func New(interval time.Duration) *Reader {
	r := &Reader{
		interval: interval,
		flush:    make(chan chan int),
		quit:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	go r.run()

	// The change: an id of its own, published after run started.
	r.stats = &stats{id: readerIDs.Add(1)}
	return r
}

func (r *Reader) run() {
	defer close(r.done)
	t := time.NewTicker(r.interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			r.collect()
		case reply := <-r.flush:
			reply <- r.collect()
		case <-r.quit:
			return
		}
	}
}

func (r *Reader) collect() int {
	if s := r.stats; s != nil {
		s.collections++
	}
	r.count++
	return r.count
}

// Flush collects now and returns how many collections there were.
func (r *Reader) Flush() int {
	reply := make(chan int)
	r.flush <- reply
	return <-reply
}

// Close stops the reader.
func (r *Reader) Close() {
	close(r.quit)
	<-r.done
}
