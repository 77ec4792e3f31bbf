// Package bus is the head commit of gen's callback re-entry kernels
// (TestReentryOnBase): Topics and Len now take the lock that Publish and
// Put hold while they run the caller's callbacks, so a callback that
// calls back into its value blocks for ever (as logrus v1.5.0's
// WithFields under a hook or formatter).
package bus

import "sync"

// Handler is told of each topic published.
type Handler interface {
	Handle(topic string)
}

// Bus runs its handlers with its lock held.
type Bus struct {
	mu       sync.Mutex
	handlers []Handler
	topics   map[string]int
}

// NewBus returns an empty bus.
func NewBus() *Bus { return &Bus{topics: map[string]int{}} }

// Subscribe adds h to the handlers.
func (b *Bus) Subscribe(h Handler) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.handlers = append(b.handlers, h)
}

// Publish counts topic and tells every handler.
func (b *Bus) Publish(topic string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.topics[topic]++
	for _, h := range b.handlers {
		h.Handle(topic)
	}
}

// Topics is the number of distinct topics published.
func (b *Bus) Topics() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.topics)
}

// Ledger runs its change function with its lock held.
type Ledger struct {
	mu       sync.Mutex
	onChange func(key string)
	entries  map[string]int
}

// NewLedger returns an empty ledger.
func NewLedger() *Ledger { return &Ledger{entries: map[string]int{}} }

// OnChange sets the function Put calls with each key it writes.
func (l *Ledger) OnChange(f func(key string)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.onChange = f
}

// Put adds n to key.
func (l *Ledger) Put(key string, n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries[key] += n
	if l.onChange != nil {
		l.onChange(key)
	}
}

// Len is the number of keys.
func (l *Ledger) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.entries)
}
