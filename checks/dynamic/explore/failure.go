// Building a failure, its one owner: a process's output (collect) to a failure (key) to a Finding (finding).

package explore

import (
	"bufio"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/failurelog"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// failure is one failing schedule, before dedupe.
type failure struct {
	kind       checks.FailureKind
	message    string
	site       string // file:line of the first user frame
	frames     []checks.Frame
	goroutines []checks.Goroutine
	related    []checks.Related
	seed       int64
	decisions  []rt.Decision
	clockBase  time.Time           // where its virtual clock started (rt.Schedule.ClockBase)
	states     []rt.GoroutineState // the goroutines when the schedule ended
	detail     string              // race report or crash output, for replay's printout
	confirmed  bool                // a crash that a fresh process reproduced
	kept       bool                // it ran beside leftovers of earlier schedules (rt.Result.Kept)
	strategy   string              // of the schedule that failed ("" for Options.Strategy)
	maxSteps   int                 // the step bound it ran under (0: rt.DefaultMaxSteps)
	elapsed    time.Duration       // how long that schedule ran (0: not known)
	early      int                 // early clock jumps before it, kept (rt.Result.Early)
	subtest    string              // the top-level subtest it happened in (rt.Result.Subtest)
	leftBehind string              // a failed test's leftover goroutines (rt.Result.LeftBehind)
	late       bool                // it failed only after it returned (rt.Result.AfterReturn)
	drawsOnly  bool                // its only choices were random draws and map orders (rt.Result.Draws)
	lateRace   bool                // a race printed after its test returned (raceReport.AfterReturn)
	dumps      bool                // it read a dump of every goroutine (rt.Result.Dumps)
	stretched  bool                // its clock was stretched (rt.Result.Stretched)
	// stretchedBy is how far beyond NowTick a read the stretch moved its
	// clock (rt.Result.StretchedBy).
	stretchedBy time.Duration
	bubbleEnd   bool           // a synctest bubble's end waited (rt.Result.BubbleEnd)
	moves       []rt.EarlyMove // the early jumps that ended timed waits (rt.Result.EarlyMoves)
	// allocReads and allocCounts: the counts of allocations its schedule
	// read (rt.Result.AllocReads, AllocCounts).
	allocReads  int
	allocCounts []float64
	// prior are the schedules its process ran before it, in order (its
	// test's, and in a batch process the tests' before it); priorTests
	// names the test of each ("" for its own); afterPrior, when set, is
	// how many of them, the last, its replay runs first: it replayed
	// only after them.
	prior      []rt.Result
	priorTests []string
	afterPrior int
}

// collect records the failures of one process's schedules and returns
// their keys. base is the index of the worker's first schedule.
func (s *search) collect(t *target, out *childOutcome, base int, strategy string) map[string]bool {
	return s.collectIn(t, out, base, strategy, nil, nil)
}

// collectIn is collect for t's part out of a batch process that ran
// whole (its schedules of every test, in order), testAt naming the test
// of a schedule index: a failure's earlier schedules are the process's,
// the other tests' included.
func (s *search) collectIn(t *target, out *childOutcome, base int, strategy string, whole *childOutcome, testAt func(int) string) map[string]bool {
	keys := map[string]bool{}
	// The schedules of this process before index i (each Result is
	// written as its schedule ends, so they are in order).
	proc := out
	if whole != nil {
		proc = whole
	}
	// afterOthers: did other tests run before schedule index i in this
	// process (a batch's, in go test's order)? The first other test's
	// schedule decides it.
	firstOther := -1
	if testAt != nil {
		for _, r := range proc.results {
			if testAt(r.Index) != t.name {
				firstOther = r.Index
				break
			}
		}
	}
	afterOthers := func(i int) bool { return firstOther >= 0 && firstOther < i }
	add := func(f *failure, index int) {
		f.strategy, f.maxSteps = strategy, out.maxSteps
		keys[f.key()] = true
		s.add(t, f)
		if !afterOthers(index) {
			s.failedWithoutOthers(t, f.key())
		}
		if strategy != rt.PlainStrategy {
			s.failedAt(t, index-base+1)
		}
	}
	byIndex := map[int]rt.Result{}
	setPrior := func(f *failure, i int) {
		k := 0
		for k < len(proc.results) && proc.results[k].Index < i {
			k++
		}
		f.prior, f.priorTests = proc.results[:k:k], make([]string, k)
		for j := range f.priorTests {
			if testAt != nil {
				if name := testAt(proc.results[j].Index); name != t.name {
					f.priorTests[j] = name
				}
			}
		}
	}
	for _, r := range out.results {
		byIndex[r.Index] = r
		s.passed(t, r, afterOthers(r.Index))
		if f, ok := fromResult(r); ok {
			withLog(f, out.logs[r.Index], out.logSubs[r.Index], t.pkg.Dir)
			if raceEcho(f) {
				continue
			}
			if f.early > 0 && (s.opts.KeepEarly == nil || !s.opts.KeepEarly(makeFinding(f, t.pkg.ImportPath, t.name, ""))) {
				continue // inconclusive, as rt files it without KeepEarly
			}
			if r.AddrInUse != "" && s.opts.Workers > 1 && strategy != rt.PlainStrategy {
				// A listen found its address in use while the test's
				// workers ran at once: another worker's process may hold
				// the port (EventBus's fixed :2035, whose error the test
				// drops and then serves a nil listener). Not the test's
				// doing; one worker searches it from then on (sameAddress).
				continue
			}
			if r.Index == out.crashed {
				// The runtime wrote this result as the process died
				// (its watchdog, os.Exit): handled below.
				continue
			}
			f.strategy = strategy
			setPrior(f, r.Index)
			add(f, r.Index)
		}
	}
	// A race on a schedule whose test failed after an early timer (its
	// result inconclusive: rt's EarlyFailPrefix) is still reported: the
	// race detector reports two accesses no happens-before edge orders,
	// which does not depend on when the timer fired (an early timer is
	// only an interleaving a loaded machine can run), and it replays as
	// any race does. Only the test's failure there is its own timeout's.
	raced := map[string]int{} // a race's first schedule in this process
	for _, rep := range out.races {
		if n, ok := toolRace(rep); ok {
			s.noteOnce(t.name+"|toolrace|"+n, t.name+": "+n)
			continue
		}
		f, ok := fromRace(rep)
		if !ok {
			continue
		}
		if r, ok := byIndex[rep.Index]; ok && r.Far && !s.raceAtTarget(rep) {
			// The far jump was aimed at the change (rt's farNow); a race it
			// reached elsewhere (a test's own timeout path) is not the
			// change's, and no plain run is likely to reach it.
			s.farElsewhere(t, f)
			continue
		}
		if r, ok := byIndex[rep.Index]; ok {
			f.seed, f.decisions, f.kept, f.elapsed, f.moves, f.stretched, f.stretchedBy, f.bubbleEnd = r.Seed, r.Decisions, r.Kept > 0, r.Elapsed, r.EarlyMoves, r.Stretched, r.StretchedBy, r.BubbleEnd
			setPrior(f, rep.Index)
		} else if rep.Index >= 0 {
			f.seed = s.opts.Seed + int64(rep.Index)
		}
		add(f, max(rep.Index, base))
		if k := f.key(); rep.Index >= 0 {
			if i, ok := raced[k]; !ok || rep.Index < i {
				raced[k] = rep.Index
			}
		}
	}
	s.maskRepeats(t, raced, out)
	if out.crashed < 0 {
		return keys
	}
	s.mu.Lock()
	t.stats.Crashes++
	s.mu.Unlock()
	if r, ok := byIndex[out.crashed]; ok && r.Watchdog > 0 {
		if f := s.stuck(t, r, out.crashText, strategy, out.maxSteps); f != nil {
			keys[f.key()] = true
			if strategy != rt.PlainStrategy {
				s.failedAt(t, r.Index-base+1)
			}
		}
		return keys
	}
	f := crashFailure(out, byIndex)
	f.seed = s.opts.Seed + int64(out.crashed)
	f.strategy, f.maxSteps = strategy, out.maxSteps
	if out.killed && !strings.HasPrefix(f.message, "fatal error") && f.kind == checks.Fatal && strategy != rt.PlainStrategy {
		// A worker's schedule still running when the test's share ran
		// out (its unperturbed one ran to its end before): stopped by the
		// budget, inconclusive as a step bound is, not a crash.
		s.stoppedNotCrashed(t)
		return keys
	}
	if out.killed && !strings.HasPrefix(f.message, "fatal error") && f.kind == checks.Fatal {
		s.noteOnce(t.name+"|killed", fmt.Sprintf("%s: the schedule with seed %d did not finish before the end of its share of the budget and was stopped (a long test, or blocked outside the scheduler's control); its last output:\n%s", t.name, f.seed, tailLines(out.stdout+out.stderr, 10)))
		return keys
	}
	keys[f.key()] = true
	s.addCrash(t, f, out.crashed)
	if strategy != rt.PlainStrategy {
		s.failedAt(t, out.crashed-base+1)
	}
	return keys
}

// stuck handles a schedule that the runtime's watchdog ended: a goroutine
// stuck for the whole step timeout is a finding, replayable from the
// decisions the runtime wrote on its way out, and so is one stuck at the
// site where the test's unperturbed run hung; one still stuck when the
// budget ran out, before the full timeout, is a note on the unperturbed
// schedule and a stopped (inconclusive) schedule on others, and one blocked
// while the scheduler held back goroutines it may have been waiting for.
// It returns the failure when it recorded one.
func (s *search) stuck(t *target, r rt.Result, crashText, strategy string, maxSteps int) *failure {
	f, ok := fromResult(r)
	if !ok {
		return nil
	}
	f.strategy, f.maxSteps = strategy, maxSteps
	if r.Progress {
		// Slow, not hung (TestMask, a CPU-bound loop under the race
		// detector at load): a replay at the same load would end the same
		// way, so it confirms nothing.
		if strategy != rt.PlainStrategy {
			s.stoppedNotCrashed(t)
		}
		s.noteOnce(t.name+"|slow|"+f.site, fmt.Sprintf("%s: not reported: the %v watchdog ended the schedule with seed %d, but the goroutine it waited for was computing, not stuck (its stack moved while sampled): a step longer than the watchdog at this load; to search it, a longer -watchdog or a lighter load: %s",
			t.name, r.Watchdog.Round(10*time.Millisecond), r.Seed, strings.TrimPrefix(f.message, "hang: ")))
		return nil
	}
	if r.HeldBack {
		s.noteOnce(t.name+"|held|"+f.site, fmt.Sprintf("%s: not reported, the scheduler may have caused it (schedule with seed %d): %s",
			t.name, r.Seed, strings.TrimPrefix(f.message, "hang: ")))
		return nil
	}
	s.mu.Lock()
	plainHang := t.plainKeys[f.key()]
	s.mu.Unlock()
	if r.Watchdog >= s.opts.StepTimeout || plainHang {
		f.detail = crashText
		if strategy == rt.PlainStrategy {
			f.message += " (on the unperturbed schedule too: no interleaving needed)"
		}
		s.add(t, f)
		return f
	}
	if strategy != rt.PlainStrategy {
		// Cut short by the end of the test's share (the unperturbed
		// schedule ran to its end): stopped unfinished, inconclusive,
		// counted in noteStopped's note as a killed schedule is.
		s.stoppedNotCrashed(t)
		return nil
	}
	s.noteOnce(t.name+"|stuck|"+f.site, fmt.Sprintf("%s: the budget ran out before the %v watchdog could call the schedule with seed %d hung: %s",
		t.name, s.opts.StepTimeout, r.Seed, strings.TrimPrefix(f.message, "hang: ")))
	return nil
}

// crashFailure describes the schedule a process died in: from the result
// the runtime wrote on its way out (its watchdog does), else from the
// crash output on standard error.
func crashFailure(out *childOutcome, byIndex map[int]rt.Result) *failure {
	if r, ok := byIndex[out.crashed]; ok {
		if f, ok := fromResult(r); ok {
			f.detail = out.crashText
			return f
		}
	}
	return fromCrash(out.crashText, out.exitErr, out.killed)
}

// fromResult turns a failing Result into a failure; ok is false for a pass
// or for the test-failure the testing package adds after a race report
// (the race itself is reported from standard error).
func fromResult(r rt.Result) (*failure, bool) {
	if r.Outcome == "" || r.Outcome == "pass" {
		return nil, false
	}
	if r.Outcome == string(checks.TestFailure) && strings.Contains(r.Message, "race detected") {
		return nil, false
	}
	if msg, ok := strings.CutPrefix(r.Message, rt.MarkerWatchdog); ok {
		r.Message = "hang: " + msg
	}
	f := &failure{
		kind:        checks.FailureKind(r.Outcome),
		message:     r.Message,
		site:        r.Site,
		seed:        r.Seed,
		decisions:   r.Decisions,
		clockBase:   r.ClockBase,
		states:      r.Goroutines,
		kept:        r.Kept > 0,
		elapsed:     r.Elapsed,
		early:       r.Early,
		moves:       r.EarlyMoves,
		stretched:   r.Stretched,
		stretchedBy: r.StretchedBy,
		bubbleEnd:   r.BubbleEnd,
		subtest:     r.Subtest,
		leftBehind:  r.LeftBehind,
		late:        r.AfterReturn,
		drawsOnly:   r.Choices > 0 && r.Choices == r.Draws,
		dumps:       r.Dumps > 0,

		allocReads:  r.AllocReads,
		allocCounts: r.AllocCounts,
	}
	for _, g := range r.Goroutines {
		if g.ID < 0 {
			// A dump of every goroutine (the watchdog's): detail, not a
			// goroutine of the test.
			f.detail = g.Stack
			continue
		}
		cg := checks.Goroutine{ID: fmt.Sprintf("g%d", g.ID), State: g.Op, Site: g.Site, Stack: failurelog.Frames("\n" + g.Stack)}
		if len(cg.Stack) == 0 && g.Stack != "" {
			cg.Stack = failurelog.Frames(g.Stack)
		}
		f.goroutines = append(f.goroutines, cg)
	}
	for i, g := range f.goroutines {
		// The runtime's own helpers (Range, WaitGroupGo) are no place to
		// show a user: move such a site to the first user frame.
		if !isUserSite(g.Site) {
			if fr, ok := firstUser(g.Stack); ok {
				if g.Site == f.site {
					f.site = frameSite(fr)
				}
				f.goroutines[i].Site = frameSite(fr)
				g.Site = frameSite(fr)
			}
		}
		// A test's failure is the test's: the goroutines it left behind
		// (pond's purger, caught at whichever call of its loop) do not
		// name its function, nor tell one cause from another.
		if g.Site == f.site || len(f.frames) == 0 && f.kind != checks.TestFailure {
			f.frames = g.Stack
		}
	}
	if !isUserSite(f.site) {
		f.site = ""
	}
	if f.site == "" {
		if fr, ok := firstUser(f.frames); ok {
			f.site = frameSite(fr)
		}
	}
	return f, true
}

// withLog adds the test's own words to a test failure whose message says
// only that it failed: the first entry the test logged that is not a
// t.Log or t.Logf call (read from the source line the entry names, under
// dir), else the first entry. When the failure is a top-level subtest's
// and subs names the entry's (parallel subtests can both fail), the
// failure is that subtest's: its t failed first.
func withLog(f *failure, logs, subs []string, dir string) {
	if f.kind != checks.TestFailure || len(logs) == 0 {
		return
	}
	i := failureIndex(logs, dir)
	if f.subtest != "" && i < len(subs) && subs[i] != "" {
		f.subtest = subs[i]
	}
	log := assertionWords(logs[i])
	if strings.Contains(f.message, log) {
		return
	}
	f.message = strings.TrimSuffix(f.message, ": ") + ": " + log
}

// logCallRE matches a call of testing's Log or Logf, which logs without
// failing.
var logCallRE = regexp.MustCompile(`\.Logf?\(`)

// entrySiteRE reads the "file.go:12: " an entry starts with.
var entrySiteRE = regexp.MustCompile(`^(\S+\.go):(\d+): `)

// sitesOnlyRE matches a line of one or more "file.go:12:" and nothing else.
var sitesOnlyRE = regexp.MustCompile(`^\s*(\S+\.go:\d+:\s*)+$`)

// failureEntry picks the log entry that says why a test failed.
func failureEntry(logs []string, dir string) string {
	return logs[failureIndex(logs, dir)]
}

// failureIndex is the index in logs of failureEntry's entry: the first
// whose source line is not a Log call; else the first whose source line
// could not be read (a helper of another package logs under its file's
// base name: bbolt's btesting.go:54 "Opening bbolt DB at" came before
// the assertion that failed); else the first.
func failureIndex(logs []string, dir string) int {
	unread := -1
	for i, e := range logs {
		m := entrySiteRE.FindStringSubmatch(e)
		if m == nil {
			return i
		}
		n, _ := strconv.Atoi(m[2])
		file := m[1]
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		src := SourceLine(file, n)
		switch {
		case src == "":
			if unread < 0 {
				unread = i
			}
		case !logCallRE.MatchString(src):
			return i
		}
	}
	return max(unread, 0)
}

// assertionWords shortens a testify-style entry, whose first line is only
// its site ("x_test.go:12: " then "Error Trace:", "Error:", "Messages:"
// lines), to the site and the words after Error: (with the lines that
// continue it, up to a Diff:) and Messages:. The first line may hold
// several sites: a retry helper's and then testify's own
// ("retry.go:123: assertions.go:388: ").
func assertionWords(entry string) string {
	first, rest, ok := strings.Cut(entry, "\n")
	if !ok || !sitesOnlyRE.MatchString(first) {
		return entry
	}
	var words []string
	lines := strings.Split(rest, "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "Error:") {
			// With its further lines: the values an assertion
			// compared ("expected: 1", "actual  : 0"), which repro
			// matches with a log's (failurelog.AssertionValues).
			l = "Error: " + strings.Join(strings.Fields(failurelog.ErrorField(lines[i:], func(string) bool { return true })), " ")
		}
		for _, label := range []string{"Error:", "Messages:"} {
			if w, ok := strings.CutPrefix(l, label); ok && strings.TrimSpace(w) != "" {
				words = append(words, strings.TrimSpace(w))
			}
		}
	}
	if len(words) == 0 {
		return entry
	}
	return strings.TrimSpace(first) + " " + strings.Join(words, ": ")
}

