package failurelog

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/interleave-dev/interleave/checks"
)

// TopFrames is how many in-module frames of a goroutine its signature
// keeps: where it was (function, file and line) and the functions that
// called it there.
const TopFrames = 3

// InModule returns the test of whether a frame's function belongs to the
// module with path mod (an external test package "mod/pkg_test" counts).
func InModule(mod string) func(checks.Frame) bool {
	return func(fr checks.Frame) bool {
		pkg := strings.TrimSuffix(FuncPackage(fr.Func), "_test")
		return pkg != "" && (pkg == mod || strings.HasPrefix(pkg, mod+"/"))
	}
}

// Signature is what a reproduction must show to be the failure of the
// log: its kind (and message, for panics and fatal errors) and, for each
// goroutine involved, its top in-module frames.
type Signature struct {
	Kind    Kind
	Message string // normalized; "" when the kind needs none
	Site    string // a test failure's "file.go:line"
	// Subtest is the subtest path the log names for a test failure
	// ("TestX/case_1"): with Drift, a message logged a few lines off the
	// log's Site must be this subtest's.
	Subtest string
	Stacks  [][]checks.Frame // per involved goroutine with in-module frames, its top ones
	// Detail is text the failure's message must hold anywhere, spaces
	// collapsed: a testify assertion's Error: line, which is not its first.
	Detail string
	// Expected and Actual are the values a testify assertion compared, as
	// it printed them (AssertionValues): the failure is one that shows
	// the same values, in either of testify's formats.
	Expected, Actual string
	// Numbers is a test failure's message (its first line) when it has
	// numbers: Match pairs them with the finding's (numbersAgree), so a
	// count measured may differ, an expected value or an index may not.
	Numbers string
	// Drift is how many lines a goroutine's top frame, or a test
	// failure's Site, may be away from the log's, in the same function
	// and file: a log from another commit than the checkout (0: the
	// same line).
	Drift int
	// Late is set for a goroutine that failed or logged through a test
	// that had completed: the top-level test the message names. Which
	// test of its tree go test names, and whether as a failure or a log,
	// depends on what else was still running, so only this counts.
	Late string
}

// loggedAtRE finds where the testing package says a message was logged:
// "x_test.go:12: " before it.
var loggedAtRE = regexp.MustCompile(`(\S+\.go):(\d+): `)

// siteNear reports whether a test failure's first logged message (the
// same message: Match checks it first) was logged in the file of the
// log's Site, at most Drift lines away, by the subtest the log names if
// it names one: the log's assertion in code a few lines off the
// checkout's.
func (s Signature) siteNear(fd checks.Finding) bool {
	i := strings.LastIndexByte(s.Site, ':')
	if s.Drift <= 0 || i < 0 {
		return false
	}
	file := s.Site[:i]
	line, err := strconv.Atoi(s.Site[i+1:])
	if err != nil {
		return false
	}
	if s.Subtest != "" && fd.Test != s.Subtest && !strings.HasPrefix(fd.Message, s.Subtest+": ") {
		return false
	}
	// The first message the test logged: the one that failed it, unless
	// it logged before (then this is no match, as with frames off the
	// log's function).
	m := loggedAtRE.FindStringSubmatch(fd.Message)
	if m == nil || path.Base(m[1]) != path.Base(file) {
		return false
	}
	n, err := strconv.Atoi(m[2])
	d := n - line
	return err == nil && d >= -s.Drift && d <= s.Drift
}

// lateAnyRE finds the testing package's late-failure panic in a message.
var lateAnyRE = regexp.MustCompile(`(?:Fail|Log) in goroutine after (\S+) has completed`)

