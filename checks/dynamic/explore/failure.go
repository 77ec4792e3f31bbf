package explore

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/interleave-dev/interleave/checks"
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
	states     []rt.GoroutineState // the goroutines when the schedule ended
	detail     string              // race report or crash output, for replay's printout
	confirmed  bool                // a crash that a fresh process reproduced
	strategy   string              // of the schedule that failed ("" for Options.Strategy)
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

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
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
		kind:      checks.FailureKind(r.Outcome),
		message:   r.Message,
		site:      r.Site,
		seed:      r.Seed,
		decisions: r.Decisions,
		states:    r.Goroutines,
	}
	for _, g := range r.Goroutines {
		if g.ID < 0 {
			// A dump of every goroutine (the watchdog's): detail, not a
			// goroutine of the test.
			f.detail = g.Stack
			continue
		}
		cg := checks.Goroutine{ID: fmt.Sprintf("g%d", g.ID), State: g.Op, Site: g.Site, Stack: parseFrames("\n" + g.Stack)}
		if len(cg.Stack) == 0 && g.Stack != "" {
			cg.Stack = parseFrames(g.Stack)
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
		if g.Site == f.site || len(f.frames) == 0 {
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
	return f, true
}

// closureRE matches the numbered suffix of a function literal's name:
// two goroutines started from two literals in one test are one call path.
var closureRE = regexp.MustCompile(`\.(func|gowrap)\d+`)

// isUserSite reports whether a "file:line" site is in the code under test
// rather than in the injected runtime.
func isUserSite(site string) bool {
	pos, ok := parseSite(site)
	return ok && isUserFrame(checks.Frame{File: pos.File, Line: pos.Line})
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
				return parseFrames(strings.Join(lines[start:i], "\n"))
			}
			start = i
		}
	}
	if start < 0 {
		return parseFrames(text)
	}
	return parseFrames(strings.Join(lines[start:], "\n"))
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

// sourceLine reads line n of file, for the finding's snippet.
func sourceLine(file string, n int) string {
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
