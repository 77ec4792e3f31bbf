// Package mapwrites: two goroutines write one plain map.
package mapwrites

import (
	"sync"
	"testing"
)

type sessions struct{ m map[string]int }

func (s *sessions) touch(id string) { s.m[id]++ } // no lock

func TestTouch(t *testing.T) {
	s := &sessions{m: map[string]int{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.touch("a") }()
	go func() { defer wg.Done(); s.touch("b") }()
	wg.Wait()
	if len(s.m) != 2 {
		t.Fatalf("%d sessions", len(s.m))
	}
}
