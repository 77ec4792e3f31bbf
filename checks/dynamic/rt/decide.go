// Decisions: who runs (strategy, replay, fair pick), its effect, its record.

package rt

import (
	"reflect"
	"slices"
	"strconv"
	"unsafe"
)

// decBuf holds the decision buffers between schedules (one schedule runs
// at a time).
var decBuf struct {
	d   chunkLog[Decision]
	pcs chunkLog[[10]uintptr]
}

// decisionRoom is the room made for the decisions of a schedule bound to
// maxSteps steps: the bound and the fair window after the test, the
// default bound's at most (a longer schedule adds chunks to its logs).
// Grown from a thousand by doubling, rill's stream tests (20,000
// decisions) spent a seventh of their CPU copying decisions and faulting
// in the copies. Pages never written are never touched: a short test
// pays nothing.
func decisionRoom(maxSteps int) int {
	if maxSteps > DefaultMaxSteps {
		maxSteps = DefaultMaxSteps
	}
	return maxSteps + postTestSteps
}

// fairPick chooses the goroutine that waited longest since it last ran.
// Whether a goroutine still running after the test returned ever ends is
// a liveness question, judged only on a fair schedule (as CHESS judges
// livelocks): a strategy that starves a goroutine ending on its own (PCT's
// lowest priority behind spinners) would otherwise leave it "running".
// So the postTestSteps decisions after the strategy's are fair.
//
//go:norace
func fairPick(cands []*gstate) *gstate {
	best := cands[0]
	for _, g := range cands[1:] {
		if g.lastPick < best.lastPick {
			best = g
		}
	}
	return best
}

//go:norace
func (s *sched) replayPick(cands []*gstate, list []Candidate) *gstate {
	i := s.steps
	if i >= len(s.replay.Decisions) {
		s.diverged = "decision " + strconv.Itoa(i) + ": the schedule has only " + strconv.Itoa(len(s.replay.Decisions)) + " decisions"
		return nil
	}
	d := s.replay.Decisions[i]
	if d.G < 0 || d.G >= len(s.gs) {
		s.diverged = "decision " + strconv.Itoa(i) + ": expected g" + strconv.Itoa(d.G) + " at " + d.Site + " (" + d.Op + "), g" + strconv.Itoa(d.G) + " does not exist"
		return nil
	}
	g := s.gs[d.G]
	for k, c := range cands {
		if c == g {
			if list[k].Site != d.Site || list[k].Op != d.Op {
				s.diverged = "decision " + strconv.Itoa(i) + ": expected g" + strconv.Itoa(d.G) + " at " + d.Site + " (" + d.Op + "), g" + strconv.Itoa(d.G) + " is at " + list[k].Site + " (" + list[k].Op + ")"
				return nil
			}
			return g
		}
	}
	what := "is not enabled"
	if g.exited {
		what = "has exited"
	} else if g.parked {
		what = "is blocked at " + s.shortSiteOf(g) + " (" + g.req.op.String() + ")"
	}
	s.diverged = "decision " + strconv.Itoa(i) + ": expected g" + strconv.Itoa(d.G) + " at " + d.Site + " (" + d.Op + "), g" + strconv.Itoa(d.G) + " " + what
	return nil
}

// choose picks among n alternatives, following the replayed choice when
// there is one.
//
//go:norace
func (s *sched) choose(n int, recorded func(Decision) *int) int {
	if n >= 2 {
		s.choices++
	}
	if s.replay != nil && s.diverged == "" && s.steps < len(s.replay.Decisions) {
		if p := recorded(s.replay.Decisions[s.steps]); p != nil && *p >= 0 && *p < n {
			return *p
		}
		s.diverged = "decision " + strconv.Itoa(s.steps) + ": recorded choice is not available"
	}
	if s.fairPhase() {
		return s.fairChoice(n)
	}
	return s.strat.Choose(n, s.steps)
}

