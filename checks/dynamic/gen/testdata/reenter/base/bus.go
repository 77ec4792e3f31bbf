// Package bus is the base commit of gen's callback re-entry kernels
// (TestReentryOnBase): Topics and Len read counts kept with atomics, so
// a callback may call them.
package bus

import (
	"sync"
	"sync/atomic"
)

// Handler is told of each topic published.
type Handler interface {
	Handle(topic string)
}

// Bus runs its handlers with its lock held.
type Bus struct {
	mu       sync.Mutex
	handlers []Handler
	topics   map[string]int
	distinct atomic.Int64
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
	if b.topics[topic]++; b.topics[topic] == 1 {
		b.distinct.Add(1)
	}
	for _, h := range b.handlers {
		h.Handle(topic)
	}
}

// Topics is the number of distinct topics published.
func (b *Bus) Topics() int { return int(b.distinct.Load()) }

// Ledger runs its change function with its lock held.
type Ledger struct {
	mu       sync.Mutex
	onChange func(key string)
	entries  map[string]int
	keys     atomic.Int64
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
	if _, ok := l.entries[key]; !ok {
		l.keys.Add(1)
	}
	l.entries[key] += n
	if l.onChange != nil {
		l.onChange(key)
	}
}

// Len is the number of keys.
func (l *Ledger) Len() int { return int(l.keys.Load()) }
