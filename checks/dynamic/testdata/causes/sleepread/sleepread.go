// Package sleepread has a pool whose workers run the jobs handed to them.
// Its tests set counters in jobs (and in goroutines of their own) and read
// them after a sleep, with nothing ordering the writes before the reads:
// each test races on every counter, one cause per test.
package sleepread

// Pool runs jobs on its workers.
type Pool struct {
	jobs chan func()
}

// Start starts n workers.
func Start(n int) *Pool {
	p := &Pool{jobs: make(chan func(), 8)}
	for range n {
		go p.work()
	}
	return p
}

func (p *Pool) work() {
	for job := range p.jobs {
		job()
	}
}

// Dispatch hands a job to a worker.
func (p *Pool) Dispatch(job func()) { p.jobs <- job }

// Stop lets the workers end.
func (p *Pool) Stop() { close(p.jobs) }
