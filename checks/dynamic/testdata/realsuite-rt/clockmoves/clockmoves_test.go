package clockmoves

import (
	"sync"
	"testing"
	"time"
)

// window counts events in a generation that ends at expiry, as a circuit
// breaker's counting window does.
type window struct {
	mu     sync.Mutex
	expiry time.Time
	n      int
}

func (w *window) add() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if now := time.Now(); w.expiry.Before(now) {
		w.n = 0
		w.expiry = now.Add(time.Second)
	}
	w.n++
}

func (w *window) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}

// After sleeping as long as the window lasts, it has expired: time went on
// between the reads (gobreaker's TestGeneration).
func TestExpiresAfterSleep(t *testing.T) {
	w := &window{expiry: time.Now().Add(time.Second)}
	done := make(chan struct{})
	go func() {
		w.add()
		close(done)
	}()
	<-done
	time.Sleep(time.Second)
	w.add()
	if n := w.count(); n != 1 {
		t.Fatalf("%d events in the window after it expired, want 1", n)
	}
}

// A stamp taken after a goroutine handed back is after the stamp taken
// before (gocron's monitor: started before shut down).
func TestStampsIncrease(t *testing.T) {
	var mu sync.Mutex
	var stamps []time.Time
	stamp := func() {
		mu.Lock()
		stamps = append(stamps, time.Now())
		mu.Unlock()
	}
	stamp()
	done := make(chan struct{})
	go func() {
		stamp()
		close(done)
	}()
	<-done
	stamp()
	for i := 1; i < len(stamps); i++ {
		if !stamps[i-1].Before(stamps[i]) {
			t.Fatalf("stamp %d (%v) is not before stamp %d (%v)", i-1, stamps[i-1], i, stamps[i])
		}
	}
}

// A goroutine started before a sleep counts an event while the test
// sleeps; after sleeping as long as the window lasts, the window it
// started has expired: a sleep ends after its deadline, not at it
// (go-resiliency's TestBreakerErrorExpiry).
func TestExpiresAfterSleepWhileItRan(t *testing.T) {
	w := &window{}
	go w.add()
	time.Sleep(time.Second)
	w.add()
	if n := w.count(); n != 1 {
		t.Fatalf("%d events in the window after it expired, want 1", n)
	}
}
