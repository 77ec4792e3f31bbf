package bad

import (
	"errors"
	"sync"
)

type pinger struct {
	mu   sync.Mutex
	errs []error
}

// serve records errors under mu with a deferred unlock inside the loop:
// the lock taken on a send error stays held into the next iteration, so
// either Lock deadlocks. One defect, one finding.
func (p *pinger) serve(recv func() (string, error), send func() error) {
	for {
		msg, err := recv()
		if err != nil {
			return
		}
		if msg != "ping" {
			p.mu.Lock() // want `p.mu locked while already locked \(Lock at line 29\).*\(and at 1 more place, listed as related\)`
			defer p.mu.Unlock()
			p.errs = append(p.errs, errors.New("unexpected message"))
			return
		}
		if err := send(); err != nil {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.errs = append(p.errs, err)
		}
	}
}