// raceAtTarget reports whether one of a race's accesses is at or near
// (rt.TargetNear lines) one of Options.Targets: its first frame outside
// the runtime and the standard library, as rt's targeted strategy matches
// a site.
func (s *search) raceAtTarget(rep raceReport) bool {
	if len(s.opts.Targets) == 0 {
		return false
	}
	tg := rt.NewTargeted(nil, s.opts.Targets)
	for _, site := range rep.sites() {
		if tg.AtTarget(shortSite(site)) {
			return true
		}
	}
	return false
}

// farElsewhere notes, once per test, a race dropped because its schedule
// jumped the clock far (rt.Result.Far) and neither access is at a target.
func (s *search) farElsewhere(t *target, f *failure) {
	s.noteOnce(t.name+"|farelsewhere", fmt.Sprintf("%s: not reported: %s, on a schedule whose clock jumped further than a loaded machine's delay to reach the change, with neither access at a changed site (only a race on the change counts after such a jump)",
		t.name, firstLine(f.message)))
}

// raceEcho reports whether f is the testing package's "race detected
// during execution of test" failure, which only echoes a race report that
// is a finding of its own.
func raceEcho(f *failure) bool {
	return f.kind == checks.TestFailure && strings.Contains(f.message, "race detected during execution of test")
}

