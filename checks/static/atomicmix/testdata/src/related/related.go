// Package related: the atomic access a finding cites is one that races
// with the plain write, not one the write is ordered with.
package related

import (
	"sync"
	"sync/atomic"
)

type watcher struct {
	sync.Mutex
	fd int32
}

// lazyOpen is double-checked: the first check runs without the lock,
// so it races with the write; the second holds the lock the write
// holds, and the loop starts after the write.
func (w *watcher) lazyOpen() {
	if atomic.LoadInt32(&w.fd) == -1 {
		w.Lock()
		defer w.Unlock()
		if atomic.LoadInt32(&w.fd) == -1 {
			w.fd = 3 /* IL3002 */ // want `plain write of w.fd races with its atomic accesses \(atomic.LoadInt32 at related.go:19\)`
			go w.loop()
		}
	}
}

// Watched reads the descriptor without the lock, another racing Load;
// lazyOpen's own first check is the one cited.
func (w *watcher) Watched() bool { return atomic.LoadInt32(&w.fd) != -1 }

func (w *watcher) loop() {
	for atomic.LoadInt32(&w.fd) != -1 {
		atomic.StoreInt32(&w.fd, -1)
	}
}

type manager struct {
	n     int32
	polls []int
}

func (m *manager) SetN(n int) { atomic.StoreInt32(&m.n, int32(n)) }

// Run closes the manager when it fails: its Load runs on the goroutine
// that then writes in Close, while SetN's Store may run on any other.
func (m *manager) Run() (err error) {
	defer func() {
		if err != nil {
			m.Close()
		}
	}()
	n := atomic.LoadInt32(&m.n)
	m.polls = make([]int, n)
	return nil
}

func (m *manager) Close() {
	m.n = 0 /* IL3002 */ // want `plain write of m.n races with its atomic accesses \(atomic.StoreInt32 at related.go:44\)`
	m.polls = nil
}
