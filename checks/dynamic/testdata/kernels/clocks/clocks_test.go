package clocks

import (
	"sync"
	"testing"
	"time"
)

// oneShot is a job scheduler for jobs that run once, at a given time.
type oneShot struct {
	at      []time.Time
	next    []time.Time
	start   chan struct{}
	started chan struct{}
}

func newOneShot() *oneShot {
	s := &oneShot{start: make(chan struct{}), started: make(chan struct{})}
	go s.loop()
	return s
}

func (s *oneShot) add(at time.Time) { s.at = append(s.at, at) }

// after is the job's run after t: none (the zero time) once its one run
// is at or before t.
func after(at, t time.Time) time.Time {
	if at.After(t) {
		return at
	}
	return time.Time{}
}

func (s *oneShot) loop() {
	<-s.start
	for _, at := range s.at {
		next := at
		// The bug: a job whose time has passed has no next run, and the
		// zero time is before now forever.
		for next.Before(time.Now()) {
			next = after(at, next)
		}
		s.next = append(s.next, next)
	}
	s.started <- struct{}{}
}

// Start returns once the loop has planned every job.
func (s *oneShot) Start() {
	s.start <- struct{}{}
	<-s.started
}

// TestStartAfterJobTime: a one-time job 10ms ahead, then the scheduler's
// start. When a warm-up goroutine takes the lock first and holds it for
// 20ms, the job's time has passed at Start, which then never returns.
// Under go test the test goroutine takes the lock first.
func TestStartAfterJobTime(t *testing.T) {
	var mu sync.Mutex
	s := newOneShot()
	s.add(time.Now().Add(10 * time.Millisecond))
	go func() { // warm-up
		mu.Lock()
		time.Sleep(20 * time.Millisecond)
		mu.Unlock()
	}()
	mu.Lock()
	mu.Unlock()
	s.Start()
	if len(s.next) != 1 {
		t.Fatalf("planned %d jobs", len(s.next))
	}
}