// resyncKey is a goroutine's selects at one site.
type resyncKey struct {
	g    int
	site string
}

// resyncChoice: in a replay with Schedule.Leave that left its recorded
// decisions, the index in ready of the case goroutine g took on its
// same-numbered select at site in Schedule.Resync, when that case is
// ready. Every select of the replay is counted, before the divergence
// too.
//
//go:norace
func (s *sched) resyncChoice(g int, site string, ready []int) (int, bool) {
	if s.replay == nil || !s.replay.Leave || len(s.replay.Resync) == 0 {
		return 0, false
	}
	if s.resyncRec == nil {
		s.resyncRec, s.resyncSeen = map[resyncKey][]int{}, map[resyncKey]int{}
		for _, d := range s.replay.Resync {
			if d.Op == opSelect.String() && d.Choice != nil {
				k := resyncKey{d.G, d.Site}
				s.resyncRec[k] = append(s.resyncRec[k], *d.Choice)
			}
		}
	}
	k := resyncKey{g, site}
	n := s.resyncSeen[k]
	s.resyncSeen[k] = n + 1
	if s.diverged == "" || n >= len(s.resyncRec[k]) || s.fairPhase() {
		return 0, false
	}
	for i, c := range ready {
		if c == s.resyncRec[k][n] {
			return i, true
		}
	}
	return 0, false
}

// fairPhase: the test has returned and the strategy's postTestSteps
// decisions are over; what runs now is chosen fairly (fairPick).
//
//go:norace
func (s *sched) fairPhase() bool { return s.testDone && s.postSteps > postTestSteps }

// fairChoice picks one of n alternatives (select cases, waiters) at
// random, from a generator seeded by the schedule's seed, as the Go
// runtime picks among ready select cases. The strategy's choice may be
// the same every time (the unperturbed schedule takes the first ready
// case), and a loop that drains two closed channels in one select would
// never end: a goroutine that ends on its own would be a leak.
//
//go:norace
func (s *sched) fairChoice(n int) int {
	if s.fairRand == 0 {
		s.fairRand = uint64(s.seed)*0x9e3779b97f4a7c15 | 1
	}
	// xorshift64
	s.fairRand ^= s.fairRand << 13
	s.fairRand ^= s.fairRand >> 7
	s.fairRand ^= s.fairRand << 17
	return int(s.fairRand % uint64(n))
}

