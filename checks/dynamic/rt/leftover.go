package rt

// Goroutines an ended schedule left behind: kept parked in the process
// when they cannot get in the next schedule's way, else a fresh process.

import (
	"hash/fnv"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"
)

// heldOutside counts the program's locks (rewritten sync calls) taken
// minus released by goroutines outside control: not zero, a leftover may
// hold one that the next schedule's shadow would take for free.
var heldOutside int64

// leftHeld holds the program's locks that goroutines of this process's
// earlier schedules still held when their schedule unwound them (no
// deferred Unlock ran): the real lock stays taken for good. A later
// schedule whose goroutine is about to take one ends inconclusive
// (LeftHeldPrefix) and the process with it (processEnds; settle): its
// Lock would block for real, outside control (VictoriaMetrics'
// summariesSwapCron, unwound holding summariesLock, hung or timed out
// every later schedule that registered a summary). Locks nobody takes
// again (a deadlock's, the test's own) cost nothing. Only the goroutine
// that runs schedules, one at a time, touches leftHeld.
var (
	leftHeld    map[unsafe.Pointer]bool
	processEnds int64 // set: the process ends after this schedule (also for goneDaemonAt)
)

// LeftHeldPrefix begins the Inconclusive of a schedule that met a lock an
// earlier schedule of its process left held.
const LeftHeldPrefix = "a lock an earlier schedule in this process left held, taken "

// noteLeftHeld adds the locks the ending schedule leaves held to leftHeld.
//
//go:norace
func (s *sched) noteLeftHeld() {
	s.mutexes.each(func(p unsafe.Pointer, m *mutexState) {
		if m.owner >= 0 {
			s.addLeftHeld(p)
		}
	})
	s.rws.each(func(p unsafe.Pointer, m *rwState) {
		if m.writer >= 0 || m.readers > 0 {
			s.addLeftHeld(p)
		}
	})
}

//go:norace
func (s *sched) addLeftHeld(p unsafe.Pointer) {
	if leftHeld == nil {
		leftHeld = map[unsafe.Pointer]bool{}
	}
	leftHeld[p] = true
}

// locksLeftHeld: is g about to take (or try) a lock in leftHeld?
//
//go:norace
func (s *sched) locksLeftHeld(g *gstate) bool {
	if len(leftHeld) == 0 {
		return false
	}
	r := &g.req
	switch r.op {
	case opLock, opTryLock, opWLock, opTryWLock, opRLock, opTryRLock:
		return leftHeld[r.obj]
	case opLockerLock:
		if op, p := lockerKind(r.locker); op != opNone {
			return leftHeld[p]
		}
	}
	return false
}

// daemonSends and daemonRecvs are the channels that daemons (gstate.daemon:
// started by a package-level Once's function) received from or sent on in
// a schedule of this process that unwound them: their Once is done, so no
// later schedule starts them again, and a request to the daemon
// (nxadm/tail's inotify tracker) would find no receiver. A later schedule
// whose goroutine comes to such a channel's other end (goneDaemonAt) and
// fails ends inconclusive instead (DaemonGonePrefix), and the process with
// it, as for leftHeld: the next schedule runs in a fresh process, where
// the Once starts its daemon again. One that passes stays a pass (a log
// queue's daemon nobody waits for). Only the goroutine that runs
// schedules, one at a time, touches them.
var daemonSends, daemonRecvs map[unsafe.Pointer]bool

// DaemonGonePrefix begins the Inconclusive of a schedule that failed after
// it came to a channel a daemon an earlier schedule in this process
// unwound served.
const DaemonGonePrefix = "failed after it came to a channel a daemon served until an earlier schedule in this process ended (its package-level Once will not start it again), "

