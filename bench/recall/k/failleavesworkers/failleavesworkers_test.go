// Package failleavesworkers: two uploads bump a shared counter with a
// read and a write in separate critical sections; when they interleave
// one bump is lost, the test's t.Fatalf fires, and the Stop after it never
// runs: the uploader's workers stay blocked. go test tells the failure.
package failleavesworkers

import (
	"sync"
	"testing"
)

type uploader struct {
	queue chan string
	done  chan bool
	wg    sync.WaitGroup
	mu    sync.Mutex
	sent  int
}

func start(workers int) *uploader {
	u := &uploader{queue: make(chan string), done: make(chan bool)}
	for range workers {
		u.wg.Add(1)
		go func() {
			defer u.wg.Done()
			for range u.queue {
				u.mu.Lock()
				n := u.sent
				u.mu.Unlock()
				u.mu.Lock()
				u.sent = n + 1 // the read above may be stale
				u.mu.Unlock()
				u.done <- true
			}
		}()
	}
	return u
}

func (u *uploader) Stop() {
	close(u.queue)
	u.wg.Wait()
}

func (u *uploader) Sent() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.sent
}

func TestUploads(t *testing.T) {
	u := start(2)
	u.queue <- "a.txt"
	u.queue <- "b.txt"
	<-u.done
	<-u.done
	if n := u.Sent(); n != 2 {
		t.Fatalf("sent %d of 2 uploads", n)
	}
	u.Stop()
}
