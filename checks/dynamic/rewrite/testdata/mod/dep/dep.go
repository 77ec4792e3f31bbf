// Package dep is imported by conc only: it is instrumented because the test
// binary of conc imports it.
package dep

import "sync"

type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Inc() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
}

func (c *Counter) N() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Fan runs f n times concurrently and waits.
func Fan(n int, f func(i int)) {
	done := make(chan struct{})
	for i := 0; i < n; i++ {
		go func(i int) {
			f(i)
			done <- struct{}{}
		}(i)
	}
	for i := 0; i < n; i++ {
		<-done
	}
}