// noteDaemonEnds adds the channel ends of g's request to its own list
// (gstate.daemonEnds) when g is a daemon; else it notes in s the first
// site at which g comes to the other end of one an unwound daemon served.
//
//go:norace
func (s *sched) noteDaemonEnds(g *gstate) {
	if g.daemon {
		if len(g.daemonEnds) >= maxDaemonEnds {
			return
		}
		for _, e := range chanEnds(&g.req) {
			if len(g.daemonEnds) < maxDaemonEnds && !slices.Contains(g.daemonEnds, e) {
				g.daemonEnds = append(g.daemonEnds, e)
			}
		}
		return
	}
	if s.goneDaemonAt != "" || len(daemonSends)+len(daemonRecvs) == 0 || s.aborting || s.fail != nil {
		return // the failure, if any, came before
	}
	for _, e := range chanEnds(&g.req) {
		if e.send && daemonRecvs[e.ch] || !e.send && daemonSends[e.ch] {
			s.goneDaemonAt = s.shortSiteOf(g)
			return
		}
	}
}

// maxDaemonEnds bounds a daemon's list: its loop's channels come first,
// and one that replies on a new channel each time would grow it for ever.
const maxDaemonEnds = 32

// endProcess makes the process end after the running schedule.
func endProcess() { atomic.StoreInt64(&processEnds, 1) }

// chanEnd is a channel and the end of it an operation uses.
type chanEnd struct {
	ch   unsafe.Pointer
	send bool
}

// chanEnds lists the channel ends r waits at: a send's, a receive's, a
// select's cases (none when it has a default: it does not wait).
func chanEnds(r *request) []chanEnd {
	switch r.op {
	case opSend, opRecv:
		if r.obj != nil {
			return []chanEnd{{r.obj, r.op == opSend}}
		}
	case opSelect:
		if r.hasDefault {
			return nil
		}
		var es []chanEnd
		for _, c := range r.cases {
			if c.ptr != nil {
				es = append(es, chanEnd{c.ptr, c.send})
			}
		}
		return es
	}
	return nil
}

// noteDaemonChans adds the channel ends the daemons the ending schedule
// unwinds waited at, in that schedule, to daemonSends and daemonRecvs.
//
//go:norace
func noteDaemonChans(gs []*gstate) {
	for _, g := range gs {
		if !g.daemon || g.exited {
			continue
		}
		for _, e := range g.daemonEnds {
			m := &daemonRecvs
			if e.send {
				m = &daemonSends
			}
			if *m == nil {
				*m = map[unsafe.Pointer]bool{}
			}
			(*m)[e.ch] = true
		}
	}
}

// lockedOutside counts a lock operation of a goroutine outside control.
func lockedOutside(op opKind) {
	switch op {
	case opLock, opWLock, opRLock, opLockerLock:
		atomic.AddInt64(&heldOutside, 1)
	case opUnlock, opWUnlock, opRUnlock, opLockerUnlock:
		atomic.AddInt64(&heldOutside, -1)
	}
}

// tookOutside counts a successful TryLock of a goroutine outside control.
func tookOutside(controlled, got bool) bool {
	if !controlled && got {
		atomic.AddInt64(&heldOutside, 1)
	}
	return got
}

// keptCount is how many leftovers the schedule running now runs beside
// (Result.Kept).
var keptCount int64

func setKept(n int) { atomic.StoreInt64(&keptCount, int64(n)) }

func keptNow() int { return int(atomic.LoadInt64(&keptCount)) }

// A keeper knows the goroutines alive before the first schedule and the
// leftovers of earlier schedules it keeps, each with its part of a stack
// dump (state and frames) when it was kept.
type keeper struct {
	base map[uint64]bool
	// baseline is how many goroutines were alive then; counted says that
	// a count at or below it means no leftover: each of them was parked
	// (none was still ending) and none has ended since.
	baseline int
	counted  bool
	kept     map[uint64]uint64 // goroutine id: hash of its leftoverState
	buf      []byte            // the last dump's room, reused
	// The same by stacks, for admitQuick: the baseline's, the kept
	// leftovers' (nil until admit first kept some), each stack's
	// parkedAwayPCs, the last profile's room and count, and how many
	// checks admitQuick decided since admit last did.
	baseStacks, keptStacks stackSet
	parked                 map[uint64]bool
	recs                   []runtime.StackRecord
	now                    stackSet
	quick                  int
}

