// Foreign parties: probing their channels, blocking for real, pacing the clock.

package rt

import (
	"bytes"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// poll lets goroutines blocked on channels try their operation without
// blocking, in case a partner outside the scheduler's view (a goroutine or
// a close in uninstrumented code) can complete it, over about 55ms of wall
// time. It reports progress (a goroutine outside control came back, one
// started outside control is due to join, meanwhile).
//
//go:norace
func (s *sched) poll() bool {
	delay := 50 * time.Microsecond
	for round := 0; round < 7; round++ {
		if s.probe(true) || s.reclaim() || s.joinReady() {
			return true
		}
		nap(delay)
		delay *= 3
	}
	return false
}

// probe is one round of poll: every goroutine blocked on channels tries
// once. It reports progress (or, when idle, that one of them is ready by
// now).
//
//go:norace
func (s *sched) probe(idle bool) bool {
	if s.takeOutsideSignals() {
		return true // a Cond's waiter woken outside control
	}
	for _, g := range s.gs {
		if !g.parked || g.exited || !(g.req.op == opRecv || g.req.op == opSend || (g.req.op == opSelect && len(g.req.cases) > 0)) {
			continue
		}
		if s.enabled(g) {
			if idle {
				return true // became ready meanwhile (closed outside control)
			}
			continue
		}
		s.unpark(g)
		s.sendAndWait(g, mPoll)
		if g.req.op == opExit || !g.req.pollFailed {
			s.arrived(g)
			return true
		}
		s.park(g)
	}
	return false
}

// settle gives channels fed outside control a chance before the clock
// moves or a deadlock is declared: while a goroutine waits on a channel and
// a goroutine the scheduler does not control is running or runnable (a
// dependency's goroutine that has just been started, the standard
// library's), the waiting goroutines are probed again, for up to
// settleWait. It reports progress.
//
//go:norace
func (s *sched) settle() bool {
	waiting := false
	for _, g := range s.gs {
		if g.parked && !g.exited && (g.req.op == opRecv || g.req.op == opSend || g.req.op == opSelect) {
			waiting = true
			break
		}
	}
	if !waiting {
		return false
	}
	// As in paceForeign: while the number of goroutines stays what it
	// was when none outside control was busy, only every quietEvery-th
	// call looks at a dump.
	n := runtime.NumGoroutine()
	if n == s.settleN && s.settleSkips < quietEvery {
		s.settleSkips++
		return s.probe(true)
	}
	s.settleN, s.settleSkips = -1, 0
	start := monoNow()
	pause := 10 * time.Microsecond
	for first := true; ; first = false {
		if s.probe(true) {
			return true
		}
		if time.Since(start) >= settleWait {
			return false
		}
		if !s.foreignBusy() {
			if first {
				s.settleN = n
			}
			// Quiet now: one last probe sees what it did meanwhile.
			return s.probe(true)
		}
		nap(pause)
		if pause < time.Millisecond {
			pause *= 2
		}
	}
}

// blockForReal releases the goroutines blocked on a channel operation the
// shadow cannot complete to perform it for real, blocking, while a
// goroutine outside control may be their partner: a partner that only
// polls (a select with default run by testify's Eventually on its own
// goroutine) never finds a controlled goroutine waiting in the
// scheduler. They wait outside control until the operation completes
// (they come back at their next scheduling point) or recallBlocked takes
// them back. It reports whether it released any.
//
//go:norace
func (s *sched) blockForReal() bool {
	any := false
	// In the order they parked: the channels queue them as they block.
	gs := s.partBuf[:0]
	for _, g := range s.gs {
		if !g.parked || g.exited || !realBlockable(&g.req) || s.enabled(g) {
			continue
		}
		gs = append(gs, g)
		for i := len(gs) - 1; i > 0 && gs[i].parkAt < gs[i-1].parkAt; i-- {
			gs[i], gs[i-1] = gs[i-1], gs[i]
		}
	}
	s.partBuf = gs[:0]
	for _, g := range gs {
		g.wasReal, g.realOp, g.realAt = true, g.req.op, pcsHash(&g.req.pcs)
		s.unpark(g)
		g.blockedReal = true
		g.recall = make(chan struct{})
		g.rep = reply{mode: mBlock, recall: g.recall}
		g.outside = true
		g.outsideAt = monoNow()
		s.outside = append(s.outside, g)
		g.wake()
		any = true
		// Queued before the next is released (briefly: the order is
		// kept when it blocks at once, as it should).
		for i := 0; i < 20 && !s.blockedOutside(g); i++ {
			nap(50 * time.Microsecond)
		}
	}
	return any
}

// realBlockable: can the pending operation be performed for real,
// blocking (a send or receive on a channel, a select of receives)?
func realBlockable(r *request) bool {
	switch r.op {
	case opSend, opRecv:
		return r.obj != nil
	case opSelect:
		return !r.hasDefault && hasRecv(r.cases) && !hasSend(r.cases)
	}
	return false
}

// recallBlocked takes back the goroutines blockForReal released: they
// come back parked at the same operation, or past it when it completed
// meanwhile. It reports whether there were any.
//
//go:norace
func (s *sched) recallBlocked() bool {
	var back []*gstate
	for _, g := range s.outside {
		if g.blockedReal {
			ch := g.recall
			s.viaHelper(func() { close(ch) })
			g.blockedReal, g.recall = false, nil
			back = append(back, g)
		}
	}
	if len(back) == 0 {
		return false
	}
	keep := s.outside[:0]
	for _, g := range s.outside {
		recalled := false
		for _, h := range back {
			recalled = recalled || h == g
		}
		if !recalled {
			keep = append(keep, g)
			continue
		}
		if v := waitChange(&g.arrSeq, g.arrSeen, outsideSlice); v != g.arrSeen {
			g.arrSeen = v
			g.outside = false
			s.progress++
			s.arrived(g)
			continue
		}
		keep = append(keep, g) // it went on and is outside control now
	}
	s.outside = keep
	return true
}

// settleWait bounds settle.
const settleWait = 100 * time.Millisecond

// paceForeign runs before the clock jumps to the next timer with nothing
// controlled able to run. While a goroutine the scheduler does not
// control (one a dependency started: a server starting up, a client's
// read loop) is running or in a system call, the clock moves no faster
// than real time: it waits as long as the jump (up to outsideWait) or
// until they are all blocked. While some are only in network I/O, which
// may be a message in flight, it waits up to ioGrace. Without it a
// readiness poll (sleep 25ms, check, 400 times) ran out of virtual time
// before the server it waited for had opened its listener. It reports
// whether a channel became ready meanwhile (the caller decides again).
//
//go:norace
func (s *sched) paceForeign() bool {
	next, ok := s.nextDeadline()
	if !ok || next <= s.now {
		return false
	}
	d := next - s.now
	start := monoNow()
	// A goroutine outside control sleeping for real until before the
	// jump's end holds it too: it wakes to do its part (a pool's worker
	// that errgroup started sleeps 10ms while the test waits 2s for it),
	// up to the watchdog's limit, past outsideWait, while a controlled
	// goroutine waits on the outside world (a request in flight):
	// httprc v3.0.6's handler slept 2 s before answering one, and its
	// test's 5 s deadline fired after one. Once it woke, the caller
	// decides again: its answer may bring a goroutine back. Not for
	// sleepers alone: gocron's jobs left from earlier schedules, each
	// sleeping seconds, held every jump of later ones.
	held := d
	if limit := s.stepLimit(); held > limit {
		held = limit
	}
	long := d > outsideWait && s.awaitsWorld() && foreignWakes(start.Add(held))
	switch {
	case long:
		d = held
	case d > outsideWait:
		d = outsideWait
	}
	sleeper := foreignWakes(start.Add(d))
	// A stack dump per jump is costly: as long as the number of
	// goroutines stays what it was when none was active, only every
	// quietEvery-th jump looks.
	n := runtime.NumGoroutine()
	if !sleeper && n == s.quietN && s.quietSkips < quietEvery {
		s.quietSkips++
		return false
	}
	s.quietN, s.quietSkips = -1, 0
	if beforePaceLook != nil {
		beforePaceLook()
	}
	pause := 50 * time.Microsecond
	waited := false
	for {
		busy, io := s.foreignActive()
		asleep := foreignWakes(start.Add(d))
		if long && !asleep {
			return true
		}
		busy = busy || asleep
		if !busy && !io {
			if !waited {
				s.quietN = n
			}
			break
		}
		limit := d
		if !busy && limit > ioGrace {
			limit = ioGrace
		}
		left := limit - time.Since(start)
		if left <= 0 {
			break
		}
		if pause > left {
			pause = left
		}
		nap(pause)
		waited = true
		if pause < 5*time.Millisecond {
			pause *= 2
		}
	}
	// Also when the first look found them quiet: they may have done their
	// part and ended since settle's probe (on a loaded machine the
	// scheduler can be descheduled longer than a worker's 10ms sleep).
	return s.probe(true)
}

// awaitsWorld: does a controlled goroutine wait outside control on the
// outside world (outsideWorld)?
//
//go:norace
func (s *sched) awaitsWorld() bool {
	for _, g := range s.outside {
		if outsideWorld(g) {
			return true
		}
	}
	return false
}

// beforePaceLook, when set (by tests), runs before paceForeign's first
// look at the goroutines outside control.
var beforePaceLook func()

// foreignSleeps holds, per slot (a goroutine id modulo its length), the
// real time in Unix nanoseconds at which a goroutine outside control that
// sleeps through the rewritten Sleep during a schedule wakes (0: none).
// Plain words in norace code, as the hand-offs: no synchronization the
// race detector would see between that goroutine and the scheduler. Two
// sleepers sharing a slot only make a wait shorter or longer.
var foreignSleeps [64]int64

// foreignSleep sleeps d for real, as a goroutine outside control does (a
// worker errgroup started), saying when it wakes (foreignSleeps): the
// clock does not jump past that wake while it sleeps (paceForeign).
//
//go:norace
func foreignSleep(d time.Duration) {
	slot := &foreignSleeps[goid()%uint64(len(foreignSleeps))]
	wake := monoNow().Add(d).UnixNano()
	*slot = wake
	time.Sleep(d)
	if *slot == wake {
		*slot = 0
	}
}

// foreignWakes: does a goroutine outside control sleep for real
// (foreignSleep) until before end?
//
//go:norace
func foreignWakes(end time.Time) bool {
	now, e := monoNow().UnixNano(), end.UnixNano()
	for i := range foreignSleeps {
		// A wake long past is a sleeper that never cleared its slot.
		if w := foreignSleeps[i]; w != 0 && w <= e && w > now-int64(outsideWait) {
			return true
		}
	}
	return false
}

// quietEvery: see paceForeign.
const quietEvery = 16

// settleDumps counts the stack dumps settle took (foreignBusy), for tests.
var settleDumps int

// foreignWorkWaits counts the step limits that ran out while a goroutine
// blocked outside control and goroutines outside control computed: the
// watchdog waited on (next), for tests.
var foreignWorkWaits int

// ioGrace is how long paceForeign waits for goroutines outside control
// that are only in network I/O.
const ioGrace = 20 * time.Millisecond

// childWaits counts the step limits that ran out while a goroutine outside
// control waited for a child process (waitingForChild), for tests.
var childWaits int

// waitingForChild: is a controlled goroutine outside control in the system
// call that waits for a child process to exit (os/exec's Run and Wait,
// os.Process.Wait)? The child works outside the program (go.uber.org/atomic's
// TestNocmpIntegration runs `go build` with a fresh cache: 130 s), so the
// wait is progress, not a hang, as foreign goroutines computing are.
//
//go:norace
func (s *sched) waitingForChild() bool {
	dump := dumpBuf[:runtime.Stack(dumpBuf, true)]
	for len(dump) > 0 {
		var block []byte
		block, dump = cutBlock(dump)
		id, state, ok := blockHeader(block)
		if !ok || string(state) != "syscall" || !bytes.Contains(block, childWaitFrame) {
			continue
		}
		for _, g := range s.outside {
			if g.gid == id {
				return true
			}
		}
	}
	return false
}

// childWaitFrame begins the frame of os.Process's wait in a stack dump.
var childWaitFrame = []byte("\nos.(*Process).wait(")

// foreignActive: is a goroutine other than the scheduler and the
// controlled ones running, runnable or in a system call (busy), or in
// network I/O (io)? A goroutine waiting for signals (os/signal's loop,
// in a system call for good) is neither.
//
//go:norace
func (s *sched) foreignActive() (busy, io bool) {
	return s.foreignActiveIn(dumpBuf[:runtime.Stack(dumpBuf, true)])
}

// foreignActiveIn is foreignActive read from dump, a stack dump of every
// goroutine.
//
//go:norace
func (s *sched) foreignActiveIn(dump []byte) (busy, io bool) {
	if s.sgid == 0 {
		s.sgid = goid()
	}
	for len(dump) > 0 {
		var block []byte
		block, dump = cutBlock(dump)
		id, state, ok := blockHeader(block)
		if !ok {
			continue
		}
		isIO := string(state) == "IO wait"
		if !isIO && string(state) != "running" && string(state) != "runnable" &&
			(string(state) != "syscall" || bytes.Contains(block, []byte("signal_recv"))) {
			continue // blocked, or waiting for signals for good
		}
		if id == s.sgid || s.tab.lookup(id) != nil || s.exitedG(id) {
			continue
		}
		if !isIO {
			return true, io
		}
		io = true
	}
	return false, io
}

// exitedG: is id the runtime goroutine of a controlled goroutine that has
// ended (it may still be finishing)?
//
//go:norace
func (s *sched) exitedG(id uint64) bool {
	for _, g := range s.gs {
		if g.gid == id && g.exited {
			return true
		}
	}
	return false
}

// foreignBusy reports whether a goroutine other than the scheduler and
// the controlled ones is running or runnable.
//
//go:norace
func (s *sched) foreignBusy() bool {
	if s.sgid == 0 {
		s.sgid = goid()
	}
	settleDumps++
	// dumpBuf, not a megabyte made per call: settle runs at every jump
	// of the clock while a goroutine waits on a channel (a ticker loop
	// after its test returned: thousands).
	dump := string(dumpBuf[:runtime.Stack(dumpBuf, true)])
	for len(dump) > 0 {
		line := dump
		if i := strings.IndexByte(dump, '\n'); i >= 0 {
			line, dump = dump[:i], dump[i+1:]
		} else {
			dump = ""
		}
		rest, ok := strings.CutPrefix(line, "goroutine ")
		if !ok {
			continue
		}
		sp := strings.IndexByte(rest, ' ')
		if sp < 0 {
			continue
		}
		id, err := strconv.ParseUint(rest[:sp], 10, 64)
		if err != nil || id == s.sgid || s.tab.lookup(id) != nil {
			continue
		}
		if strings.HasPrefix(rest[sp:], " [running") || strings.HasPrefix(rest[sp:], " [runnable") {
			return true
		}
	}
	return false
}
