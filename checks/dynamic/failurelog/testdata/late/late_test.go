package late

import "testing"

// submit runs two jobs on p in the background, telling started after the
// first, and fails t when the pool refuses the second. The bug: nothing
// waits for that goroutine, so the test may have closed the pool and
// returned before the second job is submitted. Under plain go test the
// goroutine, running when it hands started over, is almost always first.
func submit(t *testing.T, p *Pool, started chan<- bool) {
	go func() {
		p.Do(func() {})
		started <- true
		if !p.Do(func() {}) {
			t.Errorf("second job refused: the pool was closed")
		}
	}()
}

func TestPoolJobs(t *testing.T) {
	t.Run("two_jobs", func(t *testing.T) {
		p := &Pool{}
		started := make(chan bool)
		submit(t, p, started)
		<-started
		p.Close()
	})
}
