package good

import "sync"

type server struct {
	notifyStarted func()
}

func (s *server) serve() { s.notifyStarted() }

// startAndWait uses a mutex as a one-shot signal: the server calls the
// Unlock it was handed once it is up, and the second Lock waits for it.
func startAndWait() *server {
	wait := sync.Mutex{}
	wait.Lock()
	s := &server{}
	s.notifyStarted = wait.Unlock
	go s.serve()
	wait.Lock()
	return s
}

// startLiteral hands Unlock over in a composite literal, before the
// first Lock.
func startLiteral() *server {
	var wait sync.Mutex
	s := &server{notifyStarted: wait.Unlock}
	wait.Lock()
	go s.serve()
	wait.Lock()
	return s
}

type feeder struct{ keys func() <-chan int }

func newFeeder(keys func() <-chan int) *feeder {
	f := &feeder{keys: keys}
	go func() {
		for range f.keys() {
		}
	}()
	return f
}

// feedAndWait hands a callback whose goroutine unlocks the mutex when it
// has sent every key: the second Lock waits for that.
func feedAndWait(keys []int) *feeder {
	var sent sync.Mutex
	sent.Lock()
	f := newFeeder(func() <-chan int {
		ch := make(chan int)
		go func() {
			defer sent.Unlock()
			defer close(ch)
			for _, k := range keys {
				ch <- k
			}
		}()
		return ch
	})
	sent.Lock()
	return f
}