// fromRace turns a race report into a failure.
func fromRace(rep raceReport) (*failure, bool) {
	if len(rep.Accesses) == 0 {
		return nil, false
	}
	f := &failure{kind: checks.DataRace, detail: rep.Text}
	var descs []string
	for i, a := range rep.Accesses {
		fr, ok := firstUser(a.Frames)
		if !ok {
			continue
		}
		desc := fmt.Sprintf("%s at %s in %s", raceVerb(a.What), shortSite(frameSite(fr)), shortFunc(fr.Func))
		descs = append(descs, desc)
		if f.site == "" {
			f.site = frameSite(fr)
			f.frames = a.Frames
		} else if i > 0 {
			pos, _ := parseSite(frameSite(fr))
			f.related = append(f.related, checks.Related{Position: pos, Message: raceVerb(a.What) + " in " + shortFunc(fr.Func)})
		}
		f.goroutines = append(f.goroutines, checks.Goroutine{ID: goroutineWord(a.What), State: raceVerb(a.What), Site: frameSite(fr), Stack: a.Frames})
	}
	if f.site == "" {
		return nil, false
	}
	f.message = "data race: " + strings.Join(descs, " and ")
	f.lateRace = rep.AfterReturn
	return f, true
}

var goroutineRE = regexp.MustCompile(`by (goroutine \d+|main goroutine)`)