// count is how many leftovers k keeps.
func (k *keeper) count() int {
	if k.keptStacks != nil {
		return k.keptStacks.total()
	}
	return len(k.kept)
}

// newKeeper records the goroutines alive now: they are not leftovers.
// It yields (a number of times, not a time) until all but its caller are
// parked: one still ending when counted (a loaded machine) would later
// hide a leftover from a count, so if one still runs, settle never trusts
// a count.
func newKeeper() *keeper {
	k := &keeper{kept: map[uint64]uint64{}, parked: map[uint64]bool{}}
	for i := 0; ; i++ {
		k.base = map[uint64]bool{}
		parked := true
		// The caller's goroutine comes first in the dump.
		for j, block := range strings.Split(k.dump(), "\n\n") {
			id, ok := blockGoid(block)
			if !ok {
				continue
			}
			k.base[id] = true
			if state, frames := leftoverState(block); j > 0 && mayRun(state, frames) {
				parked = false
			}
		}
		k.baseline = runtime.NumGoroutine()
		if parked || i == baseYields {
			// A dump with goroutines the count leaves out
			// (GOTRACEBACK=system) is no baseline for the count.
			k.counted = parked && k.baseline == len(k.base)
			k.baseStacks = k.stacks().minus(nil)
			return k
		}
		runtime.Gosched()
	}
}

// baseYields bounds newKeeper's wait for goroutines that still run.
const baseYields = 100

// mayRun: may a goroutine in this state, with these frames
// (leftoverState), run on, and end, without anything waking it? Not
// os/signal's loop, in a system call for good (as foreignBusy has it).
func mayRun(state, frames string) bool {
	switch state {
	case "syscall":
		return !strings.Contains(frames, "signal_recv")
	case "running", "runnable", "sleep", "preempted", "":
		return true
	}
	return false
}

// dump is a stack dump of every goroutine, in a buffer kept from one call
// to the next (a dump that does not fit is taken again).
func (k *keeper) dump() string {
	if len(k.buf) == 0 {
		k.buf = make([]byte, 1<<16)
	}
	for {
		n := runtime.Stack(k.buf, true)
		if n < len(k.buf) {
			return string(k.buf[:n])
		}
		k.buf = make([]byte, 2*len(k.buf))
	}
}

// settle runs between two schedules: after a short wait for the
// goroutines that are ending, it reports whether the next schedule may run
// in this process beside what earlier ones left, and else how many they
// left.
func (k *keeper) settle() (int, bool) {
	baseline := k.baseline
	// Goroutines of the schedule that are ending (its test's) first: a
	// dump while they are would be one more.
	for i, same, last := 0, 0, -1; i < 200 && same < 3; i++ {
		n := runtime.NumGoroutine()
		if n <= baseline+k.count() {
			break
		}
		if n == last {
			same++
		} else {
			same = 0
		}
		last = n
		runtime.Gosched()
	}
	if atomic.LoadInt64(&processEnds) != 0 {
		return runtime.NumGoroutine() - baseline, false
	}
	for wait := 50 * time.Microsecond; ; wait *= 2 {
		// No min/max/clear here: rt is compiled at the language version
		// of the module under test, which may be older than go1.21.
		n := runtime.NumGoroutine() - baseline
		if n < 0 {
			// One of the baseline's ended: from now on a count at the
			// baseline may hide a leftover.
			k.counted = false
		}
		// A count at or below the baseline is not enough when a lock is
		// held outside control: a goroutine of the baseline may have
		// ended meanwhile while a leftover holds it.
		if n <= 0 && k.counted && atomic.LoadInt64(&heldOutside) == 0 {
			k.kept, k.keptStacks = map[uint64]uint64{}, stackSet{}
			return 0, true
		}
		// The dump every auditEvery-th check at least: it alone tells
		// a kept leftover that ended from a new one at its stack.
		if atomic.LoadInt64(&heldOutside) == 0 && k.quick < auditEvery && k.admitQuick() {
			if k.keptStacks.total() > maxKept {
				return n, false
			}
			k.quick++
			return 0, true
		}
		if kept, ok := k.admit(); ok {
			if len(kept) > maxKept {
				return n, false
			}
			k.kept = kept
			k.recount()
			k.quick = 0
			return 0, true
		}
		if wait > 5*time.Millisecond {
			return n, false
		}
		time.Sleep(wait)
	}
}

