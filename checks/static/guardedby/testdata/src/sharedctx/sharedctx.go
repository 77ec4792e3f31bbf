// Package sharedctx: inferred guards (IL1001) speak only about values more
// than one goroutine can reach.
package sharedctx

import "sync"

// tally is unexported and never handed to another goroutine: its mutex
// is defensive, and its unlocked access is not a race.
type tally struct {
	mu sync.Mutex
	n  int
}

func (t *tally) add(k int) { t.mu.Lock(); t.n += k; t.mu.Unlock() }
func (t *tally) get() int  { t.mu.Lock(); defer t.mu.Unlock(); return t.n }
func (t *tally) sub(k int) { t.mu.Lock(); t.n -= k; t.mu.Unlock() }
func (t *tally) reset()    { t.n = 0 } // ok: no concurrency context

func Sum(xs []int, t *tally) int {
	for _, x := range xs {
		t.add(x)
		t.sub(x / 2)
	}
	v := t.get()
	t.reset()
	return v
}

// worker's loop runs in its own goroutine: its state is shared.
type worker struct {
	mu   sync.Mutex
	done int
}

func (w *worker) loop(jobs <-chan int) {
	for range jobs {
		w.mu.Lock()
		w.done++
		w.mu.Unlock()
	}
}

func (w *worker) Done() int { w.mu.Lock(); defer w.mu.Unlock(); return w.done }

func (w *worker) Skip() { w.mu.Lock(); w.done++; w.mu.Unlock() }

func (w *worker) clear() {
	w.done = 0 // want `field w.done written without holding w.mu`
}

func Start(jobs <-chan int) *worker {
	w := &worker{}
	go w.loop(jobs)
	return w
}

func Restart(w *worker) { w.clear() }
