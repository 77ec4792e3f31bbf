// Package threadsafe: types that promise safety for concurrent use must
// take their mutex in every exported method that touches shared state.
package threadsafe

import (
	"sync"
	"time"
)

// Limiter is a token bucket. It is safe for concurrent use.
type Limiter struct {
	mu     sync.Mutex
	tokens float64
	last   time.Time
	rate   float64
	burst  int
}

func NewLimiter(rate float64, burst int) *Limiter {
	return &Limiter{rate: rate, burst: burst, tokens: float64(burst)}
}

func (l *Limiter) Allow() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	l.tokens += now.Sub(l.last).Seconds() * l.rate
	l.last = now
	if l.tokens < 1 {
		return false
	}
	l.tokens--
	return true
}

// Tokens is a plain getter: it reads without the lock that Allow writes
// under.
func (l *Limiter) Tokens() float64 {
	return l.tokens // want `Limiter is documented as "safe for concurrent use", but Tokens reads l.tokens without holding l.mu`
}

// SetBurst writes without the lock.
func (l *Limiter) SetBurst(n int) {
	l.burst = n // want `SetBurst writes l.burst without holding l.mu`
}

func (l *Limiter) Burst() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.burst
}

// Rate is only ever read after construction: no race.
func (l *Limiter) Rate() float64 { return l.rate } // ok

// SetClock must be called before the limiter is used.
func (l *Limiter) SetClock(t time.Time) {
	l.last = t // ok: documented as setup before use
}

// Registry maps names to endpoints.
//
//interleave:threadsafe
type Registry struct {
	mu        sync.RWMutex
	endpoints map[string]string
	version   uint64
	closed    bool
}

func (r *Registry) Register(name, addr string) {
	r.mu.Lock()
	r.endpoints[name] = addr
	r.version++
	r.mu.Unlock()
}

func (r *Registry) Version() uint64 {
	return r.version // want `Registry is documented as thread-safe \(//interleave:threadsafe\), but Version reads r.version without holding r.mu`
}

func (r *Registry) Lookup(name string) (string, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	a, ok := r.endpoints[name]
	return a, ok
}

// Close reads closed under the lock; closed is only written under it:
// two locked accesses never race.
func (r *Registry) Close() {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
}

func (r *Registry) isClosed() bool { // ok: unexported, callers hold the lock
	return r.closed
}

func (r *Registry) Closed() bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.isClosed()
}

// Buffer makes no promise: the P3 rule does not apply.
type Buffer struct {
	mu  sync.Mutex
	buf []byte
	n   int
}

func (b *Buffer) Write(p []byte) {
	b.mu.Lock()
	b.buf = append(b.buf, p...)
	b.n += len(p)
	b.mu.Unlock()
}

func (b *Buffer) Len() int { return b.n } // ok: no thread-safety claim

// Spans is safe for concurrent use once initialized.
type Spans struct {
	mu     sync.Mutex
	levels []int
}

// Init must be called before using the Spans.
func (s *Spans) Init(n int) { s.levels = make([]int, n) }

// InitForTesting is used by tests that mock the clock.
func (s *Spans) InitForTesting(n int) { s.levels = make([]int, n) } // ok: an Init method

func (s *Spans) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.levels)
}

// Session holds a client's state. It is safe for concurrent use on the
// server side; the client drives it from one goroutine.
type Session struct {
	mu    sync.Mutex
	acked int
}

func (s *Session) Ack() {
	s.mu.Lock()
	s.acked++
	s.mu.Unlock()
}

// Acked quotes the claim with its qualifier, so a reader can judge it.
func (s *Session) Acked() int {
	return s.acked // want `Session is documented as "safe for concurrent use on the server side", but Acked reads s.acked without holding s.mu`
}