// decide lets g perform its operation, updating the shadow state, and
// records the decision.
//
//go:norace
func (s *sched) decide(g *gstate) {
	d := Decision{G: g.id, Op: g.req.op.String(), Obj: s.objOf(&g.req), Early: s.earlyDue, Paced: int64(s.pacedTo), Solo: s.soloNext, NowOutside: g.req.nowOutside}
	s.earlyDue, s.pacedTo = false, 0
	if s.testDone && !s.doneMarked && !s.replayBeforeDone() {
		d.Done, s.doneMarked = true, true
	}
	if s.needSites() {
		d.Site = s.shortSiteOf(g)
	}
	s.decPCs.add(g.req.pcs)
	rep := reply{mode: mRun}
	release := true
	var joined *gstate // the partner of a hand-off
	r := &g.req
	switch r.op {
	case opGo:
		c := s.newG()
		startGo(g, c)
		rep.child = c
		s.running = append(s.running, c)
	case opRun:
		if sub, ok := s.startRun(g, r.name, &rep); ok {
			c := s.newG()
			c.parent, c.sub = g, sub
			rep.child = c
			s.running = append(s.running, c)
		}
	case opLock, opUnlock, opTryLock, opWLock, opWUnlock, opTryWLock, opRLock, opRUnlock, opTryRLock:
		release = s.applyLock(g, r.op, r.obj, &rep)
	case opLockerLock, opLockerUnlock:
		op, p := lockerKind(r.locker)
		if op != opNone {
			if r.op == opLockerUnlock {
				op = unlockOf(op)
			}
			release = s.applyLock(g, op, p, &rep)
		}
	case opWGAdd:
		c := s.wg(r.obj)
		before := *c
		*c += r.delta
		if before > 0 && *c == 0 {
			s.releaseWaiters(r.obj)
		}
	case opWGWait:
		if g.wgReleased {
			// Released by a zero the count has left since: the
			// runtime's waiter wakes to a reused WaitGroup.
			g.wgReleased = false
			rep.ok = *s.wg(r.obj) != 0
		}
	case opOnce:
		o := s.once(r.obj)
		if o.state == 0 {
			o.state, o.runner = 1, g.id
			rep.ok = true
		}
	case opOnceDone:
		o := s.once(r.obj)
		o.state = 2
	case opGC:
		s.collectGarbage()
	case opBubbleEnd:
		s.bubbleWaiter = nil
	case opSyncWait:
		for _, o := range s.gs {
			if o != g && o.parked && !o.exited {
				o.settled = true
			}
		}
	case opCondWait:
		c := s.cond(r.obj)
		c.waiters = append(c.waiters, g)
		g.signal = false
		if op, p := lockerKind(r.locker); op != opNone {
			s.applyLock(g, unlockOf(op), p, &rep)
		}
	case opCondPark:
		g.signal = false
	case opSignal:
		c := s.cond(r.obj)
		w := -1
		if len(c.waiters) > 0 {
			k := s.choose(len(c.waiters), waiterIdx(c.waiters))
			h := c.waiters[k]
			c.waiters = append(c.waiters[:k:k], c.waiters[k+1:]...)
			h.signal = true
			w = h.id
		}
		d.Choice = &w
	case opBroadcast:
		c := s.cond(r.obj)
		for _, h := range c.waiters {
			h.signal = true
		}
		c.waiters = nil
	case opClose:
		if r.obj != nil {
			s.closeCommits(r.obj)
			s.chanOf(r.obj).closed = true
		}
	case opSend, opRecv:
		if r.op == opRecv && len(s.staleTimers) > 0 {
			s.staleRecv(r.obj, false)
		}
		s.completes(r.obj, r.rv, r.op == opSend, false, s.now, s.decidedPartner())
		if p := s.pairFor(g, r.obj, r.rv, r.op == opSend, &d); p != nil {
			s.running = append(s.running, p)
			joined = p
		}
	case opSelect:
		var ready []int
		if g.commit != 0 {
			if s.committedReady(g) {
				ready = append(ready, g.commit-1)
			}
		} else {
			for i, c := range r.cases {
				if s.chanReady(g, c.ptr, c.rv, c.send) {
					ready = append(ready, i)
				}
			}
		}
		if len(ready) > 0 && r.hasDefault && s.lateOnly(g, r.cases, ready) {
			// Every ready case waits for a partner that may not have
			// reached its operation yet: default is a choice too.
			ready = append(ready, -1)
		}
		k := -1
		if p, ok := s.resyncChoice(g.id, d.Site, ready); ok {
			if len(ready) >= 2 {
				s.choices++
			}
			k = ready[p]
		} else if len(ready) > 0 {
			k = ready[s.choose(len(ready), choiceOf2(ready))]
			k = s.unstarve(g, r, ready, k)
		}
		rep.choice = k
		d.Choice = &k
		if len(ready) > 1 && k != ready[0] {
			first := ready[0]
			d.First = &first
		}
		if k < 0 && hasRecv(r.cases) {
			// Default, unless a receive is ready for a reason the
			// shadow cannot see (a send or close outside control).
			rep.mode = mPollDefault
		}
		if k >= 0 {
			c := r.cases[k]
			if !c.send && len(s.staleTimers) > 0 {
				s.staleRecv(c.ptr, r.hasDefault && len(r.cases) == 1)
			}
			s.completes(c.ptr, c.rv, c.send, false, s.now, s.decidedPartner())
			if p := s.pairFor(g, c.ptr, c.rv, c.send, &d); p != nil {
				s.running = append(s.running, p)
				// A buffered send (handOff) has room: no adapter.
				rep.adapter = c.rv.Cap() == 0
				joined = p
			}
		}
	case opTimerNew, opTimerStop, opTimerReset, opTickerStop, opTickerReset:
		s.applyTimer(g, &rep)
	}
	if g.cbOf != nil && !idleOp(r.op) {
		g.cbOf = nil
	}
	if s.spinning(r, rep) {
		s.spinRun++
		s.spinCount++
		if r.op == opNow || r.readNow {
			s.spinNow = true
		}
		if s.freshLoad(g.id, r) {
			s.sameRun = 0
		} else {
			s.sameRun++
		}
	} else if g.cbOf == nil {
		s.bubbleProgress(g)
		s.spinRun = 0
		s.sameRun = 0
		s.spinClock = 0
		s.spinEpoch++
		forgetLoads(s.loads)
		s.nowStep = 0
		s.spinNow = false
	}
	s.record(d)
	s.last = g.id
	if _, ok := s.strat.(Plain); ok && joined != nil && joined.parkSeq > g.parkSeq {
		// Of the two sides of a hand-off, the runtime runs on the one
		// that came second (it finds the other parked and wakes it):
		// so does the unperturbed schedule.
		s.last = joined.id
	}
	if release || joined != nil || rep.child != nil {
		// The one that runs on reaches its next operation first, the
		// other party (a partner woken, a goroutine started) after it,
		// as on one processor: the order of hand-offs above does not
		// depend on which of the two the OS ran sooner.
		s.arrivals++
		s.gs[s.last].parkSeq = s.arrivals
		other := joined
		if s.last != g.id {
			other = g
		}
		if other == nil {
			other = rep.child
		}
		if other != nil {
			s.arrivals++
			other.parkSeq = s.arrivals
		}
	}
	if !release {
		return
	}
	s.unpark(g)
	g.rep = rep
	if d.Solo {
		g.soloLeft, g.soloDec = soloRun, s.steps-1 // d, recorded
		if s.replay != nil && g.soloDec < len(s.replay.Decisions) && s.replay.Decisions[g.soloDec].SoloRun > 0 {
			g.soloLeft = s.replay.Decisions[g.soloDec].SoloRun
			s.decisions.at(g.soloDec).SoloRun = g.soloLeft // kept for a schedule made from this run
		}
	}
	s.running = append(s.running, g)
	if joined == nil {
		g.wake()
		return
	}
	// The two parties of a hand-off complete the channel operation
	// together, then go on one after the other, the one that runs on
	// first: code between their points that the rewriter does not see (a
	// context's Err and its cancel) must not run in an order the
	// decisions do not fix. The second goes on when the first arrives or
	// is found blocked outside control (collect).
	n := len(s.running)
	second := joined
	if s.last == g.id {
		s.running[n-2], s.running[n-1] = g, joined
	} else {
		second = g
	}
	second.held = true
	second.rep.gate = true
	joined.wake()
	g.wake()
}

