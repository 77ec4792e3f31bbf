package syncing

import (
	"math/rand"
	"net"
	"sync"
	"sync/atomic"
)

// Sampler is datadog-go v4.3.0's statsd.Client shape: a lock only Close
// uses, counters of plain type updated by atomic.AddUint64, and a
// math/rand source, which needs a lock of its own, that Count reads with
// none when the rate is under 1. New takes an address with a port.
type Sampler struct {
	closeMu sync.Mutex
	closed  bool
	stats   struct{ sent, dropped uint64 }
	rnd     *rand.Rand
}

// New returns a sampler that would send to addr.
func New(addr string) (*Sampler, error) {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, err
	}
	return &Sampler{rnd: rand.New(rand.NewSource(1))}, nil
}

// Count counts one event of name, kept with probability rate.
func (s *Sampler) Count(name string, rate float64) {
	if rate < 1 && s.rnd.Float64() > rate {
		atomic.AddUint64(&s.stats.dropped, 1)
		return
	}
	atomic.AddUint64(&s.stats.sent, 1)
}

// Close stops the sampler.
func (s *Sampler) Close() error {
	s.closeMu.Lock()
	defer s.closeMu.Unlock()
	s.closed = true
	return nil
}
