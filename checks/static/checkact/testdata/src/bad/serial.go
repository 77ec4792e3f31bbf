package bad

import (
	"os"
	"sync"
)

// Signal goroutines like good/serial.go's, where a second writer or a
// second goroutine can write between the sections.
type reloadOpts struct{ path string }

func reload(o *reloadOpts) (*reloadOpts, error) { return &reloadOpts{path: o.path}, nil }

type sigServer struct {
	mu   sync.Mutex
	opts *reloadOpts
}

func runSigServer(path string, signals chan os.Signal) *sigServer {
	s := sigServer{opts: &reloadOpts{path: path}}
	s.handleSignals(signals)
	return &s
}

func (s *sigServer) handleSignals(c chan os.Signal) {
	go func() {
		for range c {
			s.mu.Lock()
			cur := s.opts
			s.mu.Unlock()
			if next, err := reload(cur); err == nil {
				s.mu.Lock()
				s.opts = next // want `s.opts is written from next, read under s.mu in an earlier critical section`
				s.mu.Unlock()
			}
		}
	}()
}

// SetPath writes opts too: it can land between the sections.
func (s *sigServer) SetPath(p string) {
	s.mu.Lock()
	s.opts = &reloadOpts{path: p}
	s.mu.Unlock()
}

// A watcher started on every call: two goroutines on one value.
type watchServer struct {
	mu   sync.Mutex
	opts *reloadOpts
}

func (w *watchServer) Watch(c chan os.Signal) {
	go func() {
		for range c {
			w.mu.Lock()
			cur := w.opts
			w.mu.Unlock()
			if next, err := reload(cur); err == nil {
				w.mu.Lock()
				w.opts = next // want `w.opts is written from next, read under w.mu in an earlier critical section`
				w.mu.Unlock()
			}
		}
	}()
}
