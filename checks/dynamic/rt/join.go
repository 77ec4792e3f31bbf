// Joiners: goroutines started outside control that join the running schedule.

package rt

import (
	"context"
	"runtime"
	"strconv"
	"time"
	"unsafe"
)

// A go statement of rewritten code run by a goroutine the scheduler does
// not control (net/http's connection goroutine calling a handler, a
// dependency's worker calling back) starts a joiner: the new goroutine
// queues itself and waits. The scheduler admits it at a decision of its
// own (Decision.Op "join", G the id it gets), after which it is a
// controlled goroutine whose first step is its start. A replay admits a
// joiner only at a recorded join, waiting for one started at the same site
// to queue (up to the step limit, longer while the process is starved), so
// that the order of the new goroutine among the controlled ones is the
// schedule's, whatever its parent's timing was. A joiner no schedule
// admits (it queued after the schedule's end, or after its test returned)
// runs free, as a plain go statement would.
//
// The queue is shared by goroutines outside control and the scheduler:
// it is guarded by a runtime semaphore (invisible to the race detector, as
// the hand-offs are) and touched only in //go:norace code.

type joiner struct {
	pcs    [10]uintptr // the go statement's call stack
	parent uint64      // the runtime id of the goroutine that ran it
	site   string      // the go statement's file:line, resolved by S
	// written by S: the controlled goroutine it becomes (nil: run free),
	// then state set to 1 and sema released.
	g     *gstate
	state uint32
	sema  uint32
	// the search's hold (holdJoin): 0 undecided, 1 admit, 2 held
	hold   uint8
	holdAt time.Time
	backs  uint64 // sched.backs when it was held
	looks  int

	// only this schedule takes it (nil: whichever takes joiners)
	want *sched
	// A context.AfterFunc's (ContextAfterFunc): its context's done
	// channel, then, under the queue's lock, whether it began to join or
	// was stopped.
	done    unsafe.Pointer
	began   bool
	stopped bool
	// started by a package-level Once's function: a daemon (gstate.daemon)
	daemon bool
}

var joins struct {
	lock uint32 // a semaphore: 1 when free
	s    *sched // the schedule taking joiners (nil: none)
	q    []*joiner
	// the context.AfterFunc functions s registered, not yet begun
	armed []*joiner
	// s's test returned: only those functions join (endTestJoins)
	ended bool
	// goroutines outside control running a package-level Once's
	// function (OnceDoPackage), by runtime id: what they start is a daemon
	inOnce map[uint64]int
}

// outsideOnce counts goroutine id, outside control, into (d 1) or out
// of (d -1) a package-level Once's function.
//
//go:norace
func outsideOnce(id uint64, d int) {
	lockJoins()
	if joins.inOnce == nil {
		joins.inOnce = map[uint64]int{}
	}
	if joins.inOnce[id] += d; joins.inOnce[id] <= 0 {
		delete(joins.inOnce, id)
	}
	unlockJoins()
}

func init() { joins.lock = 1 }

//go:norace
func lockJoins() { semacquire(&joins.lock) }

//go:norace
func unlockJoins() { semrelease(&joins.lock, false, 0) }

// goOutside runs f on a new goroutine for a go statement executed outside
// control: a joiner while a schedule takes them, else a plain goroutine.
//
//go:norace
func goOutside(f func()) {
	s := active
	if s == nil {
		go f()
		return
	}
	j := &joiner{parent: goid()}
	lockJoins()
	j.daemon = joins.inOnce[j.parent] > 0
	unlockJoins()
	runtime.Callers(3, j.pcs[:])
	go joinMain(j, f)
}

