package sleepy

import (
	"testing"
	"time"
)

// TestDrained sleeps for the drainer instead of waiting for it: the bug.
func TestDrained(t *testing.T) {
	q := New(8)
	defer q.Close()
	for i := 0; i < 4; i++ {
		q.Put(i)
	}
	time.Sleep(10 * time.Millisecond) // long enough on an idle machine
	n, last := q.Done()
	if n != 4 {
		t.Fatalf("drained %d of 4 items", n)
	}
	if last != 3 {
		t.Fatalf("last item %d, want 3", last)
	}
}