// goroutineWord names a race report's goroutine; these are runtime numbers,
// prefixed so nobody mistakes them for logical IDs.
func goroutineWord(what string) string {
	if m := goroutineRE.FindStringSubmatch(what); m != nil {
		return "runtime " + m[1]
	}
	return "?"
}

// fromCrash turns the output of a process that died mid-schedule into a
// failure.
func fromCrash(text string, exitErr error, killed bool) *failure {
	f := &failure{kind: checks.Fatal, detail: text}
	lines := strings.Split(text, "\n")
	head := -1
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "fatal error: "):
			f.kind, f.message, head = checks.Fatal, l, i
		case strings.HasPrefix(l, "panic: ") && head < 0:
			f.kind, f.message, head = checks.Panic, l, i
			if strings.HasPrefix(l, "panic: test timed out") {
				f.kind = checks.Fatal
			}
		}
		if head >= 0 && f.kind == checks.Fatal {
			break
		}
	}
	rest := text
	if head >= 0 {
		rest = strings.Join(lines[head:], "\n")
	}
	f.frames = firstGoroutineFrames(rest)
	if fr, ok := firstUser(f.frames); ok {
		f.site = frameSite(fr)
	}
	if f.message == "" {
		switch {
		case killed:
			f.message = "test process hung and was killed by the watchdog"
		case exitErr != nil:
			f.message = "test process died: " + exitErr.Error()
		default:
			f.message = "test process exited in the middle of a schedule"
		}
	}
	return f
}

