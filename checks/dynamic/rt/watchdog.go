// The watchdog: how long a step is waited for; a goroutine that never comes back.

package rt

import (
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// cpuNow is processCPU (tests replace it).
var cpuNow = processCPU

// maxStarvedStretch bounds how far starvedMore stretches the step timeout.
const maxStarvedStretch = 6

// starvedMore is how much longer a goroutine computing past the step limit
// is waited for because the machine did not let the process run: the
// process used less CPU time than the limit since the wait began (cpu0).
// A goroutine that really computes forever gets its step timeout's worth
// of CPU, or maxStarvedStretch times the timeout of wall time (not in a
// replay, which must not depend on the machine's load), never past the
// end of the run (stepLimit).
//
//go:norace
func (s *sched) starvedMore(cpu0, limit time.Duration) time.Duration {
	cpu, ok := cpuNow()
	if !ok || cpu-cpu0 >= s.timeout || limit >= maxStarvedStretch*s.timeout && s.replay == nil {
		return 0
	}
	more := s.timeout / 4
	if left := s.stepLimit(); left < s.timeout {
		// The end of the run is near: no further than it.
		if left <= minStepLimit {
			return 0
		}
		if left < more {
			more = left
		}
	}
	return more
}

// A stretchedWait is a wait of S for a goroutine: the step limit, longer
// while the process is starved of CPU (starvedMore).
type stretchedWait struct {
	start       time.Time
	limit, cpu0 time.Duration
}

//go:norace
func (s *sched) stretchedWait() *stretchedWait {
	cpu0, _ := cpuNow()
	return &stretchedWait{start: monoNow(), limit: s.stepLimit(), cpu0: cpu0}
}

// over reports whether the wait ran out: past its limit, which it first
// stretches while the process was starved.
//
//go:norace
func (w *stretchedWait) over(s *sched) bool {
	if time.Since(w.start) < w.limit {
		return false
	}
	more := s.starvedMore(w.cpu0, w.limit)
	if more == 0 {
		return true
	}
	w.limit += more
	return false
}

// waitStep waits for *addr to change from seen and returns the new value:
// a goroutine's answer to a request of the scheduler's own (its stack, a
// poll) or a helper's end (g nil). Past the step limit it waits longer
// only while the process was starved of CPU (starvedMore), as for an
// arrival (await); then the watchdog ends the process. Before, these waits
// went by wall time alone: on a loaded machine a deadlock's replay,
// which polls and dumps the blocked goroutines, ended in the watchdog.
//
//go:norace
func (s *sched) waitStep(g *gstate, addr *uint32, seen uint32) uint32 {
	limit := s.stepLimit()
	start := monoNow()
	cpu0, _ := cpuNow()
	for {
		if left := limit - time.Since(start); left > 0 {
			if v := waitChange(addr, seen, left); v != seen {
				return v
			}
			continue
		}
		if v := *addr; v != seen {
			return v
		}
		more := s.starvedMore(cpu0, limit)
		if more == 0 {
			s.watchdogAfter(g, limit)
			return seen
		}
		limit += more
	}
}

// stepLimit is how long S waits for a released goroutine: the step
// timeout, cut short near the end of the run (Config.Until, else
// Config.Deadline, plus deadlineGrace) so that a stuck schedule is
// reported before the driver's hard stop kills the process without a word.
// (Not Deadline when Until is set: a schedule started just before Deadline
// whose test waits in real time, as testify's Eventually does, would be
// called stuck at once.)
//
//go:norace
func (s *sched) stepLimit() time.Duration {
	limit := s.timeout
	end := s.cfg.Until
	if end.IsZero() {
		end = s.cfg.Deadline
	}
	if !end.IsZero() {
		left := end.Add(deadlineGrace).Sub(monoNow()) // end has no monotonic reading: time.Until would read time.Local
		if left < minStepLimit {
			left = minStepLimit
		}
		if left < limit {
			limit = left
		}
	}
	return limit
}

// deadlineGrace is how long past Config.Deadline a stuck step is waited
// for; minStepLimit is the least any step is waited for.
const (
	deadlineGrace = 500 * time.Millisecond
	minStepLimit  = 200 * time.Millisecond
)

// watchdog ends the process: a goroutine did not reach its next scheduling
// point within StepTimeout (it is blocked on something the scheduler does
// not control, or computing forever).
//
//go:norace
func (s *sched) watchdog(g *gstate) { s.watchdogAfter(g, s.timeout) }

// watchdogAfter ends the process after waiting waited for g (nil: for one
// of S's helpers). The message names where g is now, read from a dump of
// every goroutine, and whether it is running or blocked.
//
//go:norace
func (s *sched) watchdogAfter(g *gstate, waited time.Duration) {
	dump := dumpAll()
	msg := MarkerWatchdog + "no scheduling progress within " + waited.Round(10*time.Millisecond).String()
	site := ""
	var stuck GoroutineState
	heldBack, progress := false, false
	if g != nil {
		last := s.siteOf(g)
		site = last
		where := "after its " + g.req.op.String() + " at " + shortSite(last)
		if last == "" {
			where = "after its " + g.req.op.String()
		}
		state, now, stack := goroutineAt(dump, g.gid)
		stuck = GoroutineState{ID: g.id, Op: state, Site: now, Stack: stack}
		msg = MarkerWatchdog + "g" + strconv.Itoa(g.id) + " did not reach a scheduling point within " + waited.Round(10*time.Millisecond).String() + " " + where
		if now != "" {
			site = now
			msg += "; it is at " + shortSite(now) + " (" + stuckWhy(state) + ")"
		} else {
			msg += " (blocked outside the scheduler's control, or computing without a scheduling point)"
		}
		if progressed(g.gid, stack) {
			msg += "; " + ProgressNote
			progress = true
		}
		if !progress && state != "running" && state != "runnable" {
			if held := s.heldBack(g); held != "" {
				msg += ", while " + held + " could not run: it may be waiting for one of them through something the scheduler does not see (io.Pipe, net.Pipe, a lock in uninstrumented code)"
				heldBack = true
			}
		}
	}
	res := s.result()
	res.Outcome = "fatal"
	res.Message = msg
	res.Site = site
	res.Watchdog = waited
	res.HeldBack = heldBack
	res.Progress = progress
	if stuck.Site != "" {
		res.Goroutines = append(res.Goroutines, stuck)
	}
	res.Goroutines = append(res.Goroutines, GoroutineState{ID: -1, Op: "all goroutines", Stack: dump})
	watchdogExit(s.index, res)
}

// ProgressNote is added to a watchdog's message when the goroutine it
// waited for was not stuck (Result.Progress).
const ProgressNote = "it was not stuck: its stack moved while sampled (computing past the step timeout, which a loaded machine or a slow test can cause)"

// dumpAll is a dump of every goroutine's stack (tests replace it).
var dumpAll = func() string {
	buf := make([]byte, maxDump)
	return string(buf[:runtime.Stack(buf, true)])
}

// maxDump bounds a dump; a full one may leave goroutines out.
const maxDump = 1 << 20

// progressSamples more dumps, sampleGap apart, are read for the stuck
// goroutine once the watchdog fires (tests replace sampleGap).
const progressSamples = 20

var sampleGap = 10 * time.Millisecond

// progressed reports whether goroutine gid, whose stack was first (its
// part of a dump), made progress: in a later sample it has returned, or a
// user frame it still has at the same depth from the bottom of its stack
// is called with other arguments (a loop over other data, TestMask's),
// not just at another line, in another callee or in the runtime (a spin:
// the same frames, the same arguments, sampled anywhere in its loop).
//
//go:norace
func progressed(gid uint64, first string) bool {
	if first == "" {
		return false
	}
	seen := []([]string){userCalls(first)}
	wasInRT := inRT(first)
	for i := 0; i < progressSamples; i++ { // no range over an int: rt builds at old go versions
		time.Sleep(sampleGap)
		dump := dumpAll()
		_, _, stack := goroutineAt(dump, gid)
		if stack == "" && len(dump) < maxDump {
			return true // it returned
		}
		if stack != "" && !wasInRT && inRT(stack) {
			return true // it reached the runtime: a scheduling point
		}
		calls := userCalls(stack)
		for _, c := range seen {
			if argsMoved(c, calls) {
				return true
			}
		}
		seen = append(seen, calls)
	}
	return false
}

// userCalls lists the user frames' calls ("pkg.f 0x1 0x2 ") of one
// goroutine's part of a dump, innermost first.
func userCalls(stack string) []string {
	var calls []string
	lines := strings.Split(stack, "\n")
	for k := 1; k < len(lines); k++ {
		l := lines[k]
		if l == "" || strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "created by ") {
			continue
		}
		fn, args := l, ""
		if p := strings.LastIndex(l, "("); p > 0 {
			fn, args = l[:p], l[p:]
		}
		if isUserFunc(fn) {
			calls = append(calls, fn+" "+staleArgs(args))
		}
	}
	return calls
}

