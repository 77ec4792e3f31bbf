// Package closer is a kernel of gen's stops: a value whose constructor
// starts a goroutine is closed at the end of every run, as its test's
// author would defer Close, so that no run leaves the loop behind.
package closer

import (
	"sync"
	"time"
)

// Feed is safe for concurrent use. NewFeed starts the loop that adds
// what Add sends and flushes every 10ms; Close ends it.
type Feed struct {
	mu      sync.Mutex
	total   int
	flushes int
	in      chan int
	done    chan struct{}
	once    sync.Once
}

// NewFeed returns a feed whose loop runs.
func NewFeed() *Feed {
	f := &Feed{in: make(chan int), done: make(chan struct{})}
	go f.loop()
	return f
}

func (f *Feed) loop() {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			f.mu.Lock()
			f.flushes++
			f.mu.Unlock()
		case v := <-f.in:
			f.mu.Lock()
			f.total += v
			f.mu.Unlock()
		case <-f.done:
			return
		}
	}
}

// Add hands v to the loop; after Close it drops v.
func (f *Feed) Add(v int) {
	select {
	case f.in <- v:
	case <-f.done:
	}
}

// Total returns what the loop added so far.
func (f *Feed) Total() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.total
}

// Close ends the loop.
func (f *Feed) Close() { f.once.Do(func() { close(f.done) }) }

// Tally is safe for concurrent use. It starts nothing.
type Tally struct {
	mu sync.Mutex
	n  int
}

// NewTally returns an empty tally.
func NewTally() *Tally { return &Tally{} }

// Add adds v.
func (t *Tally) Add(v int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.n += v
}

// Close resets the tally.
func (t *Tally) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.n = 0
}
