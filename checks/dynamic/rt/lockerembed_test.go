package rt

import (
	"sync"
	"testing"
	"unsafe"
)

type embedsMutex struct {
	n int
	sync.Mutex
}

type embedsRWPtr struct {
	*sync.RWMutex
}

type embedsTwice struct {
	_ byte // the embedded struct at an offset
	embedsMutex
}

type ownLock struct{ mu sync.Mutex }

func (o *ownLock) Lock()   { Lock(&o.mu) }
func (o *ownLock) Unlock() { Unlock(&o.mu) }

type embedsOwn struct{ ownLock }

// TestLockerKindEmbedded: a Locker whose Lock is promoted from an embedded
// sync.Mutex or RWMutex, at any depth, through a pointer or not, denotes
// that mutex; one whose Lock the program declares, at any depth, denotes
// none (its Lock is rewritten code of its own).
func TestLockerKindEmbedded(t *testing.T) {
	m := &embedsMutex{}
	rw := &embedsRWPtr{RWMutex: &sync.RWMutex{}}
	two := &embedsTwice{}
	cases := []struct {
		name string
		l    sync.Locker
		op   opKind
		p    unsafe.Pointer
	}{
		{"embedded Mutex", m, opLock, unsafe.Pointer(&m.Mutex)},
		{"embedded *RWMutex", rw, opWLock, unsafe.Pointer(rw.RWMutex)},
		{"two levels", two, opLock, unsafe.Pointer(&two.embedsMutex.Mutex)},
		{"nil embedded pointer", &embedsRWPtr{}, opNone, nil},
		{"own Lock", &ownLock{}, opNone, nil},
		{"own Lock embedded", &embedsOwn{}, opNone, nil},
	}
	for _, c := range cases {
		for range 2 { // found, then cached
			op, p := lockerKind(c.l)
			if op != c.op || p != c.p {
				t.Errorf("%s: lockerKind = %v %p, want %v %p", c.name, op, p, c.op, c.p)
			}
		}
	}
}

// TestCondOnEmbeddingStruct: sync.NewCond(s) where s embeds sync.Mutex
// (miniredis's shape). Wait unlocks through s.Unlock, the promoted method,
// so the shadow of s.Mutex must be released with it: before, every
// schedule deadlocked at the broadcaster's s.Lock.
func TestCondOnEmbeddingStruct(t *testing.T) {
	rs := explore(t, 40, func(t *testing.T) {
		s := &embedsTwice{}
		c := sync.NewCond(s)
		var wg sync.WaitGroup
		for range 2 {
			WaitGroupAdd(&wg, 1)
			Go(func() {
				defer WaitGroupDone(&wg)
				Lock(&s.Mutex)
				for s.n == 0 {
					CondWait(c)
				}
				Unlock(&s.Mutex)
			})
		}
		Lock(&s.Mutex)
		s.n = 1
		CondBroadcast(c)
		Unlock(&s.Mutex)
		WaitGroupWait(&wg)
	})
	mustPass(t, rs)
}
