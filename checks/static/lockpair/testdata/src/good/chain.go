package good

import "sync"

// span is a node of a tree of spans; a child is flushed with its parent.
type span struct {
	sync.Mutex
	parent  *span
	open    int
	ended   bool
	emitted bool
}

func (s *span) ready() bool { return s.open == 0 && s.ended }

// finish ends the span, then sends it up the chain. The send locks
// hand over hand, but releases the lock it holds before it leaves: no
// lock is kept, so finish is no lock helper.
func (s *span) finish() {
	s.Lock()
	s.ended = true
	s.Unlock()
	s.send()
}

// send locks hand over hand from s to the first ancestor that is not
// ready, always unlocking the current span first.
func (s *span) send() {
	cur := s
	cur.Lock()
	for {
		if cur.ready() {
			cur.emitted = true
			cur.Unlock()
			break
		}
		next := cur.parent
		cur.Unlock()
		cur = next
		cur.Lock()
		cur.open--
	}
}

// abandon ends the span, or sends it when its context is done.
func (s *span) abandon(done bool) {
	s.Lock()
	if done && !s.emitted {
		s.Unlock()
		s.send()
		return
	}
	s.Unlock()
}

// root locks the parent before it lets go of the child (lock coupling)
// and unlocks the root it reached.
func (s *span) root() *span {
	cur := s
	cur.Lock()
	for cur.parent != nil {
		p := cur.parent
		p.Lock()
		cur.Unlock()
		cur = p
	}
	cur.Unlock()
	return cur
}
