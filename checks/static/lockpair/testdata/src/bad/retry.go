package bad

import "sync"

type version struct {
	s   *session
	ref int
}

func (v *version) release() {
	v.s.vmu.Lock()
	v.ref--
	v.s.vmu.Unlock()
}

type session struct {
	vmu sync.Mutex
	cur *version
}

func (s *session) version() *version {
	s.vmu.Lock()
	defer s.vmu.Unlock()
	s.cur.ref++
	return s.cur
}

func (s *session) setVersion(v *version) {
	s.vmu.Lock()
	defer s.vmu.Unlock()
	s.cur = v
}

func (s *session) commit() (err error) {
	v := s.version()
	defer v.release()
	if v.ref > 3 {
		err = errNotFound
	}
	if err == nil {
		s.setVersion(&version{s: s})
	}
	return
}

type store struct {
	commitMu sync.Mutex
	s        *session
	closing  chan struct{}
	retry    chan struct{}
}

type txn struct{ db *store }

// Commit retries holding the commit lock, which was taken before the
// loop. The success path breaks out and unlocks; the exhausted retries
// return holding it. One report, at that return: the break is no
// per-iteration lock.
func (t *txn) Commit() error { // want Commit:"acquires t.db.commitMu"
	t.db.commitMu.Lock()
	var err error
	for retry := 0; retry < 3; retry++ {
		err = t.db.s.commit()
		if err != nil {
			select {
			case <-t.db.retry:
			case <-t.db.closing:
				t.db.commitMu.Unlock()
				return err
			}
		} else {
			break
		}
	}
	if err != nil {
		return err // want `t.db.commitMu locked at line \d+ is still held at this return, but released before 2 other return\(s\)`
	}
	t.db.commitMu.Unlock()
	return nil
}