// ContextAfterFunc is context.AfterFunc. The context package runs f on a
// goroutine of its own, outside control: while the schedule that
// registered f runs, f joins it (a joiner whose site is the registration),
// so the order of f among the controlled goroutines is the schedule's,
// and a call of stop is a scheduling point. Once the context is done and
// f not stopped, the scheduler waits for f to queue (awaitArmed) before
// it calls the others blocked.
//
//go:norace
func ContextAfterFunc(ctx context.Context, f func()) (stop func() bool) {
	s := active
	if s == nil {
		return context.AfterFunc(ctx, f)
	}
	j := &joiner{parent: goid(), want: s}
	runtime.Callers(2, j.pcs[:])
	if d := ctx.Done(); d != nil {
		j.done = *(*unsafe.Pointer)(unsafe.Pointer(&d))
		lockJoins()
		if joins.s == s {
			joins.armed = append(joins.armed, j)
		}
		unlockJoins()
	}
	stopReal := context.AfterFunc(ctx, func() { joinMain(j, f) })
	return func() bool {
		if g := current(); g != nil {
			g.call(&request{op: opYield})
		}
		ok := stopReal()
		if ok {
			j.stop()
		}
		return ok
	}
}

//go:norace
func (j *joiner) stop() {
	lockJoins()
	j.stopped = true
	unlockJoins()
}

// awaitArmed waits, as awaitJoiner does, while a context.AfterFunc
// function registered in s is due (its context done, not stopped) but has
// not queued yet: the context package has started its goroutine, which
// has not run. It reports whether one queued.
//
//go:norace
func (s *sched) awaitArmed() bool {
	if len(joins.armed) == 0 {
		return false
	}
	var w *stretchedWait
	seen := joinSeq
	for {
		due := false
		lockJoins()
		armed := joins.armed[:0]
		for _, j := range joins.armed {
			if j.began || j.stopped {
				continue
			}
			armed = append(armed, j)
			due = due || closedForReal(j.done)
		}
		for i := len(armed); i < len(joins.armed); i++ {
			joins.armed[i] = nil
		}
		joins.armed = armed
		unlockJoins()
		if !due {
			return false
		}
		if w == nil {
			w = s.stretchedWait()
		} else if joinSeq != seen {
			return true
		}
		if w.over(s) {
			return false
		}
		seen = waitChange(&joinSeq, seen, time.Millisecond)
		if joinSeq != seen {
			return true
		}
	}
}

// joinMain is the body of a joiner: it queues, waits for the scheduler's
// answer and runs f as a controlled goroutine or free.
//
//go:norace
func joinMain(j *joiner, f func()) {
	lockJoins()
	j.began = true
	s := joins.s
	if j.want != nil && s != j.want || j.want == nil && joins.ended {
		s = nil // registered in a schedule that is over, or started after the test returned
	}
	if s != nil {
		joins.q = joinersWith(joins.q, j)
		joinSeq++
	}
	unlockJoins()
	if s == nil {
		f()
		return
	}
	semrelease(&wakeSema, false, 0) // as bump does
	for j.state == 0 {
		semacquire(&j.sema)
	}
	if c := j.g; c != nil {
		childMain(c, f)
		return
	}
	f()
}

// joinSeq counts the joiners queued (under the queue's lock).
var joinSeq uint32

// openJoins makes s the schedule that takes joiners.
//
//go:norace
func openJoins(s *sched) {
	lockJoins()
	joins.s, joins.armed, joins.ended = s, nil, false
	unlockJoins()
}

// closeJoins stops taking joiners and lets those still queued run free.
//
//go:norace
func closeJoins(s *sched) {
	lockJoins()
	q := joins.q
	if joins.s == s {
		joins.s, joins.q, joins.armed, joins.ended = nil, nil, nil, false
	}
	unlockJoins()
	for _, j := range q {
		j.answer(nil)
	}
}

// endTestJoins: s's test returned, and go test waits for no goroutine
// started now: joiners run free from here on, except the context.AfterFunc
// functions s registered, whose context started them before the test
// returned (or will: awaitArmed). They join as a goroutine the test
// started would still run.
//
//go:norace
func endTestJoins(s *sched) {
	lockJoins()
	var free []*joiner
	if joins.s == s {
		var q []*joiner
		for _, j := range joins.q {
			if j.want == s {
				q = joinersWith(q, j)
			} else {
				free = append(free, j)
			}
		}
		joins.q, joins.ended = q, true
	}
	unlockJoins()
	for _, j := range free {
		j.answer(nil)
	}
}

//go:norace
func (j *joiner) answer(c *gstate) {
	j.g = c
	j.state = 1
	semrelease(&j.sema, false, 0)
}

