package bad

import (
	"sync"
	"time"
)

// Stream pings from a new goroutine on every tick: two pings can hold the
// read lock at once, so the write under it races with the other ping.
type Stream struct {
	mu      sync.RWMutex
	pending bool
	tick    *time.Ticker
	done    chan struct{}
}

func (s *Stream) keepAlive() {
	for {
		select {
		case <-s.done:
			return
		case <-s.tick.C:
			go s.ping()
		}
	}
}

func (s *Stream) ping() {
	s.mu.RLock()
	if s.pending {
		s.pending = false // want `field s.pending written while holding only the read lock s.mu`
	}
	s.mu.RUnlock()
}

func (s *Stream) Receive() {
	s.mu.Lock()
	s.pending = true
	s.mu.Unlock()
}

func Open() *Stream {
	s := &Stream{tick: time.NewTicker(time.Second), done: make(chan struct{})}
	go s.keepAlive()
	return s
}

// Worker has one goroutine per value, but another function reads the
// field under the read lock: the two read sections overlap.
type Worker struct {
	mu    sync.RWMutex
	last  int
	count int
}

type runner struct{ w *Worker }

func newRunner(w *Worker) *runner {
	r := &runner{w: w}
	go r.loop()
	return r
}

func (r *runner) loop() {
	for i := 0; i < 10; i++ {
		r.w.mu.RLock()
		r.w.last = i // want `field r.w.last written while holding only the read lock r.w.mu`
		r.w.mu.RUnlock()
	}
}

func (w *Worker) Last() int {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.last
}

func (w *Worker) SetLast(v int) {
	w.mu.Lock()
	w.last = v
	w.mu.Unlock()
}

// Pool starts its loop once per call of an exported function on a value
// it did not create: two calls start two loops on the same pool.
type Pool struct {
	mu   sync.RWMutex
	size int
}

func (p *Pool) Run() { go p.grow() }

func (p *Pool) grow() {
	p.mu.RLock()
	p.size++ // want `field p.size written while holding only the read lock p.mu`
	p.mu.RUnlock()
}

func (p *Pool) Size() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.size
}

// Job has one driver per value, but its field is exported: code in other
// packages may read it under the read lock.
type Job struct {
	mu     sync.RWMutex
	Reason string
}

type jobDriver struct{ j *Job }

func newJobDriver(j *Job) *jobDriver {
	d := &jobDriver{j: j}
	go d.run()
	return d
}

func (d *jobDriver) run() {
	d.j.mu.RLock()
	d.j.Reason = "done" // want `field d.j.Reason written while holding only the read lock d.j.mu`
	d.j.mu.RUnlock()
}

func (j *Job) Clear() {
	j.mu.Lock()
	j.Reason = ""
	j.mu.Unlock()
}

var _, _ = newRunner, newJobDriver