// traceBuf holds the trace line record writes, reused (a line built of
// strings allocated at each decision of a traced run, which replays are).
var traceBuf []byte

// record appends a decision; with Config.Trace it is also written at once
// to standard error as "interleave: decision <n> <json>", so that the
// decisions of a run that crashes the process can still be replayed.
//
//go:norace
func (s *sched) record(d Decision) {
	if s.realMoved {
		d.Clock = int64(s.now)
		s.realMoved = false
	} else if s.replay != nil && s.diverged == "" && s.steps < len(s.replay.Decisions) {
		d.Clock = s.replay.Decisions[s.steps].Clock // kept for a schedule made from this run
	}
	s.decisions.add(d)
	if s.cfg.Trace {
		d = s.sitedDecision(s.decisions.len() - 1)
		b := append(traceBuf[:0], MarkerDecision...)
		b = strconv.AppendInt(b, int64(s.steps), 10)
		b = append(b, ` {"g":`...)
		b = strconv.AppendInt(b, int64(d.G), 10)
		if d.Site != "" {
			b = strconv.AppendQuote(append(b, `,"site":`...), d.Site)
		}
		b = strconv.AppendQuote(append(b, `,"op":`...), d.Op)
		if d.Choice != nil {
			b = strconv.AppendInt(append(b, `,"choice":`...), int64(*d.Choice), 10)
		}
		if d.First != nil {
			b = strconv.AppendInt(append(b, `,"first":`...), int64(*d.First), 10)
		}
		if d.Partner != nil {
			b = strconv.AppendInt(append(b, `,"partner":`...), int64(*d.Partner), 10)
		}
		if d.Obj != 0 {
			b = strconv.AppendInt(append(b, `,"obj":`...), int64(d.Obj), 10)
		}
		if d.Early {
			b = append(b, `,"early":true`...)
		}
		if d.Clock != 0 {
			b = strconv.AppendInt(append(b, `,"clock":`...), d.Clock, 10)
		}
		if d.Paced != 0 {
			b = strconv.AppendInt(append(b, `,"paced":`...), d.Paced, 10)
		}
		if d.Solo {
			b = append(b, `,"solo":true`...)
		}
		if d.NowOutside {
			b = append(b, `,"nowOutside":true`...)
		}
		traceBuf = append(b, "}\n"...)
		rawStderrBytes(traceBuf)
	}
	s.steps++
}

