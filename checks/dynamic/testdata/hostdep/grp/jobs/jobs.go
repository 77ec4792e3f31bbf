// Package jobs plays a scheduler's job runner (robfig/cron's startJob):
// the caller's work is a Job, an interface the package declares, and
// Start runs its Run on a goroutine the package starts, returning at once.
// No function value of the caller's is passed.
package jobs

import "sync"

// Job is the caller's work.
type Job interface{ Run() }

// Runner runs jobs.
type Runner struct{ wg sync.WaitGroup }

// Start runs j on a new goroutine.
func (r *Runner) Start(j Job) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		j.Run()
	}()
}

// Wait returns when every started job has returned.
func (r *Runner) Wait() { r.wg.Wait() }