// inRT reports whether the innermost frame of a goroutine's part of a
// dump that is not the Go runtime's or a system call's is this package's.
func inRT(stack string) bool {
	lines := strings.Split(stack, "\n")
	for k := 1; k < len(lines); k++ {
		l := lines[k]
		if l == "" || strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "runtime.") || strings.HasPrefix(l, "syscall.") || strings.HasPrefix(l, "internal/") {
			continue
		}
		return strings.HasPrefix(l, rtPrefix)
	}
	return false
}

// staleArgs replaces the argument values a dump marks as possibly stale
// ("0x0?": a register argument never spilled) by "?": they say nothing
// of progress.
func staleArgs(call string) string {
	var b strings.Builder
	for _, f := range strings.FieldsFunc(call, func(r rune) bool { return r == ',' || r == ' ' || r == '(' || r == ')' || r == '{' || r == '}' }) {
		if strings.HasSuffix(f, "?") {
			f = "?"
		}
		b.WriteString(f)
		b.WriteByte(' ')
	}
	return b.String()
}

// argsMoved reports whether some frame at the same depth from the bottom
// of both lists calls the same function with other arguments.
func argsMoved(a, b []string) bool {
	for i := 1; i <= len(a) && i <= len(b); i++ {
		x, y := a[len(a)-i], b[len(b)-i]
		fx, _, _ := strings.Cut(x, " ")
		fy, _, _ := strings.Cut(y, " ")
		if fx != fy {
			return false // another function: not the same call chain below
		}
		if x != y {
			return true
		}
	}
	return false
}

