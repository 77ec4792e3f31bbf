// The user's frames and sites in a test process's stacks, and its race reports.

package explore

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/failurelog"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// goroot is the GOROOT of the go command that builds the tests, whose
// standard library frames are not the user's.
var goroot = sync.OnceValue(func() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return filepath.ToSlash(strings.TrimSpace(string(out)))
})

// isUserFrame reports whether f belongs to the code under test rather than
// to the Go runtime, the standard library, the testing package, or
// interleave's own runtime and driver.
func isUserFrame(f checks.Frame) bool {
	file := filepath.ToSlash(f.File)
	if root := goroot(); root != "" && strings.HasPrefix(file, root+"/") {
		return false
	}
	if strings.Contains(file, "/go/src/") && !strings.Contains(file, "/pkg/mod/") && strings.HasPrefix(f.Func, "runtime.") {
		return false
	}
	for _, p := range []string{"runtime.", "testing.", "sync.", "internal/", "sync/atomic.", "time.", "os."} {
		if strings.HasPrefix(f.Func, p) {
			return false
		}
	}
	if isRTFunc(f.Func) || strings.Contains(f.Func, ".TestInterleaveDriver") {
		return false
	}
	if strings.Contains(file, "/interleavert/") || strings.Contains(file, "/interleave-rt") {
		return false
	}
	return true
}

// isRTFunc reports whether fn is a function of the injected runtime, which
// the rewriter adds to the module under the package name interleavert.
func isRTFunc(fn string) bool {
	pkg := fn
	if i := strings.LastIndex(pkg, "/"); i >= 0 {
		pkg = pkg[i+1:]
	}
	if i := strings.Index(pkg, "."); i >= 0 {
		pkg = pkg[:i]
	}
	return pkg == "interleavert" || pkg == "rt" && strings.Contains(fn, "interleave")
}

// userFrames returns the user frames of frames, innermost first.
func userFrames(frames []checks.Frame) []checks.Frame {
	var out []checks.Frame
	for _, f := range frames {
		if isUserFrame(f) {
			out = append(out, f)
		}
	}
	return out
}

// firstUser returns the first user frame and whether there is one.
func firstUser(frames []checks.Frame) (checks.Frame, bool) {
	for _, f := range frames {
		if isUserFrame(f) {
			return f, true
		}
	}
	return checks.Frame{}, false
}

func frameSite(f checks.Frame) string { return f.File + ":" + strconv.Itoa(f.Line) }

// parseSite splits "file.go:12" (or "file.go:12:3").
func parseSite(s string) (checks.Position, bool) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 {
		return checks.Position{}, false
	}
	n, err := strconv.Atoi(parts[len(parts)-1])
	if err != nil {
		return checks.Position{}, false
	}
	if len(parts) >= 3 {
		if l, err := strconv.Atoi(parts[len(parts)-2]); err == nil {
			return checks.Position{File: strings.Join(parts[:len(parts)-2], ":"), Line: l, Column: n}, true
		}
	}
	return checks.Position{File: strings.Join(parts[:len(parts)-1], ":"), Line: n}, true
}

// raceAccess is one side of a data race report.
type raceAccess struct {
	What   string // "Write at 0x00c000012345 by goroutine 7"
	Frames []checks.Frame
}

// raceReport is one race detector report.
type raceReport struct {
	Index    int // schedule index it was printed during; -1 when outside any
	Text     string
	Accesses []raceAccess
	// Unwinding: printed after the schedule ended, while rt unwound the
	// goroutines still alive (rt.MarkerUnwind).
	Unwinding bool
	// AfterReturn: printed after the schedule's test returned, by what it
	// left running (rt.MarkerReturned).
	AfterReturn bool
}

var raceAccessRE = regexp.MustCompile(`^(Previous )?(?i:(write|read|atomic write|atomic read))\b.* at 0x[0-9a-f]+ by (goroutine \d+|main goroutine):$`)

// parseRace reads the accesses of a race report's text.
func parseRace(text string) raceReport {
	rep := raceReport{Text: text}
	lines := strings.Split(text, "\n")
	var cur *raceAccess
	var block []string
	flush := func() {
		if cur != nil {
			cur.Frames = failurelog.Frames(strings.Join(block, "\n"))
			rep.Accesses = append(rep.Accesses, *cur)
		}
		cur, block = nil, nil
	}
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case raceAccessRE.MatchString(t):
			flush()
			cur = &raceAccess{What: strings.TrimSuffix(t, ":")}
		case strings.HasPrefix(t, "Goroutine ") && strings.HasSuffix(t, ":"):
			flush()
		case cur != nil:
			block = append(block, l)
		}
	}
	flush()
	return rep
}

// raceVerb turns "Previous write at 0x.. by goroutine 7" into "previous write".
func raceVerb(what string) string {
	if i := strings.Index(what, " at 0x"); i > 0 {
		what = what[:i]
	}
	return strings.ToLower(what)
}

// sites returns the first user site of each access.
func (r raceReport) sites() []string {
	var out []string
	for _, a := range r.Accesses {
		if f, ok := firstUser(a.Frames); ok {
			out = append(out, frameSite(f))
		}
	}
	return out
}

