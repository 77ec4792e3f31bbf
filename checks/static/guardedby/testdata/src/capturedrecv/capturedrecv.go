// Package capturedrecv: a method starts a goroutine literal that uses the
// receiver it captured; the accesses in the literal are the receiver's.
package capturedrecv

import "sync"

type Worker struct {
	// mu protects the fields below.
	mu      sync.Mutex
	done    int
	pending []string
}

// Start counts work on a goroutine without the lock.
func (w *Worker) Start() {
	go func() {
		w.done++ // want `field w.done written without holding w.mu.*Start\$1 runs on the goroutine started by the go statement`
	}()
}

// Done reads the count under the lock.
func (w *Worker) Done() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.done
}

// Queue appends on a goroutine holding the lock: silent.
func (w *Worker) Queue(s string) {
	go func() {
		w.mu.Lock()
		w.pending = append(w.pending, s)
		w.mu.Unlock()
	}()
}

// Pending reads under the lock.
func (w *Worker) Pending() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.pending)
}

// Local: a value the literal made itself is not the receiver's.
func (w *Worker) Local() {
	go func() {
		v := &Worker{}
		v.done++
	}()
}
