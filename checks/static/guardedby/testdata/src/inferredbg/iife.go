package inferredbg

import "sync"

// Session decides a flag in a closure called on the spot, under a lock
// whose unlock is deferred: the closure's return does not release the
// lock, so the write after it holds f.lock.
type Session struct {
	lock   sync.RWMutex
	state  int
	caps   map[int]bool
	conf   []int
	narrow bool
}

func (f *Session) Change(next int) {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.state = next
	switch next {
	case 1:
		f.narrow = false
		if _, y := f.caps[4]; !y {
			f.narrow = true
			break
		}
		y := func() bool {
			for _, c := range f.conf {
				switch c {
				case 4:
					return true
				}
			}
			return false
		}()
		if !y {
			f.narrow = true // ok: f.lock is still held
		}
	default:
	}
}

func (f *Session) Narrow() bool {
	f.lock.RLock()
	defer f.lock.RUnlock()
	return f.narrow
}

func (f *Session) Run() {
	go func() {
		f.lock.Lock()
		f.narrow = true
		f.lock.Unlock()
	}()
}
