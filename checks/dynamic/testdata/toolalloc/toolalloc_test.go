// Package toolalloc holds two tests that count allocations around a lock
// (testing.AllocsPerRun): one whose code allocates nothing, which fails
// only when the scheduler's runtime allocates (a test build, -tags
// interleave_selfalloc), and one whose code allocates, which plain go
// test fails too.
package toolalloc

import (
	"sync"
	"testing"
)

// TestLockedCounterAllocs: incrementing under a lock allocates nothing.
func TestLockedCounterAllocs(t *testing.T) {
	var mu sync.Mutex
	n := 0
	a := testing.AllocsPerRun(100, func() {
		mu.Lock()
		n++
		mu.Unlock()
	})
	if a != 0 {
		t.Fatalf("increment: %v allocations per run, want 0", a)
	}
}

var sink [][]byte

// TestLockedAppendAllocs: the code allocates under its lock; the test
// says it must not (plain go test fails too).
func TestLockedAppendAllocs(t *testing.T) {
	var mu sync.Mutex
	a := testing.AllocsPerRun(100, func() {
		mu.Lock()
		sink = append(sink[:0], make([]byte, 8+len(sink)))
		mu.Unlock()
	})
	if a != 0 {
		t.Fatalf("append: %v allocations per run, want 0", a)
	}
}
