// Package okdaemontracker: a package-wide tracker, started once for the
// process by a package-level sync.Once, serving requests on unbuffered
// channels; every test asks it. Nothing stops it: it lives for the
// process by design.
package okdaemontracker

import (
	"sync"
	"testing"
)

type request struct {
	name  string
	reply chan int
}

var (
	once    sync.Once
	watches chan request
	counts  = map[string]int{}
)

func run() {
	for r := range watches {
		counts[r.name]++
		r.reply <- counts[r.name]
	}
}

func watch(name string) int {
	once.Do(func() {
		watches = make(chan request)
		go run()
	})
	r := request{name, make(chan int)}
	watches <- r
	return <-r.reply
}

func TestWatchTwice(t *testing.T) {
	done := make(chan int, 2)
	for _, name := range []string{"a", "b"} {
		go func() { done <- watch(name) }()
	}
	for range 2 {
		if n := <-done; n < 1 {
			t.Errorf("count %d, want at least 1", n)
		}
	}
}

func TestWatch(t *testing.T) {
	if n := watch("c"); n < 1 {
		t.Errorf("count %d, want at least 1", n)
	}
}