// firstGoroutineFrames returns the frames of the first goroutine in a
// traceback (the one that panicked or threw).
func firstGoroutineFrames(text string) []checks.Frame {
	lines := strings.Split(text, "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "goroutine ") {
			if start >= 0 {
				return failurelog.Frames(strings.Join(lines[start:i], "\n"))
			}
			start = i
		}
	}
	if start < 0 {
		return failurelog.Frames(text)
	}
	return failurelog.Frames(strings.Join(lines[start:], "\n"))
}

// failureOf is what the plain runs compare a finding with.
func failureOf(f checks.Finding) *failure {
	site := ""
	if f.Pos.IsValid() {
		site = fmt.Sprintf("%s:%d", f.Pos.File, f.Pos.Line)
	}
	msg, ok := strings.CutPrefix(f.Message, f.Test+": ")
	if rest, sub := strings.CutPrefix(f.Message, f.Test+"/"); !ok && sub {
		if _, m, found := strings.Cut(rest, ": "); found {
			msg = m
		}
	}
	msg, left, _ := strings.Cut(msg, leftPrefix)
	if left != "" {
		left = "leak: " + strings.TrimSuffix(left, ")")
	}
	return &failure{kind: f.Kind, message: msg, site: site, goroutines: f.Goroutines, leftBehind: left}
}

// leftText is what a failed test left running, told after its failure
// (" (what it left behind: goroutines still blocked after the test
// returned: g1 blocked on ...)"), or "".
func (f *failure) leftText() string {
	if f.leftBehind == "" {
		return ""
	}
	return leftPrefix + strings.TrimPrefix(f.leftBehind, "leak: ") + ")"
}

