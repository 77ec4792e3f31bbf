package count

import (
	"testing"

	"grp/jobs"
)

// addJob reads the total in one critical section and writes it back in
// another.
type addJob struct{ c *counter }

func (j addJob) Run() {
	j.c.mu.Lock()
	n := j.c.total
	j.c.mu.Unlock()
	j.c.mu.Lock()
	j.c.total = n + 1
	j.c.mu.Unlock()
}

// TestLostAddJob: the job runs on a goroutine a dependency starts for a
// value of its own interface type (grp/jobs, a scheduler's Job); the
// test's addition between the job's two critical sections is lost.
func TestLostAddJob(t *testing.T) {
	var c counter
	var r jobs.Runner
	r.Start(addJob{&c})
	c.mu.Lock()
	c.total += 10
	c.mu.Unlock()
	r.Wait()
	if c.total != 11 {
		t.Fatalf("total = %d, want 11", c.total)
	}
}
