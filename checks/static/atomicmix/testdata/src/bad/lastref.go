package bad

import "sync/atomic"

// span is reset when its last reference goes, but Clear resets it while
// references may still be held.
type span struct {
	refs int32
	name string
}

func (s *span) reset() {
	s.refs = 0 /* IL3002 */ // want `plain write of s\.refs races with its atomic accesses`
	s.name = ""
}

func (s *span) ref() { atomic.AddInt32(&s.refs, 1) }

func (s *span) unref() {
	if atomic.AddInt32(&s.refs, -1) == 0 {
		s.reset()
	}
}

// Clear resets a span that others may still reference.
func (s *span) Clear() { s.reset() }

// lease releases when the count is still positive: others hold it.
type lease struct {
	refs int32
}

func (l *lease) drop() {
	if atomic.AddInt32(&l.refs, -1) > 0 {
		l.release()
	}
}

func (l *lease) release() {
	l.refs = -1 /* IL3002 */ // want `plain write of l\.refs races with its atomic accesses`
}