// leftPrefix starts leftText.
const leftPrefix = " (what it left behind: "

// where names what failed for a finding's message: test, or the top-level
// subtest it failed in ("TestSuite/TestMethod": a suite's method) when
// the search ran the whole test.
func (f *failure) where(test string) string {
	if f.subtest == "" || strings.Contains(test, "/") {
		return test
	}
	return test + "/" + f.subtest
}

// isHang reports whether f is the watchdog's: a goroutine that never
// reached its next scheduling point.
func (f *failure) isHang() bool {
	return f.kind == checks.Fatal && strings.HasPrefix(f.message, "hang: ")
}

// isLivelock reports whether f is the step bound's.
func (f *failure) isLivelock() bool {
	return f.kind == checks.Fatal && strings.HasPrefix(f.message, "livelock")
}

// isRunningLeak reports whether f is a leak whose goroutines were still
// running (spinning, sleeping, polling) when the schedule gave up on them,
// not all blocked forever.
func (f *failure) isRunningLeak() bool {
	return f.kind == checks.Leak && strings.HasPrefix(f.message, rt.LeakRunning)
}

// entry is the function a goroutine runs (its outermost user frame, with
// closure numbers dropped): what identifies the goroutine whatever line it
// is stuck at.
func entry(g checks.Goroutine) string {
	us := userFrames(g.Stack)
	if len(us) == 0 {
		return g.Site
	}
	return closureRE.ReplaceAllString(us[len(us)-1].Func, ".func")
}

// closureRE matches the numbered suffix of a function literal's name:
// two goroutines started from two literals in one test are one call path.
var closureRE = regexp.MustCompile(`\.(func|gowrap)\d+`)

// key identifies a failure for dedupe, by its signature: its kind and
// where it happened; for blocking failures and hangs, which goroutines
// were stuck (the functions they run), not the lines they were stuck at,
// which vary with the schedule.
func (f *failure) key() string {
	parts := []string{string(f.kind)}
	switch {
	case f.kind == checks.Deadlock || f.kind == checks.Leak || f.isHang() || f.isLivelock():
		switch {
		case f.isHang():
			parts = append(parts, "hang")
		case f.isLivelock():
			parts = append(parts, "livelock")
		case f.isRunningLeak():
			// Not the same as the same goroutines blocked forever.
			parts = append(parts, "running")
		}
		var entries []string
		for _, g := range f.goroutines {
			if f.isHang() && g.Site != f.site {
				continue // the hang is the stuck goroutine's
			}
			entries = append(entries, entry(g))
		}
		parts = append(parts, sortedUnique(entries)...)
		if len(entries) == 0 {
			parts = append(parts, f.site)
		}
	case f.kind == checks.DataRace:
		var sites []string
		for _, r := range f.related {
			sites = append(sites, r.Position.String())
		}
		parts = append(parts, sortedUnique(append(sites, f.site))...)
	default:
		parts = append(parts, f.site, normalizeMessage(f.message))
		for i, fr := range userFrames(f.frames) {
			if i == 3 {
				break
			}
			parts = append(parts, closureRE.ReplaceAllString(fr.Func, ".func"))
		}
	}
	return strings.Join(parts, "|")
}

func (f *failure) fingerprint() string {
	h := sha256.Sum256([]byte(f.key()))
	return hex.EncodeToString(h[:])[:8]
}

// signature is the part of a failure a replay must match.
func (f *failure) signature() *rt.Signature {
	return &rt.Signature{Kind: string(f.kind), Message: firstLine(f.message), Site: f.site}
}

