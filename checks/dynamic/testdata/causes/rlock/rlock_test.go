package rlock

import (
	"sync"
	"testing"
)

// TestReaders runs lookups next to the statistics readers.
func TestReaders(t *testing.T) {
	c := New(map[string]int{"a": 1})
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); c.Get("a"); c.Get("b") }()
	go func() { defer wg.Done(); c.Get("b"); c.Get("a") }()
	go func() { defer wg.Done(); c.Stats(); c.Hits() }()
	wg.Wait()
}

// TestHitsWhileGetting is the same cause reached from another test.
func TestHitsWhileGetting(t *testing.T) {
	c := New(map[string]int{"a": 1})
	done := make(chan bool)
	go func() { c.Get("a"); done <- true }()
	_ = c.Hits()
	<-done
}
