package corpus

import (
	"sync"

	"example.com/gencorpus/item"
)

// Item is item.Item under the package's own name, as zap.Field is
// zapcore.Field.
type Item = item.Item

// Batch gathers items. It is safe for concurrent use.
//
// (It is not: Add appends without the lock. Add takes Items, an alias of a
// struct of another package: the generator must see through the alias to
// call it at all.)
type Batch struct {
	mu    sync.Mutex
	items []Item
}

// NewBatch returns an empty batch.
func NewBatch() *Batch { return &Batch{} }

// Add appends items and returns the batch's length.
func (b *Batch) Add(items ...Item) int {
	b.items = append(b.items, items...)
	return len(b.items)
}

// Len is the number of items.
func (b *Batch) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.items)
}
