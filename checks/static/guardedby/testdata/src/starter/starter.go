// Package starter: callbacks handed to a goroutine-starting helper of the
// package, to sync.WaitGroup.Go, or to a goroutine literal.
package starter

import "sync"

// goSafe runs f on its own goroutine, recovering panics.
func goSafe(f func()) {
	go func() {
		defer func() { recover() }()
		f()
	}()
}

type Agent struct {
	// mu protects the fields below.
	mu      sync.Mutex
	reports int
	synced  bool
	last    string
}

func (a *Agent) report() {
	a.mu.Lock()
	a.reports++
	a.mu.Unlock()
}

func (a *Agent) Run() {
	goSafe(a.report)
	var wg sync.WaitGroup
	wg.Go(func() {
		a.mu.Lock()
		a.synced = true
		a.mu.Unlock()
	})
	wg.Wait()
	go func() {
		a.mu.Lock()
		a.last = "run"
		a.mu.Unlock()
	}()
}

func (a *Agent) Reports() int {
	return a.reports // want `field a.reports read without holding a.mu.*report runs on the goroutine started by the goSafe`
}

func (a *Agent) Synced() bool {
	return a.synced // want `field a.synced read without holding a.mu.*started by the Go at`
}

func (a *Agent) Last() string {
	return a.last // want `field a.last read without holding a.mu.*started by the go statement`
}
