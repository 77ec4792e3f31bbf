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

// wakeMutex is a mutex used as a one-shot signal: wake unlocks it once.
type wakeMutex struct {
	sync.Mutex
	woken bool
}

func (m *wakeMutex) wake() bool {
	if m.woken {
		return false
	}
	m.woken = true
	m.Unlock()
	return true
}

// waitForWake hands the locked mutex to a callback (registered with
// afterFunc, which runs it on another goroutine) that wakes it through
// its method; the second Lock waits for that (modernc sqlite's retry).
func waitForWake(afterFunc func(func()) func() bool) {
	m := new(wakeMutex)
	m.Lock()
	stop := afterFunc(func() { m.wake() })
	m.Lock()
	stop()
	m.Unlock()
}

// wakeByGoroutines does the same with goroutines that call wake.
func wakeByGoroutines() bool {
	m := new(wakeMutex)
	m.Lock()
	woke := make(chan bool, 2)
	for j := 0; j < 2; j++ {
		go func() { woke <- m.wake() }()
	}
	m.Lock()
	a, b := <-woke, <-woke
	m.Unlock()
	return a != b
}