// objOf numbers the object of a request in the order the run first met
// it (Decision.Obj); 0 when the request has none.
//
//go:norace
func (s *sched) objOf(r *request) int {
	p := r.obj
	if r.op == opLockerLock || r.op == opLockerUnlock || (p == nil && r.locker != nil) {
		_, p = lockerKind(r.locker)
	}
	if p == nil {
		return 0
	}
	if s.objs.strong == nil {
		s.objs = makeShadowMap[int](0)
	}
	n, ok := s.objs.get(p)
	if !ok {
		s.objN++
		n = s.objN
		s.objs.set(p, n)
	}
	return n
}

// MarkerDecision starts a traced decision line (Config.Trace).
const MarkerDecision = "interleave: decision "

// lateOnly: are the ready cases of g's select ready only through a hand-off
// with goroutines parked at the current virtual time? Each may be at its
// operation's scheduling point, not yet in the channel's queue (one parked
// at an earlier time is: it blocked there, see pairFor).
//
//go:norace
func (s *sched) lateOnly(g *gstate, cs []caseReq, ready []int) bool {
	for _, i := range ready {
		c := cs[i]
		if s.chanOf(c.ptr).closed || closedForReal(c.ptr) || waiterForReal(c.ptr, c.send) {
			return false
		}
		if _, k := lenCap(c.ptr, c.rv); k > 0 {
			return false
		}
		ps := s.partners(g, c.ptr, c.send)
		if len(ps) == 0 {
			return false
		}
		for _, h := range ps {
			if h.parkAt < s.now || h.settled {
				return false
			}
		}
	}
	return true
}

// choiceOf2 maps a recorded select case index back to its position in
// ready.
func choiceOf2(ready []int) func(Decision) *int {
	return func(d Decision) *int {
		if d.Choice == nil {
			return nil
		}
		for i, k := range ready {
			if k == *d.Choice {
				return &i
			}
		}
		bad := -1
		return &bad
	}
}