// auditEvery bounds the checks admitQuick decides in a row.
const auditEvery = 32

// maxKept bounds the leftovers a process keeps: each check between two
// schedules reads a goroutine profile of them all, and a fresh process
// costs about as much as a hundred such checks of a few hundred
// (bench/dynamic/leftover.sh: 256, 512 and 1,024 are within its noise).
const maxKept = 512

// admit returns the leftovers to keep when none of them can interfere
// with the next schedule. One can when it is not blocked on a channel (it
// runs, sleeps, waits for I/O or a lock, or is still ending), it is the
// tool's or the testing package's, a program lock is held outside
// control, or one kept before has moved or ended since (something
// reached what it waits on).
func (k *keeper) admit() (map[uint64]uint64, bool) {
	if atomic.LoadInt64(&heldOutside) != 0 {
		return nil, false
	}
	admitDumps++
	kept := make(map[uint64]uint64, len(k.kept)+1)
	for _, block := range strings.Split(k.dump(), "\n\n") {
		id, ok := blockGoid(block)
		if !ok || k.base[id] {
			continue
		}
		state, rest := leftoverState(block)
		h := fnv.New64a()
		h.Write([]byte(state))
		h.Write([]byte(rest))
		now := h.Sum64()
		if was, ok := k.kept[id]; ok && was != now || !ok && !parkedAway(state, rest) {
			return nil, false
		}
		kept[id] = now
	}
	for id := range k.kept {
		if _, ok := kept[id]; !ok {
			return nil, false
		}
	}
	return kept, true
}

// admitDumps counts the dumps admit read, for tests.
var admitDumps int

// leftoverState splits a goroutine's part of a stack dump into its wait
// state, without how long it has waited, and its frames: what must not
// change while it is kept.
func leftoverState(block string) (state, frames string) {
	block = strings.Trim(block, "\n") // the last goroutine of a dump ends with one
	nl := strings.IndexByte(block, '\n')
	if nl < 0 {
		return "", block
	}
	head := block[:nl]
	if i := strings.IndexByte(head, '['); i >= 0 {
		state = head[i+1:]
		if j := strings.IndexAny(state, ",]"); j >= 0 {
			state = state[:j]
		}
	}
	return state, block[nl+1:]
}

// parkedAway: is a leftover (its leftoverState) blocked on a channel, in
// frames that are neither the tool's nor the testing package's? Only a
// send, receive or select leaves it there until something reaches its
// channel, which admit then sees.
func parkedAway(state, frames string) bool {
	switch state {
	case "chan receive", "chan send", "select", "chan receive (nil chan)", "chan send (nil chan)", "select (no cases)":
	default:
		return false
	}
	lines := strings.Split(frames, "\n")
	for i, l := range lines {
		if l == "" || strings.HasPrefix(l, "\t") {
			continue
		}
		l = strings.TrimPrefix(l, "created by ")
		if keeperFrame(l, i+1 < len(lines) && strings.Contains(lines[i+1], "_test.go:")) {
			return false
		}
	}
	return true
}

// keeperFrame: is a frame of function fn (whose file is a _test.go one or
// not) the tool's or the testing package's, where no leftover is kept? rt's
// own tests are in its package: their frames are the program's (as
// isUserFrame has it).
func keeperFrame(fn string, testFile bool) bool {
	return strings.HasPrefix(fn, rtPrefix) && !testFile || strings.HasPrefix(fn, "testing.")
}
