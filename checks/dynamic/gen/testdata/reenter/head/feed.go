package bus

import "sync"

// Feed is Bus done right: Publish runs the handlers after it unlocks, so
// a handler may call Topics.
type Feed struct {
	mu       sync.Mutex
	handlers []Handler
	topics   map[string]int
}

// NewFeed returns an empty feed.
func NewFeed() *Feed { return &Feed{topics: map[string]int{}} }

// Subscribe adds h to the handlers.
func (f *Feed) Subscribe(h Handler) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.handlers = append(f.handlers, h)
}

// Publish counts topic and tells every handler, unlocked.
func (f *Feed) Publish(topic string) {
	f.mu.Lock()
	f.topics[topic]++
	hs := append([]Handler(nil), f.handlers...)
	f.mu.Unlock()
	for _, h := range hs {
		h.Handle(topic)
	}
}

// Topics is the number of distinct topics published.
func (f *Feed) Topics() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.topics)
}

// Board runs its handlers with its lock held, and says so.
type Board struct {
	mu       sync.Mutex
	handlers []Handler
	topics   map[string]int
}

// NewBoard returns an empty board.
func NewBoard() *Board { return &Board{topics: map[string]int{}} }

// Subscribe adds h to the handlers. Handlers run with the board locked:
// they must not call the board's methods.
func (b *Board) Subscribe(h Handler) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.handlers = append(b.handlers, h)
}

// Publish counts topic and tells every handler.
func (b *Board) Publish(topic string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.topics[topic]++
	for _, h := range b.handlers {
		h.Handle(topic)
	}
}

// Topics is the number of distinct topics published.
func (b *Board) Topics() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.topics)
}
