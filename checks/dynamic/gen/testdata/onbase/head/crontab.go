package valve

import (
	"os"
	"sync"
)

// Crontab is safe for concurrent use. Its lifecycle is StartAsync and
// Stop; its Run methods run the jobs once and start nothing (as gocron's
// Scheduler: TestLifecyclePairs).
type Crontab struct {
	mu      sync.Mutex
	running bool
	runs    int
}

// RunAll runs every job once.
func (c *Crontab) RunAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.runs++
}

// RunByTag runs the jobs tagged tag once.
func (c *Crontab) RunByTag(tag string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.runs += len(tag)
}

// StartAt starts the crontab once the clock reaches at (seconds).
func (c *Crontab) StartAt(at int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running = at >= 0
}

// StartAsync starts the crontab.
func (c *Crontab) StartAsync() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running = true
}

// Stop stops the crontab.
func (c *Crontab) Stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running = false
}

// Fatal ends the process, as a logger's Fatal does.
func (c *Crontab) Fatal(msg string) {
	os.Stderr.WriteString(msg)
	os.Exit(1)
}
