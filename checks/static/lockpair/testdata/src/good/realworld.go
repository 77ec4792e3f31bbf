package good

import (
	"iter"
	"strings"
	"sync"
	"testing"
)

// Idioms seen in real modules (grpc, nats-server) that lockpair must not
// report.

func check(t *testing.T, err error) {
	if err != nil {
		t.Fatal(err)
	}
}

// unlockThenAssert releases the lock before an assertion helper that
// fails the test: the helper ends that path.
func unlockThenAssert(t *testing.T, s *S, f func() error) {
	s.mu.Lock()
	if err := f(); err != nil {
		s.mu.Unlock()
		check(t, err)
	}
	s.mu.Unlock()
}

// insert returns from inside a range-over-func loop body, which the
// iterator runs as a callback.
func (s *S) insert(subject string) bool {
	s.mu.Lock()
	for tok := range strings.SplitSeq(subject, ".") {
		if tok == "" {
			s.mu.Unlock()
			return false
		}
	}
	s.mu.Unlock()
	return true
}

func (s *S) insertSeq(seq iter.Seq[int]) bool {
	s.mu.Lock()
	for v := range seq {
		if v < 0 {
			s.mu.Unlock()
			return false
		}
		s.n += v
	}
	s.mu.Unlock()
	return true
}

// noDeferUnlock has a constant-false early return: dead code.
func noDeferUnlock(mu *sync.Mutex) {
	mu.Lock()
	if false {
		return
	}
	mu.Unlock()
}

func (s *S) finishAndUnlock() {
	s.n++
	s.mu.Unlock()
}

// handOff passes the held lock to a new goroutine, which releases it.
func (s *S) handOff(fast bool) {
	s.mu.Lock()
	if fast {
		s.mu.Unlock()
		return
	}
	go s.finishAndUnlock()
}

// handOffLiteral passes the lock to a goroutine, then locks again after
// the goroutine is done with it.
func (s *S) handOffLiteral(done chan struct{}) {
	s.mu.Lock()
	go func() {
		s.n++
		s.mu.Unlock()
		close(done)
	}()
	<-done
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
}

// namedRollback unlocks through a named closure that another closure
// also captures (so the variable lives in memory).
func (s *S) namedRollback(fail bool) error {
	s.mu.Lock()
	rollback := func() {
		s.n = 0
		s.mu.Unlock()
	}
	reject := func() error {
		rollback()
		return nil
	}
	if s.n < 0 {
		return reject() // releases through reject -> rollback
	}
	if fail {
		rollback()
		return nil
	}
	s.mu.Unlock()
	return nil
}

// readLockN takes the read lock n times, then releases it n times.
func (s *S) readLockN(n int) {
	i := 0
	for ; i < n; i++ {
		s.rw.RLock()
	}
	for ; i > 0; i-- {
		s.rw.RUnlock()
	}
}

// lockOnce takes the lock on the first item that needs it and keeps it
// until the function returns; the flag says it is held.
func (s *S) lockOnce(items []int) {
	locked := false
	for _, v := range items {
		if v > 0 {
			if !locked {
				s.mu.Lock()
				defer s.mu.Unlock()
				locked = true
			}
			s.n += v
		}
	}
}

type producer struct {
	mu       sync.Mutex
	c        *sync.Cond
	buffered int
	max      int
}

// produce waits for space in a goroutine that takes p.mu and leaves it
// locked; after <-wait this function owns the lock and releases it
// (franz-go's Client.produce).
func (p *producer) produce(done <-chan struct{}) {
	p.mu.Lock()
	if p.buffered >= p.max {
		p.mu.Unlock()
		wait := make(chan struct{})
		go func() {
			defer close(wait)
			p.mu.Lock()
			for p.buffered >= p.max {
				p.c.Wait()
			}
		}()
		select {
		case <-wait:
		case <-done:
			<-wait
			p.mu.Unlock()
			return
		}
	}
	p.buffered++
	p.mu.Unlock() // ok: the goroutine handed the lock back
}