// pairFor releases the partner of an unbuffered operation, if one is
// needed, and returns it.
//
//go:norace
func (s *sched) pairFor(g *gstate, p unsafe.Pointer, rv reflect.Value, send bool, d *Decision) *gstate {
	if p == nil {
		return nil
	}
	c := s.chanOf(p)
	if c.closed {
		return nil
	}
	if rv.Cap() > 0 {
		return s.handOff(g, p, rv, send, d)
	}
	ps := s.partners(g, p, send)
	if len(ps) == 0 {
		return nil
	}
	// The runtime pairs the waiter that queued first: one parked at an
	// earlier virtual time blocked there first. Those parked at the same
	// time may have queued in either order (a replay may pick any).
	n := 1
	for n < len(ps) && ps[n].parkAt == ps[0].parkAt {
		n++
	}
	if s.replay != nil {
		n = len(ps)
	}
	h := ps[s.choose(n, partnerIdx(ps[:n]))]
	id := h.id
	d.Partner = &id
	prep := reply{mode: mRun}
	if k := caseFor(h, p, !send); k >= 0 {
		prep.choice = k
		prep.adapter = true
	}
	s.unpark(h)
	h.rep = prep // decide wakes it
	return h
}

// handOff releases the partner a buffered operation completes with, as
// in the runtime, where the operation finds it in the channel's queue: a
// send to an empty buffer hands its value to the receiver blocked there
// first (it never enters the buffer: while receivers wait the buffer is
// empty), a receive from a full buffer gives the freed slot to the sender
// blocked there first. Left parked, the partner's part waited for later
// operations to overtake: two jobs sent to two blocked workers filled a
// queue of two and a third send found it full (reugn/async's
// TestExecutor), and a slot freed in a channel semaphore went to whichever
// of the blocked senders ran next, not the first queued (go-pkgz/syncs'
// TestErrorSizedGroup_TermOnErr). The receiver waits in the queue for
// certain only when it parked at an earlier virtual time (or is settled),
// as completes judges; the senders queue in the order they parked, those
// parked at the same virtual time in either order (the search picks, the
// unperturbed schedule takes the first, as pairFor).
//
//go:norace
func (s *sched) handOff(g *gstate, p unsafe.Pointer, rv reflect.Value, send bool, d *Decision) *gstate {
	if closedForReal(p) {
		return nil
	}
	n, k := lenCap(p, rv)
	partner := s.decidedPartner()
	var h *gstate
	switch {
	case send && n == 0:
		for _, o := range s.blocked {
			if caseFor(o, p, false) < -1 || s.enabled(o) || !queued(o, false, s.now, partner) {
				continue
			}
			if h == nil || o.parkAt < h.parkAt || o.parkAt == h.parkAt && o.parkSeq < h.parkSeq {
				h = o
			}
		}
	case !send && n == k:
		ps := s.partners(g, p, false)
		ps = slices.DeleteFunc(ps, func(o *gstate) bool { return s.enabled(o) })
		if len(ps) == 0 || partner == -1 {
			return nil // in a replay: none was parked there in its recording
		}
		m := 1
		for m < len(ps) && ps[m].parkAt == ps[0].parkAt {
			m++
		}
		if s.replay != nil {
			m = len(ps)
		}
		h = ps[s.choose(m, partnerIdx(ps[:m]))]
	}
	if h == nil {
		return nil
	}
	id := h.id
	d.Partner = &id
	prep := reply{mode: mRun}
	if c := caseFor(h, p, !send); c >= 0 {
		prep.choice = c
		prep.adapter = true // then it waits at pass, as pairFor's partner
	}
	s.unpark(h)
	h.rep = prep
	return h
}

// waiterIdx maps a Signal's recorded choice, the goroutine it woke, back
// to its place among the waiters (read as an index, a replay woke another
// waiter or none and left the schedule).
func waiterIdx(ws []*gstate) func(Decision) *int {
	return func(d Decision) *int {
		if d.Choice == nil {
			return nil
		}
		for i, h := range ws {
			if h.id == *d.Choice {
				return &i
			}
		}
		bad := -1
		return &bad
	}
}

func partnerIdx(ps []*gstate) func(Decision) *int {
	return func(d Decision) *int {
		if d.Partner == nil {
			return nil
		}
		for i, h := range ps {
			if h.id == *d.Partner {
				return &i
			}
		}
		bad := -1
		return &bad
	}
}