// finding turns a unique failure into a Finding and writes its schedule
// file, shrunk when shrink is set.
func (s *search) finding(ctx context.Context, f *failure, t *target, shrink bool) (checks.Finding, error) {
	sched := &rt.Schedule{
		Version:   rt.ScheduleVersion,
		Package:   t.pkg.ImportPath,
		Dir:       t.relDir,
		Test:      t.name,
		GoVersion: s.goVersion,
		Race:      s.opts.Race,
		Tags:      s.opts.Tags,
		Strategy:  rt.StrategyOf(cmp.Or(f.strategy, s.opts.Strategy), f.seed), // plain, or the portfolio's member
		Seed:      f.seed,
		Decisions: f.decisions,
		Failure:   f.signature(),
		ClockBase: f.clockBase,

		ReadsGoroutines: f.dumps,
	}
	if len(sched.Tags) > 0 {
		sched.Version = rt.ScheduleVersionTags
	}
	if f.early > 0 {
		sched.KeepEarly, sched.Version = true, rt.ScheduleVersionRepro
	}
	if s.opts.Runs > 1 {
		sched.Runs, sched.Version = s.opts.Runs, rt.ScheduleVersionRepro
	}
	if bound := cmp.Or(f.maxSteps, s.opts.MaxSteps); s.opts.MaxSteps > 0 || bound > rt.DefaultMaxSteps && f.longest() >= rt.DefaultMaxSteps {
		// The bound it ran under (the unperturbed schedule's, or one
		// raised for a long test: steps.go), so that its replay and
		// shrinking have the same. A schedule shorter than the default
		// (and the earlier ones of its process) replays the same under
		// the default: its file stays as it was.
		sched.MaxSteps, sched.Version = bound, rt.ScheduleVersionRepro
	}
	if s.opts.TestTimeout > 0 {
		sched.TestTimeout, sched.Version = s.opts.TestTimeout, rt.ScheduleVersionRepro
	}
	if f.afterPrior > 0 {
		sched.Prior, sched.Version = f.priorRuns(t.name, f.afterPrior), rt.ScheduleVersionPrior
	}
	// Every schedule says how far a clock read moved the clock: a reader
	// of version 5 or older would replay it with a nanosecond.
	sched.NowTick, sched.Version = rt.NowTick, rt.ScheduleVersionTick
	sched.Stretch = f.stretchedAny() // withoutPaths sets its version
	sched.BubbleEnd = f.bubbleEndAny()
	if s.subRun != "" {
		sched.Run, sched.Version = s.subRun, rt.ScheduleVersionRun
	}
	if s.subSkip != "" {
		sched.Skip, sched.Version = s.subSkip, rt.ScheduleVersionSkip
	}
	if s.inst != nil {
		// Module-relative, so that the file replays in another checkout.
		sched.Failure.Site = relSite(s.inst.ModuleRoot, sched.Failure.Site)
	}
	if sched.Decisions == nil {
		sched.Decisions = []rt.Decision{}
	}
	s.fitPriors(sched, f)
	told, moves := s.tellFinding(ctx, f, t, sched, shrink)
	name := scheduleName(t, f)
	path := filepath.Join(s.opts.SchedulesDir, name)
	if err := WriteSchedule(path, sched); err != nil {
		return checks.Finding{}, err
	}
	shown := path
	if rel, err := filepath.Rel(s.opts.Dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		shown = rel
	}
	fd := makeFinding(f, t.pkg.ImportPath, t.name, shown)
	fd.Interleaving = told
	fd.EarlyTimers = earlyTimers(fd.EarlyTimers, sched.Decisions, moves, true)
	if tok, err := EncodeToken(sched); err == nil {
		fd.ReplayToken = tok
	}
	return fd, nil
}

// makeFinding builds the Finding of a failure.
// driverNameRE is the driver's subtest of one schedule as the testing
// package names it in its own messages ("Fail in goroutine after
// TestInterleaveDriver/schedule-7/sub has completed").
var driverNameRE = regexp.MustCompile(rt.DriverTest + `/schedule-\d+`)

// ownTestName names the test in msg as go test would: the driver's
// subtest of the schedule replaced by test.
func ownTestName(msg, test string) string {
	return driverNameRE.ReplaceAllLiteralString(msg, test)
}

func makeFinding(f *failure, pkg, test, schedule string) checks.Finding {
	fd := checks.Finding{
		Rule:       checks.DynamicRuleID(f.kind),
		Severity:   checks.Error,
		Message:    fmt.Sprintf("%s: %s%s", f.where(test), ownTestName(f.message, test), f.leftText()),
		Evidence:   checks.Dynamic,
		Package:    pkg,
		Kind:       f.kind,
		Test:       test,
		Goroutines: f.goroutines,
		Related:    f.related,
	}
	if f.early > 0 {
		fd.EarlyTimers = &checks.EarlyTimers{Jumps: f.early, FromLog: true}
	}
	if f.afterPrior > 0 {
		fd.AfterEarlier = f.afterEarlier(f.afterPrior)
	}
	fd.AfterReturn = f.lateRace
	fd.DrawsOnly = f.drawsOnly
	fd.Unperturbed = f.unperturbed()
	if pos, ok := parseSite(f.site); ok {
		fd.Pos = pos
		fd.Snippet = SourceLine(pos.File, pos.Line)
	}
	if fr, ok := firstUser(f.frames); ok {
		fd.Func = fr.Func
	}
	// The injected runtime's frames (its Go wrapper, its parking) say
	// nothing to the user: drop them from the stacks shown.
	gs := make([]checks.Goroutine, 0, len(fd.Goroutines))
	for _, g := range fd.Goroutines {
		var st []checks.Frame
		for _, fr := range g.Stack {
			if !isRTFunc(fr.Func) && !strings.Contains(filepath.ToSlash(fr.File), "/interleavert/") {
				st = append(st, fr)
			}
		}
		g.Stack = st
		gs = append(gs, g)
	}
	fd.Goroutines = gs
	if len(fd.Goroutines) == 0 && len(f.frames) > 0 {
		fd.Goroutines = []checks.Goroutine{{ID: "?", State: "running", Site: f.site, Stack: f.frames}}
	}
	if schedule != "" {
		fd.Schedule = schedule
		fd.Replay = "interleave replay " + schedule
	}
	sort.SliceStable(fd.Related, func(i, j int) bool { return fd.Related[i].Line < fd.Related[j].Line })
	return fd
}

