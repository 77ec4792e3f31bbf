package inlined

import "testing"

// TestWarmReady: Warm makes the buffer while Ready looks.
func TestWarmReady(t *testing.T) {
	l := &Lazy{}
	done := make(chan bool)
	go func() { l.Warm(); done <- true }()
	_ = l.Ready()
	<-done
}

// TestLenCap is the same write, reached through Len, raced by Cap.
func TestLenCap(t *testing.T) {
	l := &Lazy{}
	done := make(chan bool)
	go func() { _ = l.Len(); done <- true }()
	_ = l.Cap()
	<-done
}
