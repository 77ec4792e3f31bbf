package synctestuse

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// A test that already uses testing/synctest keeps working.
func TestBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		var mu sync.Mutex
		n := 0
		var wg sync.WaitGroup
		for i := 0; i < 3; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				time.Sleep(time.Duration(i) * 100 * time.Millisecond)
				mu.Lock()
				n++
				mu.Unlock()
			}()
		}
		wg.Wait()
		start := time.Now()
		<-ctx.Done()
		if d := time.Since(start); d != 800*time.Millisecond {
			t.Fatalf("waited %v for the rest of the deadline", d)
		}
		if n != 3 {
			t.Fatalf("n = %d", n)
		}
	})
}
