// Package leftover is a kernel of a job timer that an earlier run of a
// test leaves behind: a scheduler, never stopped, arms its job's timer for
// a minute ahead of its clock; when the timer fires, during a later run
// of the test (go test -count=N past a minute), the job waits on the
// test's fake clock, whose Sleep panics.
package leftover

import "time"

// Clock is the scheduler's time.
type Clock interface {
	Now() time.Time
	Sleep(time.Duration)
}

// Scheduler runs one job at its time.
type Scheduler struct {
	stop chan struct{}
	runs chan func()
}

// Start schedules job at the clock's time at and starts the scheduler's
// executor, which runs until Stop.
func Start(c Clock, at time.Time, job func()) *Scheduler {
	s := &Scheduler{stop: make(chan struct{}), runs: make(chan func(), 1)}
	go s.execute()
	time.AfterFunc(at.Sub(c.Now()), func() {
		for c.Now().Before(at) {
			c.Sleep(at.Sub(c.Now()))
		}
		s.runs <- job
	})
	return s
}

func (s *Scheduler) execute() {
	for {
		select {
		case job := <-s.runs:
			job()
		case <-s.stop:
			return
		}
	}
}

// Stop ends the executor.
func (s *Scheduler) Stop() { close(s.stop) }