// queuedJoiners returns the joiners queued now (a copy S owns).
//
//go:norace
func (s *sched) queuedJoiners() []*joiner {
	if len(joins.q) == 0 {
		return nil // most decisions: no lock taken (one queued meanwhile is seen at the next)
	}
	lockJoins()
	var q []*joiner
	if joins.s == s {
		for _, j := range joins.q {
			q = joinersWith(q, j)
		}
	}
	unlockJoins()
	return q
}

// takeJoiner removes j from the queue.
//
//go:norace
func takeJoiner(j *joiner) {
	lockJoins()
	for i, o := range joins.q {
		if o == j {
			var rest []*joiner
			for k, o := range joins.q {
				if k != i {
					rest = joinersWith(rest, o)
				}
			}
			joins.q = rest
			break
		}
	}
	unlockJoins()
}

// joinersWith is append(q, j), by hand: the queue's arrays pass between
// goroutines under a semaphore the race detector does not see, and the
// runtime's append and copy would show it their reads and writes (rt's
// own race, seen on goworkerpool: join.go's append against a slice copy).
//
//go:norace
func joinersWith(q []*joiner, j *joiner) []*joiner {
	if len(q) == cap(q) {
		grown := make([]*joiner, len(q), 2*len(q)+4)
		//lint:ignore S1001 copy would show the race detector the copy
		for i := range q {
			grown[i] = q[i]
		}
		q = grown
	}
	q = q[:len(q)+1]
	q[len(q)-1] = j
	return q
}

//go:norace
func (s *sched) joinSite(j *joiner) string {
	if j.site == "" {
		for _, pc := range j.pcs {
			if pc == 0 {
				break
			}
			if site := s.siteAt(pc); site != "" {
				j.site = shortSite(site)
				break
			}
		}
	}
	return j.site
}

// opJoinName is the Op of a join decision.
const opJoinName = "join"

// admitJoin admits a queued joiner, as a decision of its own, when one is
// due: in a replay at a recorded join (waiting for it), otherwise the
// first queued one the search does not hold back (holdJoin). Once the
// test has returned only a context.AfterFunc function of this schedule's
// (endTestJoins): go test would not wait for a goroutine started then.
// It reports whether it admitted one (the caller decides again).
//
//go:norace
func (s *sched) admitJoin() bool {
	if s.replay != nil && s.diverged == "" && s.steps < len(s.replay.Decisions) {
		d := s.replay.Decisions[s.steps]
		if d.Op != opJoinName {
			return false
		}
		if d.G != len(s.gs) {
			s.diverged = "decision " + strconv.Itoa(s.steps) + ": a goroutine started outside control at " + d.Site + " joins as g" + strconv.Itoa(d.G) + ", but the next goroutine is g" + strconv.Itoa(len(s.gs))
			return false
		}
		j := s.awaitJoiner(d.Site)
		if j == nil {
			s.diverged = "decision " + strconv.Itoa(s.steps) + ": no goroutine started outside control at " + d.Site + " came to join as g" + strconv.Itoa(d.G)
			return false
		}
		s.join(j)
		return true
	}
	for _, j := range s.queuedJoiners() {
		if s.testDone && j.want != s || s.holdJoin(j) {
			continue
		}
		s.join(j)
		return true
	}
	return false
}

// joinReady: is a queued joiner due for admission now (not held back)?
// The scheduler's waits for goroutines outside control end for one.
//
//go:norace
func (s *sched) joinReady() bool {
	if s.replay != nil && s.diverged == "" && s.steps < len(s.replay.Decisions) {
		return false
	}
	for _, j := range s.queuedJoiners() {
		if !(s.testDone && j.want != s) && !s.holdJoin(j) {
			return true
		}
	}
	return false
}

// joinHoldMax bounds how long the search holds a joiner back.
const joinHoldMax = outsideWait

