package rt

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"
	"unsafe"
)

// timerOf reads a deadline context's timer under the context's own lock,
// which its cancel (a parent's, from another goroutine) holds while it
// clears the timer: held here, timerOf waits for it.
func TestTimerOfTakesTheContextsLock(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	mu := reflect.ValueOf(ctx).Elem().FieldByName("mu")
	if !mu.IsValid() || mu.Type() != mutexType {
		t.Skip("context's layout has no mu: timerOf reads without it")
	}
	m := (*sync.Mutex)(unsafe.Pointer(mu.UnsafeAddr()))
	m.Lock()
	got := make(chan *time.Timer)
	go func() { got <- timerOf(ctx) }()
	select {
	case <-got:
		m.Unlock()
		t.Fatal("timerOf read the timer while the context's lock was held")
	case <-time.After(200 * time.Millisecond):
	}
	m.Unlock()
	if tm := <-got; tm == nil {
		t.Fatal("timerOf found no timer in a WithTimeout context")
	}
}
