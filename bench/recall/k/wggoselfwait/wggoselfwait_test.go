// Package wggoselfwait: a batcher runs its producers and its uploads in one
// WaitGroup; a full batch is flushed after waiting for the uploads in
// flight. When a producer, itself counted, is the one that fills the batch,
// its flush waits for itself.
package wggoselfwait

import (
	"sync"
	"testing"
	"time"
)

type batcher struct {
	wg    sync.WaitGroup
	mu    sync.Mutex
	buf   []int
	sent  [][]int
	limit int
}

func (b *batcher) add(v int) {
	b.mu.Lock()
	b.buf = append(b.buf, v)
	full := len(b.buf) >= b.limit
	b.mu.Unlock()
	if full {
		b.flush()
	}
}

// flush keeps batches in order: the previous uploads finish first.
func (b *batcher) flush() {
	b.wg.Wait()
	b.mu.Lock()
	batch := b.buf
	b.buf = nil
	b.mu.Unlock()
	if len(batch) > 0 {
		b.wg.Go(func() { b.upload(batch) })
	}
}

func (b *batcher) upload(batch []int) {
	b.mu.Lock()
	b.sent = append(b.sent, batch)
	b.mu.Unlock()
}

func TestBatches(t *testing.T) {
	b := &batcher{limit: 2}
	b.wg.Go(func() { b.add(1) }) // producers run in the group: Close waits for them
	time.Sleep(time.Millisecond) // the second value arrives later
	b.add(2)
	b.flush()
	b.wg.Wait()
	n := 0
	for _, s := range b.sent {
		n += len(s)
	}
	if n != 2 {
		t.Fatalf("sent %d values", n)
	}
}
