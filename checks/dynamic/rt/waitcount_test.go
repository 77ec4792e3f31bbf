package rt

import (
	"math/rand"
	"testing"
	"time"
	"unsafe"
)

// queuedBehind reads each channel's count of waiters and the earliest time
// one parked at (waitCount), kept as goroutines park, leave and commit a
// select's case; it must answer as the scan of the blocked goroutines it
// replaced, through every order of parking and leaving, with the earliest
// leaving (a recount) and several parked at one time.
func TestQueuedBehindAsTheScan(t *testing.T) {
	scan := func(s *sched, g *gstate, p unsafe.Pointer, send bool) bool {
		for _, h := range s.blocked {
			if h != g && h.parkAt < g.parkAt && caseFor(h, p, send) >= -1 {
				return true
			}
		}
		return false
	}
	var arena [3]int
	chans := []unsafe.Pointer{unsafe.Pointer(&arena[0]), unsafe.Pointer(&arena[1]), unsafe.Pointer(&arena[2])}
	r := rand.New(rand.NewSource(1))
	s := &sched{}
	s.takeShadow()
	gs := make([]*gstate, 24)
	for i := range gs {
		gs[i] = &gstate{id: i}
	}
	checks := 0
	for step := 0; step < 20000; step++ {
		g := gs[r.Intn(len(gs))]
		switch {
		case g.set == setBlocked && g.req.op == opSelect && g.commit == 0 && r.Intn(4) == 0:
			s.commit(g, r.Intn(len(g.req.cases)))
		case g.set == setBlocked:
			s.unpark(g)
		default:
			p := chans[r.Intn(len(chans))]
			switch r.Intn(3) {
			case 0:
				g.req = request{op: opSend, obj: p}
			case 1:
				g.req = request{op: opRecv, obj: p}
			default:
				g.req = request{op: opSelect, cases: []caseReq{{ptr: p, send: r.Intn(2) == 0}, {ptr: chans[r.Intn(len(chans))]}}}
			}
			g.parkAt = time.Duration(r.Intn(3))
			s.park(g)
		}
		for _, h := range gs {
			for _, p := range chans {
				for _, send := range []bool{false, true} {
					want := scan(s, h, p, send)
					if got := s.queuedBehind(h, s.chanOf(p), p, send); got != want {
						t.Fatalf("step %d: queuedBehind(g%d, chan %d, send %v) = %v, the scan says %v", step, h.id, p, send, got, want)
					}
					checks++
				}
			}
		}
	}
	t.Logf("%d answers compared", checks)
}
