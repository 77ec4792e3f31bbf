package good

import "sync"

// Session is a state machine: one driver goroutine per session runs its
// steps and records why each step ended, holding only the read lock
// (readers of the state share it); every other access of the reason
// takes the write lock, which excludes the driver's read section.
type Session struct {
	mu     sync.RWMutex
	state  int
	reason *Reason
}

type Reason struct {
	Code int
	Note string
}

type driver struct {
	s    *Session
	quit chan struct{}
}

func newDriver(s *Session) *driver {
	d := &driver{s: s, quit: make(chan struct{})}
	go d.run()
	return d
}

func (d *driver) run() {
	for {
		select {
		case <-d.quit:
			return
		default:
		}
		r := d.step()
		d.s.mu.RLock()
		d.s.reason = r // ok: only d's one goroutine writes it; other accesses hold the write lock
		if r.Code > 0 {
			last := d.s.reason
			last.Note = "stopped" // ok: same
		}
		d.s.mu.RUnlock()
		d.note()
	}
}

// note is called only by run: it runs on the driver's goroutine too.
func (d *driver) note() {
	d.s.mu.RLock()
	d.s.reason.Code++ // ok: same goroutine as run
	d.s.mu.RUnlock()
}

func (d *driver) step() *Reason {
	d.s.mu.RLock()
	defer d.s.mu.RUnlock()
	return &Reason{Code: d.s.state}
}

func (s *Session) Transition(next int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reason != nil && s.reason.Code == 0 {
		s.state = next
	}
}

func (s *Session) Reset() {
	s.mu.Lock()
	s.reason = nil
	s.mu.Unlock()
}

func Start(s *Session) *driver { return newDriver(s) }
