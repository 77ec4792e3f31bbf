package good

import (
	"os"
	"sync"
)

// A server whose reload settings are written after construction only by
// its one signal goroutine: read, reload, write back cannot lose an
// update, nothing else writes them.
type reloadOpts struct{ path string }

type sigServer struct {
	mu      sync.Mutex
	opts    *reloadOpts
	running bool
	done    chan struct{}
}

func runSigServer(path string, signals chan os.Signal) *sigServer {
	s := sigServer{opts: &reloadOpts{path: path}, done: make(chan struct{})}
	s.handleSignals(signals)
	return &s
}

func reload(o *reloadOpts) (*reloadOpts, error) { return &reloadOpts{path: o.path}, nil }

func (s *sigServer) handleSignals(c chan os.Signal) {
	go func() {
		for {
			select {
			case <-c:
				s.mu.Lock()
				cur := s.opts
				s.mu.Unlock()
				if next, err := reload(cur); err == nil {
					s.mu.Lock()
					s.opts = next
					s.mu.Unlock()
				}
			case <-s.done:
				return
			}
		}
	}()
}

func (s *sigServer) path() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opts.path
}