// heldBack lists the controlled goroutines other than g that the
// scheduler kept parked although they could run: while g blocks outside
// the scheduler's view, one of them may be the partner it waits for.
//
//go:norace
func (s *sched) heldBack(g *gstate) string {
	var held []string
	for _, h := range s.gs {
		if h == g || !h.parked || h.exited || !s.enabled(h) {
			continue
		}
		what := h.req.op.String()
		if h.req.op == opStart {
			what = "not started yet"
		} else if site := s.shortSiteOf(h); site != "" {
			what += " at " + site
		}
		held = append(held, "g"+strconv.Itoa(h.id)+" ("+what+")")
	}
	if len(held) > maxHeldBack {
		// gocron's TestScheduler_ManyJobs: 860 goroutines, a 21 KB note.
		held = append(held[:maxHeldBack], "and "+strconv.Itoa(len(held)-maxHeldBack)+" more")
	}
	return strings.Join(held, ", ")
}

// maxHeldBack is how many held-back goroutines a watchdog message names.
const maxHeldBack = 8

// goroutineAt finds goroutine gid in a dump of all goroutines and returns
// its state ("running", "IO wait", "chan receive", ...), its first user
// frame as file:line and its part of the dump.
func goroutineAt(dump string, gid uint64) (state, site, stack string) {
	head := "goroutine " + strconv.FormatUint(gid, 10) + " ["
	i := strings.Index(dump, head)
	if i < 0 {
		return "", "", ""
	}
	rest := dump[i+len(head):]
	j := strings.Index(rest, "]")
	if j < 0 {
		return "", "", ""
	}
	state = rest[:j]
	if k := strings.Index(state, ","); k >= 0 {
		state = state[:k] // "IO wait, 2 minutes"
	}
	if k := strings.Index(rest, "\n\n"); k >= 0 {
		rest = rest[:k]
	}
	stack = dump[i:i+len(head)] + rest
	lines := strings.Split(rest, "\n")
	for k := 1; k+1 < len(lines); k++ {
		fn := strings.TrimSpace(lines[k])
		if p := strings.LastIndex(fn, "("); p > 0 {
			fn = fn[:p]
		}
		loc := strings.TrimSpace(lines[k+1])
		if !strings.HasPrefix(lines[k+1], "\t") || !isUserFunc(fn) {
			continue
		}
		if p := strings.LastIndex(loc, " +0x"); p >= 0 {
			loc = loc[:p]
		}
		if stdSrc != "" && strings.HasPrefix(loc, stdSrc) {
			continue // the standard library (os, internal/poll, net)
		}
		return state, loc, stack
	}
	return state, "", stack
}

// stdSrc is the source directory of the standard library, with a trailing
// slash ("" when file names are trimmed), found from a runtime function.
var stdSrc = func() string {
	fn := runtime.FuncForPC(reflect.ValueOf(runtime.Gosched).Pointer())
	if fn == nil {
		return ""
	}
	file, _ := fn.FileLine(fn.Entry())
	dir, ok := strings.CutSuffix(file, "runtime/proc.go")
	if !ok || !strings.HasSuffix(dir, "/") || len(dir) < 2 {
		return ""
	}
	return dir
}()

// stuckWhy explains a goroutine state of a stack dump to the user.
func stuckWhy(state string) string {
	switch state {
	case "running", "runnable":
		return state + ": computing or spinning without a scheduling point"
	case "":
		return "state unknown"
	}
	return state + ": blocked outside the scheduler's control"
}