// holdJoin: does the search hold j back for now? A goroutine just started
// may not run before a controlled goroutine outside control (in real I/O,
// a response on its way) comes back, as on a loaded machine: the strategy
// decides once per joiner (never the unperturbed one), and the hold ends
// when a controlled goroutine came back from outside control, none is
// outside any more, the parent is found waiting (for the joiner, maybe)
// rather than in I/O or running, or after joinHoldMax.
//
//go:norace
func (s *sched) holdJoin(j *joiner) bool {
	switch j.hold {
	case 1:
		return false
	case 0:
		j.hold = 1
		if _, plain := s.strat.(Plain); plain || !s.foreignOutside() || s.strat.Choose(2, s.steps) == 0 {
			return false
		}
		j.hold, j.holdAt, j.backs = 2, monoNow(), s.backs
		return true
	}
	if s.backs != j.backs || !s.foreignOutside() || time.Since(j.holdAt) >= joinHoldMax {
		j.hold = 1
		return false
	}
	// A stack dump costs: the first looks, then every eighth.
	j.looks++
	if (j.looks <= 4 || j.looks%8 == 0) && s.blockedGid(j.parent) && !s.lastIO {
		j.hold = 1
		return false
	}
	return true
}

// awaitJoiner waits for a queued joiner started at site (a replay's
// recorded join), as awaitRecorded waits for a goroutine outside control.
//
//go:norace
func (s *sched) awaitJoiner(site string) *joiner {
	w := s.stretchedWait()
	seen := joinSeq
	for {
		for _, j := range s.queuedJoiners() {
			if s.joinSite(j) == site {
				return j
			}
		}
		s.reclaim()
		if w.over(s) {
			return nil
		}
		seen = waitChange(&joinSeq, seen, time.Millisecond)
	}
}

// join admits j as a new controlled goroutine and records the decision.
//
//go:norace
func (s *sched) join(j *joiner) {
	takeJoiner(j)
	c := s.newG()
	c.daemon = j.daemon
	d := Decision{G: c.id, Op: opJoinName}
	if s.needSites() {
		d.Site = s.joinSite(j)
	}
	s.decPCs.add(j.pcs)
	s.spinRun, s.sameRun, s.spinClock = 0, 0, 0
	s.spinEpoch++
	forgetLoads(s.loads)
	s.nowStep, s.spinNow = 0, false
	s.record(d)
	if _, ok := s.strat.(Plain); ok {
		// As the runtime runs a goroutine just started (outside control,
		// it ran at once, in parallel): the unperturbed schedule runs it on.
		s.last = c.id
	}
	s.arrivals++
	c.parkSeq = s.arrivals
	s.running = append(s.running, c)
	j.answer(c)
}

// awaitSlice waits up to outsideSlice for g to arrive and returns its
// arrSeq. When a joiner queues meanwhile and g is found blocked outside
// control (its parent may wait for g, g for the joiner: a handler's
// response), it sets g.outside and returns at once: the joiner need not
// wait out the slice.
//
//go:norace
func (s *sched) awaitSlice(g *gstate) uint32 {
	start := monoNow()
	seenJ := joinSeq
	for {
		left := outsideSlice - time.Since(start)
		if left <= 0 {
			return g.arrSeen
		}
		if v := waitEither(&g.arrSeq, g.arrSeen, &joinSeq, seenJ, left); v != g.arrSeen {
			return v
		}
		if joinSeq != seenJ {
			seenJ = joinSeq
			if s.foundOutside(g) {
				g.outside = true
				return g.arrSeen
			}
		}
	}
}

// waitEither is waitChange on two words: it returns *a when either
// changed, or after limit.
//
//go:norace
func waitEither(a *uint32, av uint32, b *uint32, bv uint32, limit time.Duration) uint32 {
	start := monoNow()
	for i := 0; i < spinRounds; i++ {
		if *a != av || *b != bv {
			return *a
		}
		runtime.Gosched()
	}
	for *a == av && *b == bv {
		left := limit - time.Since(start)
		if left <= 0 {
			break
		}
		if left < 50*time.Microsecond {
			left = 50 * time.Microsecond
		}
		if left > 100*time.Millisecond {
			left = 100 * time.Millisecond // no min: this file compiles as go1.18 (rewrite's minGo)
		}
		sleepSema(left)
	}
	return *a
}
