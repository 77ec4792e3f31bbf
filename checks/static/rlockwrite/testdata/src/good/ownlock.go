package good

import "sync"

// A queue group's members: removing one hands its pending messages to
// the others, each written under that member's own write lock, while
// the leaving member is only read-locked.
type group struct {
	sync.Mutex
	members []*member
	last    uint64
}

type member struct {
	sync.RWMutex
	grp      *group
	pending  map[uint64]int64
	lastSent uint64
}

func (m *member) join(g *group) {
	m.Lock()
	m.grp = g
	m.Unlock()
}

func (m *member) seqs() []uint64 {
	out := make([]uint64, 0, len(m.pending))
	for s := range m.pending {
		out = append(out, s)
	}
	return out
}

func (m *member) leave() {
	g := m.grp
	g.Lock()
	defer g.Unlock()
	m.RLock()
	defer m.RUnlock()
	if len(m.grp.members) == 0 {
		return
	}
	for i, seq := range m.seqs() {
		other := m.grp.members[i%len(m.grp.members)]
		other.Lock()
		if seq > other.lastSent {
			other.lastSent = seq
		}
		other.pending[seq] = 1
		other.Unlock()
	}
}