// Signature returns f's signature; inModule tells the frames of the
// module under test.
func (f *Failure) Signature(inModule func(checks.Frame) bool) Signature {
	s := Signature{Kind: f.Kind, Site: f.Site}
	if f.Kind == TestFailure {
		s.Subtest = f.Subtest
	}
	switch f.Kind {
	case Panic, Fatal, TestFailure:
		s.Message = normalize(f.Message)
	}
	if f.Kind == TestFailure && hasNumbers(f.Message) {
		s.Numbers = strings.TrimSpace(firstLine(f.Message))
	}
	if f.Kind == TestFailure && f.Detail != "" {
		s.Message, s.Detail, s.Numbers = "", collapse(f.Detail), ""
		if head, exp, act, ok := AssertionValues(f.Detail); ok {
			s.Detail, s.Expected, s.Actual = collapse(head), exp, act
		}
	}
	if m := lateRE.FindStringSubmatch(f.Message); m != nil && f.Kind == Panic {
		s.Message, s.Late = "", topLevel(m[1])
	}
	for _, g := range f.Involved {
		if top := topFrames(g.Frames, inModule); len(top) > 0 {
			s.Stacks = append(s.Stacks, top)
		}
	}
	return s
}

// Targets returns the "file.go:line" sites of the signature's frames, the
// places where a search should preempt first.
func (s Signature) Targets() []string {
	seen := map[string]bool{}
	var out []string
	add := func(site string) {
		if site != "" && !seen[site] {
			seen[site] = true
			out = append(out, site)
		}
	}
	add(s.Site)
	for _, st := range s.Stacks {
		for _, fr := range st {
			add(baseSite(fr))
		}
	}
	return out
}

func (s Signature) String() string {
	var parts []string
	if s.Late != "" {
		parts = append(parts, "a goroutine failing "+s.Late+" after it completed")
	}
	switch {
	case s.Numbers != "":
		parts = append(parts, fmt.Sprintf("%q", s.Numbers))
		if d := describeNumbers(s.Numbers); d != "" {
			parts = append(parts, "("+d+")")
		}
	case s.Message != "":
		parts = append(parts, fmt.Sprintf("%q", s.Message))
	}
	if s.Detail != "" {
		parts = append(parts, fmt.Sprintf("with %q", s.Detail))
	}
	if s.Expected != "" || s.Actual != "" {
		parts = append(parts, fmt.Sprintf("expected %s, actual %s", s.Expected, s.Actual))
	}
	if s.Site != "" {
		parts = append(parts, "at "+s.Site)
	}
	for _, st := range s.Stacks {
		parts = append(parts, "["+stackString(st)+"]")
	}
	switch {
	case len(parts) > 0:
		return string(s.Kind) + " " + strings.Join(parts, " ")
	case s.Kind == Timeout:
		return "timeout (any hang of the test)"
	}
	return string(s.Kind)
}

func stackString(st []checks.Frame) string {
	var fs []string
	for i, fr := range st {
		if i == 0 {
			fs = append(fs, shortFunc(fr.Func)+" at "+baseSite(fr))
		} else {
			fs = append(fs, shortFunc(fr.Func))
		}
	}
	return strings.Join(fs, " < ")
}

func shortFunc(fn string) string {
	if i := strings.LastIndexByte(fn, '/'); i >= 0 {
		return fn[i+1:]
	}
	return fn
}

// topFrames returns the first TopFrames in-module frames of a stack.
func topFrames(frames []checks.Frame, inModule func(checks.Frame) bool) []checks.Frame {
	var out []checks.Frame
	for _, fr := range frames {
		if inModule(fr) {
			out = append(out, fr)
			if len(out) == TopFrames {
				break
			}
		}
	}
	return out
}

// kinds maps a log's failure kind to the kinds of the controlled search's
// findings that are the same failure: a test that times out in the log is
// one whose goroutines all block (or one stuck) under the scheduler.
var kinds = map[Kind][]checks.FailureKind{
	Panic:       {checks.Panic},
	Fatal:       {checks.Fatal},
	DataRace:    {checks.DataRace},
	Timeout:     {checks.Deadlock, checks.Fatal},
	Deadlock:    {checks.Deadlock},
	TestFailure: {checks.TestFailure},
}