// relSite makes the file of a "file:line" site relative to root when it is
// inside it.
func relSite(root, site string) string {
	pos, ok := parseSite(site)
	if !ok || !filepath.IsAbs(pos.File) {
		return site
	}
	rel, err := filepath.Rel(root, pos.File)
	if err != nil || strings.HasPrefix(rel, "..") {
		return site
	}
	pos.File = filepath.ToSlash(rel)
	return pos.String()
}

// isUserSite reports whether a "file:line" site is in the code under test
// rather than in the injected runtime.
func isUserSite(site string) bool {
	pos, ok := parseSite(site)
	return ok && isUserFrame(checks.Frame{File: pos.File, Line: pos.Line})
}

func shortSite(s string) string {
	if i := strings.LastIndex(s, "/"); i >= 0 {
		return s[i+1:]
	}
	return s
}

func shortFunc(fn string) string {
	if i := strings.LastIndex(fn, "/"); i >= 0 {
		return fn[i+1:]
	}
	return fn
}

// SourceLine is line n of file, trimmed, for a finding's snippet ("" when
// it cannot be read).
func SourceLine(file string, n int) string {
	fh, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for i := 1; sc.Scan(); i++ {
		if i == n {
			return strings.TrimSpace(sc.Text())
		}
	}
	return ""
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// stoppedNotCrashed recounts a process end counted as a crash as a
// schedule stopped unfinished at the end of its test's share.
func (s *search) stoppedNotCrashed(t *target) {
	s.mu.Lock()
	t.stats.Crashes--
	t.stats.Stopped++
	s.mu.Unlock()
}

// priorRuns are the schedule file's record of the last n schedules run
// before f in its process (test's, unless priorTests names another).
func (f *failure) priorRuns(test string, n int) []rt.Prior {
	from := len(f.prior) - n
	ps := make([]rt.Prior, n)
	for i, r := range f.prior[from:] {
		ps[i] = rt.Prior{Test: test, Seed: r.Seed, Decisions: r.Decisions, ClockBase: r.ClockBase, Outcome: r.Outcome}
		if j := from + i; j < len(f.priorTests) && f.priorTests[j] != "" {
			ps[i].Test = f.priorTests[j]
		}
		if ps[i].Decisions == nil {
			ps[i].Decisions = []rt.Decision{}
		}
	}
	return ps
}

// longest is the most steps its schedule or an earlier one of its process
// took: whether the step bound they ran under matters to its replay.
func (f *failure) longest() int {
	n := len(f.decisions)
	for _, r := range f.prior {
		n = max(n, r.Steps, len(r.Decisions))
	}
	return n
}

// afterEarlier is the label of f replayed after its last n earlier
// schedules: how many, and the other tests among them, in order.
func (f *failure) afterEarlier(n int) *checks.AfterEarlier {
	a := &checks.AfterEarlier{Schedules: n}
	seen := map[string]bool{}
	for j := len(f.prior) - n; j < len(f.prior); j++ {
		if j < 0 || j >= len(f.priorTests) {
			continue
		}
		if name := f.priorTests[j]; name != "" && !seen[name] {
			seen[name] = true
			a.Tests = append(a.Tests, name)
		}
	}
	return a
}

// bubbleEndAny: did a synctest bubble's end wait in f's schedule or in
// one of the earlier ones its replay runs first (they replay with f's
// mark)?
func (f *failure) bubbleEndAny() bool {
	return f.bubbleEnd || f.markedIn(f.afterPrior, bubbleEndMark)
}

// stretchedAny: was the clock stretched in f's schedule or in one of the
// earlier ones its replay runs first?
func (f *failure) stretchedAny() bool {
	return f.stretched || f.markedIn(f.afterPrior, stretchedMark)
}

// withPriors gives sched the last n earlier schedules of f's process, to
// replay first, and their marks: they replay with sched's (a synctest test
// that failed inside its bubble never reached the end the passing ones
// before it waited at).
func (f *failure) withPriors(sched *rt.Schedule, test string, n int) {
	sched.Prior, sched.Version = f.priorRuns(test, n), max(sched.Version, rt.ScheduleVersionPrior)
	sched.Stretch = sched.Stretch || f.markedIn(n, stretchedMark)
	sched.BubbleEnd = sched.BubbleEnd || f.markedIn(n, bubbleEndMark)
}

// The marks an earlier run gives the schedule its replay runs it in.
func stretchedMark(r rt.Result) bool { return r.Stretched }
func bubbleEndMark(r rt.Result) bool { return r.BubbleEnd }

// markedIn: has one of the last n earlier schedules of f's process the
// mark?
func (f *failure) markedIn(n int, marked func(rt.Result) bool) bool {
	for _, r := range f.prior[max(len(f.prior)-n, 0):] {
		if marked(r) {
			return true
		}
	}
	return false
}
