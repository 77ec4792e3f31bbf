package rt

import (
	"testing"
	"unsafe"
)

// The goroutine table takes an id in place while it has room, and a
// removed id reads as absent: a test starting thousands of goroutines
// must not copy it at each start.
func TestTableAddsInPlace(t *testing.T) {
	gs := make([]*gstate, 200)
	var tab *gtable
	for i := range gs {
		gs[i] = &gstate{id: i, gid: uint64(1000 + 7*i)}
		tab = tab.with(gs[i].gid, gs[i])
	}
	copies := 0
	for i := range gs {
		if i%2 == 0 {
			nt := tab.with(gs[i].gid, nil)
			if nt != tab {
				copies++
			}
			tab = nt
		}
	}
	for i, g := range gs {
		want := g
		if i%2 == 0 {
			want = nil
		}
		if got := tab.lookup(g.gid); got != want {
			t.Fatalf("lookup(%d) = %v, want %v", g.gid, got, want)
		}
	}
	if copies != 0 {
		t.Errorf("removing ids copied the table %d times", copies)
	}
	g := &gstate{gid: 99}
	if allocs := testing.AllocsPerRun(10, func() {
		tab = tab.with(g.gid, g)
		tab = tab.with(g.gid, nil)
	}); allocs != 0 {
		t.Errorf("adding an id to a table with room allocates %v times", allocs)
	}
}

// Whether a channel has a partner is asked for every parked goroutine at
// every decision: it allocates nothing.
func TestHasPartnerDoesNotAllocate(t *testing.T) {
	var ch int
	p := unsafe.Pointer(&ch)
	s := &sched{}
	s.takeShadow()
	a := &gstate{id: 0, req: request{op: opSend, obj: p}}
	b := &gstate{id: 1, req: request{op: opRecv, obj: p}}
	s.gs = []*gstate{a, b}
	s.park(a)
	s.park(b)
	if !s.hasPartner(a, p, true) || s.hasPartner(a, p, false) {
		t.Fatal("hasPartner: wrong answer")
	}
	if allocs := testing.AllocsPerRun(10, func() { s.hasPartner(a, p, true) }); allocs != 0 {
		t.Errorf("hasPartner allocates %v times", allocs)
	}
	// A select with two receive cases on one channel is no partner of
	// itself.
	c := &gstate{id: 2, req: request{op: opSelect, cases: []caseReq{{ptr: p}, {ptr: p}}}}
	s.gs = append(s.gs, c)
	s.park(c)
	if !s.hasPartner(a, p, true) || s.hasPartner(a, p, false) || !s.hasPartner(b, p, false) {
		t.Error("hasPartner with the index: wrong answer")
	}
	s.gs = []*gstate{c}
	s.unpark(a)
	s.unpark(b)
	if s.hasPartner(c, p, true) {
		t.Error("a select is its own partner")
	}
	s.unpark(c)
	if w := s.chanOf(p).waits; w != ([2]waitCount{}) || len(s.blocked) != 0 {
		t.Errorf("nothing parked, yet waiters %v and %d blocked", w, len(s.blocked))
	}
}
