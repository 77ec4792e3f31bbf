package bad

import "sync"

type Reg struct {
	mu sync.Mutex
	n  int
}

type Log struct{ mu sync.Mutex }

func (r *Reg) lock()   { r.mu.Lock() }
func (r *Reg) unlock() { r.mu.Unlock() }

// write holds r.mu through the lock helper.
func (r *Reg) write(l *Log) {
	r.lock()
	l.mu.Lock() // want `lock order inversion: l.mu \(bad.Log.mu\) acquired while holding r.mu \(bad.Reg.mu\), but bad.\(\*Log\).rotate acquires bad.Reg.mu while holding bad.Log.mu at helpers.go:26 via bad.\(\*Reg\).lock`
	l.mu.Unlock()
	r.unlock()
}

func (l *Log) rotate(r *Reg) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r.lock()
	r.n = 0
	r.unlock()
}