// Match reports whether a finding of the controlled search is the failure
// s describes; when not, why says the first difference.
func (s Signature) Match(fd checks.Finding, inModule func(checks.Frame) bool) (ok bool, why string) {
	kindOK := false
	for _, k := range kinds[s.Kind] {
		kindOK = kindOK || fd.Kind == k
	}
	if !kindOK {
		return false, fmt.Sprintf("a %s, not a %s", fd.Kind, s.Kind)
	}
	if s.Kind == Timeout && fd.Kind == checks.Fatal && !isHang(fd.Message) {
		return false, "a fatal error, not a goroutine that never returns"
	}
	if s.Late != "" {
		m := lateAnyRE.FindStringSubmatch(firstLine(fd.Message))
		if m == nil || topLevel(m[1]) != s.Late {
			return false, fmt.Sprintf("message %q, not a goroutine failing %s after it completed", firstLine(fd.Message), s.Late)
		}
	}
	if s.Message != "" && !strings.Contains(normalize(fd.Message), s.Message) {
		return false, fmt.Sprintf("message %q, not %q", firstLine(fd.Message), s.Message)
	}
	if s.Numbers != "" && !numbersAgree(s.Numbers, fd.Message) {
		return false, fmt.Sprintf("message %q, not one with the numbers of %q", firstLine(fd.Message), s.Numbers)
	}
	if s.Detail != "" && !strings.Contains(collapse(fd.Message), s.Detail) {
		return false, fmt.Sprintf("message %q, not one with %q", firstLine(fd.Message), s.Detail)
	}
	if (s.Expected != "" || s.Actual != "") && !valuesShown(fd.Message, s.Expected, s.Actual) {
		return false, fmt.Sprintf("message %q, not one with expected %s, actual %s", firstLine(fd.Message), s.Expected, s.Actual)
	}
	if s.Site != "" && !strings.Contains(fd.Message, s.Site+": ") && !s.siteNear(fd) {
		// The testing package prefixes a test's message with where it
		// was logged.
		return false, fmt.Sprintf("logged %q, not at %s", firstLine(fd.Message), s.Site)
	}
	var stacks [][]checks.Frame
	for _, g := range fd.Goroutines {
		if top := topFrames(g.Stack, inModule); len(top) > 0 {
			stacks = append(stacks, top)
		}
	}
	switch s.Kind {
	case Panic, Fatal:
		// The goroutine that failed: one of the finding's has its stack.
		if len(s.Stacks) == 0 {
			return true, ""
		}
		if len(stacks) == 0 {
			// A process that died gives only where: the top frame.
			got := baseSite(checks.Frame{File: fd.Pos.File, Line: fd.Pos.Line})
			if fd.Pos.IsValid() && got == baseSite(s.Stacks[0][0]) {
				return true, ""
			}
			return false, fmt.Sprintf("failed at %s, not %s", got, baseSite(s.Stacks[0][0]))
		}
		for _, st := range stacks {
			if sameStack(s.Stacks[0], st, s.Drift) {
				return true, ""
			}
		}
		return false, fmt.Sprintf("failing goroutine not at [%s]", stackString(s.Stacks[0]))
	case DataRace, Deadlock:
		return sameStacks(s.Stacks, stacks, s.Drift)
	case Timeout:
		if len(s.Stacks) == 0 {
			// The log shows none of the hang's goroutines (cut, or only
			// live ones): any hang of the test is the log's.
			return true, ""
		}
		if fd.Kind == checks.Deadlock {
			return sameStacks(s.Stacks, stacks, s.Drift)
		}
		// A goroutine that never reaches its next scheduling point: it
		// must be one of the log's, in the same function.
		for _, st := range stacks {
			for _, want := range s.Stacks {
				if funcKey(st[0].Func) == funcKey(want[0].Func) {
					return true, ""
				}
			}
		}
		return false, "the goroutine stuck is none of the log's"
	}
	return true, ""
}

func isHang(msg string) bool {
	return strings.Contains(msg, "hang: ") || strings.Contains(msg, "livelock")
}

