// Package good holds idioms lockblock must stay silent on.
package good

import (
	"sync"
	"time"
)

type Queue struct {
	mu    sync.Mutex
	cond  *sync.Cond
	items []int
	out   chan int
	wg    sync.WaitGroup
	once  sync.Once
}

func NewQueue() *Queue {
	q := &Queue{out: make(chan int)}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// Pop waits in the classic Cond loop: Wait releases q.mu.
func (q *Queue) Pop() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 {
		q.cond.Wait() // ok: the Cond's own lock
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v
}

func (q *Queue) Offer(v int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	select {
	case q.out <- v: // ok: select with default never blocks
		return true
	default:
		return false
	}
}

func (q *Queue) Flush() {
	q.mu.Lock()
	items := q.items
	q.items = nil
	q.mu.Unlock()
	for _, v := range items {
		q.out <- v // ok: lock released first
	}
	q.wg.Wait() // ok: no lock held
}

func (q *Queue) Buffered() {
	done := make(chan struct{}, 1)
	q.mu.Lock()
	done <- struct{}{} // ok: buffered channel made here
	q.mu.Unlock()
	<-done
}

type Notifier struct {
	mu    sync.Mutex
	ready chan struct{}
}

func NewNotifier() *Notifier {
	return &Notifier{ready: make(chan struct{}, 1)}
}

func (n *Notifier) Reset() {
	n.mu.Lock()
	n.ready = make(chan struct{}, 1)
	n.mu.Unlock()
}

func (n *Notifier) Notify() {
	n.mu.Lock()
	defer n.mu.Unlock()
	select {
	case n.ready <- struct{}{}:
	default:
	}
	n.ready <- struct{}{} // ok: every channel stored in n.ready has capacity 1
}

func (q *Queue) TryFlush() {
	if !q.mu.TryLock() {
		time.Sleep(time.Millisecond) // ok: TryLock failed, nothing held
		return
	}
	q.items = nil
	q.mu.Unlock()
}

func (q *Queue) Start() {
	q.mu.Lock()
	defer q.mu.Unlock()
	go func() {
		q.out <- 1 // ok: the new goroutine holds no lock
	}()
	q.once.Do(func() {})
}

func (q *Queue) AfterDefer() {
	func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		q.items = append(q.items, 1)
	}()
	q.out <- 2 // ok: the closure released the lock
}

type Local struct {
	mu   sync.Mutex
	cond sync.Cond
	n    int
}

func NewLocal() *Local {
	l := &Local{}
	l.cond.L = &l.mu
	return l
}

func (l *Local) Wait() {
	l.mu.Lock()
	for l.n == 0 {
		l.cond.Wait() // ok: L is l.mu
	}
	l.mu.Unlock()
}

func LocalCond() {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	mu.Lock()
	c.Wait() // ok: own lock
	mu.Unlock()
}