var (
	hexRE   = regexp.MustCompile(`0x[0-9a-fA-F]+`)
	digitRE = regexp.MustCompile(`\d+`)
)

// normalizeMessage removes what changes between runs of the same failure:
// addresses, goroutine numbers, counts.
func normalizeMessage(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = hexRE.ReplaceAllString(s, "0x?")
	s = digitRE.ReplaceAllString(s, "#")
	return strings.TrimSpace(s)
}

func sortedUnique(ss []string) []string {
	m := map[string]bool{}
	var out []string
	for _, s := range ss {
		if s != "" && !m[s] {
			m[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// rtOwnFrame returns the frame of interleave's runtime that made access a
// on the runtime's own behalf, if it did: walking out from the access, the
// first frame of the runtime or of the code under test decides. A user
// frame: the code's access. A runtime function that performs the user's
// operation (an exported entry point the rewritten code calls, its
// closures, or one of rt.UserOpHelpers): the user's access through a
// wrapper (the real close, WaitGroup.Add, a range over the user's map). Any
// other runtime function (its shadow tables, timers, a context's timer it
// reads for its clock): the runtime's own.
func rtOwnFrame(a raceAccess) (checks.Frame, bool) {
	for _, f := range a.Frames {
		if isRTFrame(f) {
			if rtUserOp(f.Func) {
				return checks.Frame{}, false
			}
			return f, true
		}
		if isUserFrame(f) {
			return checks.Frame{}, false
		}
	}
	return checks.Frame{}, false
}

// isRTFrame reports whether f is a frame of interleave's runtime.
func isRTFrame(f checks.Frame) bool {
	return isRTFunc(f.Func) || strings.Contains(filepath.ToSlash(f.File), "/interleavert/")
}

// rtUserOp reports whether the runtime function fn (as a stack names it:
// "m/interleavert.Close[...]", "m/interleavert.(*MapIt[...]).Next",
// "m/interleavert.PickSend[...].func1") performs the user's operation.
func rtUserOp(fn string) bool {
	if i := strings.LastIndex(fn, "/"); i >= 0 {
		fn = fn[i+1:]
	}
	if i := strings.Index(fn, "."); i >= 0 {
		fn = fn[i+1:] // the package name
	}
	if i := strings.LastIndex(fn, ")."); i >= 0 {
		fn = fn[i+2:] // a method: its name
	}
	if i := strings.IndexAny(fn, "[."); i >= 0 {
		fn = fn[:i] // type arguments, closures
	}
	if fn == "" {
		return false
	}
	if c := fn[0]; c >= 'A' && c <= 'Z' {
		return true
	}
	return slices.Contains(rt.UserOpHelpers, fn)
}

// toolRace says, for a race report one of whose accesses interleave's
// runtime made on its own behalf (rtOwnFrame), why it is not the code's:
// the tool's own race, for a note, never a finding.
func toolRace(rep raceReport) (string, bool) {
	for i, a := range rep.Accesses {
		if rep.Unwinding && unwound(a) {
			return "not reported: a data race in a deferred function that ran only because interleave unwound a goroutine still blocked when the schedule ended (go test never runs it): " + raceDesc(rep, i, a.Frames[0]), true
		}
	}
	own := -1
	var fr checks.Frame
	for i, a := range rep.Accesses {
		if f, ok := rtOwnFrame(a); ok {
			own, fr = i, f
			break
		}
	}
	if own < 0 {
		return "", false
	}
	return "not reported: a data race of interleave's own runtime (the tool's bug, not the code's; please report it with this note): " + raceDesc(rep, own, fr), true
}

// raceDesc describes rep's access i at frame fr, then each other access
// at its first user frame.
func raceDesc(rep raceReport, i int, fr checks.Frame) string {
	desc := fmt.Sprintf("%s at %s in %s", raceVerb(rep.Accesses[i].What), shortSite(frameSite(fr)), shortFunc(fr.Func))
	for j, a := range rep.Accesses {
		if j == i || len(a.Frames) == 0 {
			continue
		}
		f := a.Frames[0]
		if u, ok := firstUser(a.Frames); ok {
			f = u
		}
		desc += fmt.Sprintf(" and %s at %s in %s", raceVerb(a.What), shortSite(frameSite(f)), shortFunc(f.Func))
	}
	return desc
}

// unwound reports whether access a was made inside a panic that rt raised
// to unwind a goroutine (runtime.gopanic called from rt's frame: the
// race detector's stacks keep no inlined frames, so the panic's caller is
// the entry point the program called, as Recv). go-deadlock v0.3.9's
// TestNormalDeadlockDetection: the deferred restore of a global ran when
// rt unwound the test blocked at its last receive, racing a timer's
// callback that read it.
func unwound(a raceAccess) bool {
	for k := 0; k+1 < len(a.Frames); k++ {
		if a.Frames[k].Func == "runtime.gopanic" {
			return isRTFrame(a.Frames[k+1])
		}
	}
	return false
}
