// Package orderviolation: the worker starts before the logger it uses is
// set (under the lock, but too late).
package orderviolation

import (
	"strings"
	"sync"
	"testing"
)

type logger struct{ b strings.Builder }

func (l *logger) log(s string) { l.b.WriteString(s) }

type worker struct {
	mu   sync.Mutex
	log  *logger
	done chan struct{}
}

func (w *worker) run() {
	w.mu.Lock()
	w.log.log("started") // nil pointer when run beats newWorker
	w.mu.Unlock()
	close(w.done)
}

func newWorker() *worker {
	w := &worker{done: make(chan struct{})}
	go w.run()
	w.mu.Lock()
	w.log = &logger{} // should be set before go w.run()
	w.mu.Unlock()
	return w
}

func TestRun(t *testing.T) {
	w := newWorker()
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.log.b.String() != "started" {
		t.Fatalf("log %q", w.log.b.String())
	}
}