// sameStacks compares the involved goroutines as multisets of stacks
// (sameStack pairs them).
func sameStacks(want, got [][]checks.Frame, drift int) (bool, string) {
	used := make([]bool, len(got))
	ok := len(want) == len(got)
	for _, w := range want {
		found := false
		for i, g := range got {
			if !used[i] && sameStack(w, g, drift) {
				used[i], found = true, true
				break
			}
		}
		ok = ok && found
	}
	if ok {
		return true, ""
	}
	var ws []string
	for _, st := range want {
		ws = append(ws, "["+stackString(st)+"]")
	}
	var gs []string
	for _, st := range got {
		gs = append(gs, "["+stackString(st)+"]")
	}
	return false, fmt.Sprintf("goroutines %s, not %s", strings.Join(gs, " "), strings.Join(ws, " "))
}

// stackKey is what two stacks must share: the top frame's function, file
// and line, and the callers' functions, closure numbers dropped. Only as
// many frames as both have count, and at least one.
func stackKey(st []checks.Frame) string {
	var parts []string
	for i, fr := range st {
		fn := funcKey(fr.Func)
		if i == 0 {
			parts = append(parts, fn+"@"+baseSite(fr))
		} else {
			parts = append(parts, fn)
		}
	}
	return strings.Join(parts, "<")
}

// sameStack compares two stacks by stackKey over the frames both have;
// with drift > 0 the top frames' lines may differ by up to drift.
func sameStack(a, b []checks.Frame, drift int) bool {
	n := min(len(a), len(b))
	if n == 0 {
		return false
	}
	if stackKey(a[:n]) == stackKey(b[:n]) {
		return true
	}
	if drift <= 0 || stackKey(a[1:n]) != stackKey(b[1:n]) || funcKey(a[0].Func) != funcKey(b[0].Func) {
		return false
	}
	fa, fb := a[0], b[0]
	fa.Line, fb.Line = 0, 0
	d := a[0].Line - b[0].Line
	return baseSite(fa) == baseSite(fb) && d >= -drift && d <= drift
}

// closureSegRE is one numbered element of a function literal's name:
// "func2", "gowrap1", or "1" in a literal of an inlined function.
var closureSegRE = regexp.MustCompile(`^(?:func|gowrap)?\d+$`)

// funcKey names a function the same way whether or not the compiler
// inlined the function that holds it: a function literal in submit is
// "pkg.submit.func1", or "pkg.TestX.func1.submit.1" once submit is inlined
// into TestX's literal (an instrumented build inlines more: a go
// statement becomes a call). Both are "pkg.submit.func"; other
// functions keep their name.
func funcKey(fn string) string {
	pkg := FuncPackage(fn)
	rest := fn
	if pkg != "" {
		rest = fn[len(pkg)+1:]
	}
	segs := strings.Split(rest, ".")
	if !closureSegRE.MatchString(segs[len(segs)-1]) {
		return fn
	}
	named := ""
	for i, sg := range segs {
		if !closureSegRE.MatchString(sg) {
			named = sg
			if i > 0 && strings.HasPrefix(segs[i-1], "(") {
				named = segs[i-1] + "." + sg // a method's receiver
			}
		}
	}
	if pkg == "" {
		return named + ".func"
	}
	return pkg + "." + named + ".func"
}

var (
	hexRE   = regexp.MustCompile(`0x[0-9a-fA-F]+`)
	digitRE = regexp.MustCompile(`\d+`)
)

// normalize keeps a message's first line without what changes between
// runs (addresses, numbers) and without the "panic: " of a traceback.
// collapse normalizes a message's numbers and addresses as normalize does,
// and its runs of white space to one space.
func collapse(s string) string {
	s = hexRE.ReplaceAllString(s, "0x?")
	s = digitRE.ReplaceAllString(s, "#")
	return strings.Join(strings.Fields(s), " ")
}

func normalize(s string) string {
	s = firstLine(s)
	s = strings.TrimSuffix(s, " [recovered]")
	s = strings.TrimPrefix(s, "panic: ")
	s = hexRE.ReplaceAllString(s, "0x?")
	s = digitRE.ReplaceAllString(s, "#")
	return strings.TrimSpace(s)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
