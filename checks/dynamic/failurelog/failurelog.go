// Package failurelog reads the failures in the output of go test (a CI log):
// a panic trace, a race detector report, a test timeout's goroutine dump,
// the runtime's "all goroutines are asleep" deadlock, another fatal error,
// or a test's own failure message, as text or as go test -json events.
// For each it tells the package and the test that failed and the
// goroutines involved, with their frames, and the signature a reproduction
// must match.
//
// The files: failurelog.go reads a log's failures (Parse) and which test
// each is of; frames.go is the one reader of a Go traceback's frames
// (Frames, on checks.Frame), which explore uses too; signature.go is the
// signature of a failure and its Match with a Finding; testify.go and
// numbers.go are the values a test's message shows and how a match
// compares them.
package failurelog

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks"
)

// Kind is what a failure in a log is: the log's own vocabulary, not
// checks.FailureKind (a log has Timeout; kinds maps one to the other).
type Kind string

const (
	Panic       Kind = "panic"
	Fatal       Kind = "fatal"     // a fatal error other than the deadlock detector's
	DataRace    Kind = "data-race" // WARNING: DATA RACE
	Timeout     Kind = "timeout"   // panic: test timed out after ...
	Deadlock    Kind = "deadlock"  // fatal error: all goroutines are asleep - deadlock!
	TestFailure Kind = "test-failure"
)

// Goroutine is one goroutine a failure shows.
type Goroutine struct {
	ID    int    // runtime goroutine number; 0 when the log does not say
	State string // "running", "sync.Mutex.Lock", or a race access: "write", "previous read"
	// Frames is the goroutine's stack, innermost first.
	Frames []checks.Frame
	// CreatedBy is where the goroutine was started (the race detector
	// gives the whole creating stack, a traceback its last frame), and
	// Creator the goroutine that started it (0 when not said).
	CreatedBy []checks.Frame
	Creator   int
}

// Failure is one failure found in a log.
type Failure struct {
	Kind    Kind
	Message string // its first line, "panic: close of closed channel"
	// Package is the import path of the failing test's package (for an
	// external test package, the package it tests); "" when the log
	// does not tell.
	Package string
	// Test is the top-level test function that failed, "" when the log
	// does not tell, and TestFrom says how it was found.
	Test     string
	TestFrom string
	// Subtest is the subtest path the log names ("TestX/case_1"), when it
	// names one; Test is its top-level test.
	Subtest string
	// Involved are the goroutines the failure is about: the one that
	// panicked, the two racing accesses, or the goroutines of the test
	// that were blocked.
	Involved []Goroutine
	// Goroutines are all the goroutines the log shows for it.
	Goroutines []Goroutine
	// Live are goroutines of a timeout's dump left out of Involved: they
	// had waited less than a minute when others had waited minutes (a
	// ticker's loop, a pool's janitor), so they were not part of the hang.
	Live []Goroutine
	// Site is where a test failure's message was logged ("file.go:12").
	Site string
	// Detail is a testify assertion's Error: text ("Should be true"),
	// which its message holds below the site line.
	Detail string
	// Line is the 1-based line of the log where the failure starts (of
	// the text its events carry, for go test -json output).
	Line int
	// Runs, when above 1, is how many runs of Test in one process the
	// failure may need (go test -count=N): the failing run's number when
	// earlier runs of the test passed in the log, else the -count flag's
	// N (at most MaxRuns); RunsFrom says which.
	Runs     int
	RunsFrom string
	// msgLine is the 1-based log line of a --- FAIL failure's message.
	msgLine int
}

// TestTimeout is the -timeout a Timeout failure's binary ran out of
// ("panic: test timed out after 10m0s"), 0 when the log does not tell.
func (f *Failure) TestTimeout() time.Duration {
	s, ok := strings.CutPrefix(f.Message, "panic: test timed out after ")
	if !ok || f.Kind != Timeout {
		return 0
	}
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d <= 0 {
		return 0
	}
	return d
}

// MaxRuns bounds Failure.Runs taken from a -count flag alone: a stress
// run's -count=100 fails on any run, while what a run leaves for the next
// is met by the second.
const MaxRuns = 2

var (
	tsPrefixRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z ?`)
	ansiRE     = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)
	// ghLinkRE is a line-number link GitHub puts in a log copied from its
	// web view: "testing.go:[178](https://…#step:4:178)8" is testing.go:1788.
	ghLinkRE = regexp.MustCompile(`\[(\d+)\]\(https?://[^)\s]*\)`)
	// ghCmdRE is a GitHub Actions workflow command that starts a line of
	// its log: "##[error]", "##[group]".
	ghCmdRE    = regexp.MustCompile(`^##\[[a-z]+\]`)
	goHeaderRE = regexp.MustCompile(`^goroutine (\d+)(?: [^\[]*)? \[([^\]]*)\]:$`)
	fileLineRE = regexp.MustCompile(`^\s+(\S.*\.go|_testmain\.go|\?):(\d+)(?: \+0x[0-9a-f]+)?(?: fp=.*)?$`)
	createdRE  = regexp.MustCompile(`^created by (\S+)(?: in goroutine (\d+))?$`)
	raceAccRE  = regexp.MustCompile(`^(Previous )?(?i:(write|read|atomic write|atomic read))\b.* at 0x[0-9a-f]+ by (?:goroutine (\d+)|(main) goroutine):$`)
	raceGoRE   = regexp.MustCompile(`^Goroutine (\d+) \(([^)]*)\) created at:$`)
	failLineRE = regexp.MustCompile(`^\s*--- FAIL: (\S+)`)
	// gotestsumRE is gotestsum's header of a failed test's output:
	// "=== FAIL: internal/pkg TestX/sub (0.01s)".
	gotestsumRE = regexp.MustCompile(`^=== FAIL: \S+ (Test\S*) \(`)
	endLineRE   = regexp.MustCompile(`^\s*--- (?:PASS|FAIL|SKIP): `)
	runLineRE   = regexp.MustCompile(`^=== (?:RUN|CONT|PAUSE)\s+(\S+)`)
	pkgLineRE   = regexp.MustCompile(`^(?:FAIL|ok)\s+(\S+)\s+(?:\d|\(cached\)|\[)`)
	passLineRE  = regexp.MustCompile(`^--- PASS: (\S+) `)
	countFlagRE = regexp.MustCompile(`(?:^|\s)-(?:test\.)?count(?:=|\s+)(\d+)(?:\s|$)`)
	runFlagRE   = regexp.MustCompile(`(?:^|\s)-(?:test\.)?run(?:=|\s+)('[^']*'|"[^"]*"|\S+)`)
	logMsgRE    = regexp.MustCompile(`^\s+(\S+\.go):(\d+): (.*)$`)
	runningTest = regexp.MustCompile(`^\s+(\S+) \([^)]*\)$`)
	// A testify assertion's block: "Error Trace:", "Error:", "Test:".
	tfTraceRE = regexp.MustCompile(`^\s*Error Trace:\s*(\S+\.go:\d+)`)
	tfFieldRE = regexp.MustCompile(`^\s*(Error|Test|Messages):\s*(.*)$`)
	siteRE    = regexp.MustCompile(`^\s+(\S+\.go):(\d+):\s*(.*)$`)
	// lateRE is the testing package's panic when a goroutine fails or logs
	// through a test that has completed; it names the test.
	lateRE = regexp.MustCompile(`^panic: (?:Fail|Log) in goroutine after (\S+) has completed`)
)

// clean strips what CI systems add to each line: a timestamp, colours,
// carriage returns.
func clean(l string) string {
	l = strings.TrimRight(l, "\r")
	l = ansiRE.ReplaceAllString(l, "")
	l = ghLinkRE.ReplaceAllString(l, "$1")
	l = tsPrefixRE.ReplaceAllString(l, "")
	return ghCmdRE.ReplaceAllString(l, "")
}

// Parse returns the failures in a log, in the order they appear.
func Parse(log string) []*Failure {
	raw := strings.Split(fromJSON(log), "\n")
	lines := make([]string, len(raw))
	for i, l := range raw {
		lines[i] = clean(l)
	}
	p := &parser{lines: lines}
	p.parse()
	for _, f := range p.out {
		p.identify(f)
	}
	return p.out
}

type parser struct {
	lines []string
	out   []*Failure
	// used marks the lines that belong to a failure already read.
	used map[int]bool
}

func (p *parser) parse() {
	p.used = map[int]bool{}
	for i := 0; i < len(p.lines); i++ {
		l := p.lines[i]
		switch {
		case strings.TrimSpace(l) == "WARNING: DATA RACE":
			i = p.race(i)
		case strings.HasPrefix(l, "panic: test timed out after"):
			i = p.dump(i, Timeout)
		case strings.HasPrefix(l, "fatal error: all goroutines are asleep"):
			i = p.dump(i, Deadlock)
		case strings.HasPrefix(l, "fatal error: "):
			i = p.dump(i, Fatal)
		case strings.HasPrefix(l, "panic: "):
			i = p.dump(i, Panic)
		}
	}
	// Test failures without a trace: "--- FAIL: TestX" followed by the
	// test's own messages, none of them the race detector's echo.
	for i, l := range p.lines {
		m, from := failLineRE.FindStringSubmatch(l), "the --- FAIL line"
		if m == nil {
			m, from = gotestsumRE.FindStringSubmatch(l), "gotestsum's === FAIL line"
		}
		if m == nil || p.used[i] {
			continue
		}
		// The test's first message, indented under its --- FAIL line.
		indent := len(l) - len(strings.TrimLeft(l, " "))
		if i+1 >= len(p.lines) {
			continue
		}
		ml := p.lines[i+1]
		mm, at := logMsgRE.FindStringSubmatch(ml), i+1
		if mm == nil || len(ml)-len(strings.TrimLeft(ml, " ")) <= indent {
			// go test -v prints a test's messages as they come: between
			// its === RUN line and its --- FAIL line.
			mm, at = p.messageBefore(i, m[1])
		}
		if mm == nil || strings.Contains(mm[3], "race detected during execution of test") {
			continue
		}
		f := &Failure{
			Kind: TestFailure, Message: mm[3], Site: mm[1] + ":" + mm[2], Line: i + 1,
			Test: topLevel(m[1]), TestFrom: from, msgLine: at + 1,
		}
		if f.Test != m[1] {
			f.Subtest = m[1]
		}
		p.out = append(p.out, f)
	}
	p.testify()
	sortByLine(p.out)
	p.dedupe()
}

// testify reads testify's assertion blocks ("Error Trace:", "Error:",
// "Test:"), which CI logs and issues often show without the --- FAIL line
// above them: the failure is the block's, at the line that logged it, and
// the test is the one its Test: field names. A --- FAIL failure read from
// the same lines takes the block's message instead.
func (p *parser) testify() {
	for i, l := range p.lines {
		tm := tfTraceRE.FindStringSubmatch(l)
		if tm == nil || p.used[i] {
			continue
		}
		f := &Failure{Kind: TestFailure, Site: tm[1], Line: i + 1}
		if i > 0 {
			if sm := siteRE.FindStringSubmatch(p.lines[i-1]); sm != nil {
				f.Site, f.Line = sm[1]+":"+sm[2], i
			}
		}
		var test string
		for j := i + 1; j < len(p.lines) && j < i+60; j++ {
			fm := tfFieldRE.FindStringSubmatch(p.lines[j])
			if fm == nil {
				if tfTraceRE.MatchString(p.lines[j]) || failLineRE.MatchString(p.lines[j]) || siteRE.MatchString(p.lines[j]) && !strings.HasPrefix(strings.TrimSpace(p.lines[j]), "Error") {
					break
				}
				continue
			}
			switch fm[1] {
			case "Error":
				if f.Detail == "" {
					// With the lines that continue it: an
					// assertion's expected and actual values.
					f.Detail = ErrorField(p.lines[j:min(j+20, len(p.lines))], continues)
				}
			case "Test":
				test = strings.TrimSpace(fm[2])
			}
			if fm[1] == "Test" {
				break
			}
		}
		f.Message = f.Detail
		if test != "" {
			f.Test, f.TestFrom = topLevel(test), "the Test: line of its assertion"
			if test != f.Test {
				f.Subtest = test
			}
		}
		// The same assertion read from its --- FAIL line (below it, or,
		// in go test -v output, above it: the line the message was read
		// from is the block's site line): keep one.
		merged := false
		for _, o := range p.out {
			if o.Kind == TestFailure && o.Site == f.Site && (o.Line <= f.Line && f.Line-o.Line <= 2 || o.msgLine == f.Line) {
				o.Message, o.Detail = f.Message, f.Detail
				if o.Subtest == "" {
					o.Subtest = f.Subtest
				}
				merged = true
			}
		}
		if !merged {
			p.out = append(p.out, f)
		}
	}
}

// continues tells a line that may continue a testify field: indented,
// and not the start of a test's message or of its end.
func continues(l string) bool {
	return l != strings.TrimLeft(l, " \t") && !siteRE.MatchString(l) && !failLineRE.MatchString(l) && !endLineRE.MatchString(l)
}

// messageBefore returns the first message test logged before its --- FAIL
// line at line i, and the index of its line, when the log shows its ===
// RUN (or === CONT) line and no other test ends in between; nil otherwise.
func (p *parser) messageBefore(i int, test string) ([]string, int) {
	start := -1
	for j := i - 1; j >= 0; j-- {
		l := p.lines[j]
		if m := runLineRE.FindStringSubmatch(l); m != nil && m[1] == test {
			start = j
			break
		}
		if endLineRE.MatchString(l) || pkgLineRE.MatchString(l) {
			return nil, -1
		}
	}
	if start < 0 {
		return nil, -1
	}
	for j := start + 1; j < i; j++ {
		if mm := logMsgRE.FindStringSubmatch(p.lines[j]); mm != nil && !p.used[j] {
			return mm, j
		}
	}
	return nil, -1
}

// dedupe keeps the first of failures that are the same failure of the
// same test printed again (go test -count=N repeats them).
func (p *parser) dedupe() {
	seen := map[string]bool{}
	var out []*Failure
	for _, f := range p.out {
		k := string(f.Kind) + "|" + f.Test + "|" + f.Message + "|" + f.Site
		if f.Kind == TestFailure && seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, f)
	}
	p.out = out
}

func sortByLine(fs []*Failure) {
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && fs[j].Line < fs[j-1].Line; j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
}

// race reads the report starting at line i; it returns its last line.
func (p *parser) race(i int) int {
	f := &Failure{Kind: DataRace, Message: "WARNING: DATA RACE", Line: i + 1}
	created := map[int][]checks.Frame{}
	var cur *Goroutine
	var curCreated int
	var block []string
	flush := func() {
		frames := frames(block)
		switch {
		case cur != nil:
			cur.Frames = frames
			f.Involved = append(f.Involved, *cur)
		case curCreated > 0:
			created[curCreated] = frames
		}
		cur, curCreated, block = nil, 0, nil
	}
	end := len(p.lines) - 1
	for j := i + 1; j < len(p.lines); j++ {
		l := p.lines[j]
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "==================") {
			end = j
			break
		}
		if t == "WARNING: DATA RACE" {
			end = j - 1
			break
		}
		if m := raceAccRE.FindStringSubmatch(t); m != nil {
			flush()
			state := strings.ToLower(m[2])
			if m[1] != "" {
				state = "previous " + state
			}
			id, _ := strconv.Atoi(m[3])
			cur = &Goroutine{ID: id, State: state}
			continue
		}
		if m := raceGoRE.FindStringSubmatch(t); m != nil {
			flush()
			curCreated, _ = strconv.Atoi(m[1])
			continue
		}
		block = append(block, l)
	}
	flush()
	for k := range f.Involved {
		g := &f.Involved[k]
		g.CreatedBy = created[g.ID]
	}
	f.Goroutines = f.Involved
	for j := i; j <= end; j++ {
		p.used[j] = true
	}
	if len(f.Involved) > 0 {
		p.out = append(p.out, f)
	}
	return end
}

// dump reads a panic or fatal error and the goroutine dump after it,
// starting at line i; it returns the dump's last line.
func (p *parser) dump(i int, kind Kind) int {
	msg := p.lines[i]
	if kind == Panic {
		// A panic re-raised by the testing package: "panic: x [recovered]"
		// then "\tpanic: x" (and maybe more).
		msg = strings.TrimSuffix(msg, " [recovered]")
		msg = strings.TrimSuffix(msg, " [recovered, repanicked]")
	}
	f := &Failure{Kind: kind, Message: msg, Line: i + 1}
	j := i + 1
	// The lines between the message and the first goroutine: "running
	// tests:" of a timeout, nested panics, "[signal ...]".
	var running []string
	for ; j < len(p.lines) && !goHeaderRE.MatchString(p.lines[j]); j++ {
		l := p.lines[j]
		if kind == Timeout {
			if m := runningTest.FindStringSubmatch(l); m != nil {
				running = append(running, m[1])
			}
		}
		if j-i > 40 || pkgLineRE.MatchString(l) {
			break
		}
	}
	end := j - 1
	for j < len(p.lines) {
		m := goHeaderRE.FindStringSubmatch(p.lines[j])
		if m == nil {
			break
		}
		id, _ := strconv.Atoi(m[1])
		g := Goroutine{ID: id, State: m[2]}
		k := j + 1
		for ; k < len(p.lines); k++ {
			l := p.lines[k]
			if strings.TrimSpace(l) == "" {
				break
			}
			if cm := createdRE.FindStringSubmatch(l); cm != nil {
				fr := checks.Frame{Func: cm[1]}
				if k+1 < len(p.lines) {
					if fm := fileLineRE.FindStringSubmatch(p.lines[k+1]); fm != nil {
						fr.File = fm[1]
						fr.Line, _ = strconv.Atoi(fm[2])
						k++
					}
				}
				g.CreatedBy = []checks.Frame{fr}
				g.Creator, _ = strconv.Atoi(cm[2])
				continue
			}
			if fm := fileLineRE.FindStringSubmatch(l); fm != nil {
				if k > j+1 {
					line, _ := strconv.Atoi(fm[2])
					g.Frames = append(g.Frames, checks.Frame{Func: trimArgs(strings.TrimSpace(p.lines[k-1])), File: fm[1], Line: line})
				}
				continue
			}
			if strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "...") || strings.Contains(l, "(") || strings.HasPrefix(l, "goroutine ") && strings.Contains(l, "gp=") {
				continue // a function line (its file follows), or "...additional frames elided..."
			}
			break
		}
		f.Goroutines = append(f.Goroutines, g)
		end = k - 1
		j = k
		for j < len(p.lines) && strings.TrimSpace(p.lines[j]) == "" {
			j++
		}
	}
	if kind == Timeout && len(running) > 0 {
		f.Test, f.TestFrom = topLevel(running[0]), "the running tests of the timeout"
	}
	for k := i; k <= end; k++ {
		p.used[k] = true
	}
	p.out = append(p.out, f)
	return end
}

// topLevel reduces a subtest name "TestX/case_1" to its test function.
func topLevel(name string) string {
	if i := strings.IndexByte(name, '/'); i >= 0 {
		return name[:i]
	}
	return name
}

// FuncPackage returns the import path of a function as a traceback names
// it: "example.com/m/pkg.(*T).m" is in "example.com/m/pkg".
func FuncPackage(fn string) string {
	slash := strings.LastIndexByte(fn, '/')
	dot := strings.IndexByte(fn[slash+1:], '.')
	if dot < 0 {
		return ""
	}
	return fn[:slash+1+dot]
}

// funcName returns the name after the package: "(*T).m", "TestX.func1".
func funcName(fn string) string {
	pkg := FuncPackage(fn)
	if pkg == "" {
		return fn
	}
	return fn[len(pkg)+1:]
}

// testFunc returns the package and the top-level test function that fn
// belongs to ("pkg.TestX.func1.2" is TestX's), or ok false.
func testFunc(fn string) (pkg, test string, ok bool) {
	pkg = FuncPackage(fn)
	if pkg == "" || pkg == "testing" || strings.HasPrefix(pkg, "runtime") {
		return "", "", false
	}
	name := funcName(fn)
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[:i]
	}
	if !isTestName(name) || name == "TestMain" {
		return "", "", false // TestMain runs the tests, it is none
	}
	return strings.TrimSuffix(pkg, "_test"), name, true
}

// isTestName reports whether name is a test function's: Test, or Test
// followed by a character that is not a lower-case letter.
func isTestName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Test")
	if !ok {
		return false
	}
	return rest == "" || !(rest[0] >= 'a' && rest[0] <= 'z')
}

// identify finds the goroutines involved in f, then its test and package.
func (p *parser) identify(f *Failure) {
	switch f.Kind {
	case Panic, Fatal:
		if len(f.Goroutines) > 0 {
			f.Involved = f.Goroutines[:1]
		}
	case Timeout, Deadlock:
		f.Involved = testGoroutines(f.Goroutines)
	}
	var pkgFromFrames string
	late := false
	if m := lateRE.FindStringSubmatch(f.Message); m != nil && f.Kind == Panic {
		late = true
		// The goroutine outlived its test, which the message names; its
		// frames may be a helper's.
		f.Test, f.TestFrom = topLevel(m[1]), "the panic message"
		if m[1] != f.Test {
			f.Subtest = m[1]
		}
	}
	if f.Kind != TestFailure {
		// The test function in the stacks: the most direct evidence
		// (after the message of a late failure).
		found := false
		for _, g := range f.Involved {
			for _, fr := range append(append([]checks.Frame(nil), g.Frames...), g.CreatedBy...) {
				if pkg, test, ok := testFunc(fr.Func); ok && (!late || f.Test == test) {
					f.Package, found = pkg, true
					if !late {
						f.Test, f.TestFrom = test, "the test function's frame"
					}
					break
				}
			}
			if found {
				break
			}
		}
		for _, g := range f.Involved {
			for _, fr := range g.Frames {
				if pkg := FuncPackage(fr.Func); pkgFromFrames == "" && pkg != "" && !isStd(pkg) && !inModCache(fr.File) {
					pkgFromFrames = strings.TrimSuffix(pkg, "_test")
				}
			}
		}
	}
	if f.Test == "" {
		f.Test, f.TestFrom = p.failLine(f)
	}
	if f.Test == "" {
		f.Test, f.TestFrom = p.lastRun(f.Line - 1)
	}
	if f.Test == "" {
		f.Test, f.TestFrom = p.runFlag()
	}
	if f.Package == "" {
		f.Package = p.pkgLine(f.Line - 1)
	}
	if f.Package == "" {
		f.Package = pkgFromFrames
	}
	if f.Test != "" {
		f.Runs, f.RunsFrom = p.runs(f)
	}
	if f.Kind == Timeout {
		f.Involved, f.Live = splitLive(f.Goroutines, f.Involved)
	}
}

// waitRE is how long a goroutine of a dump had waited, in its state:
// "[chan receive, 7 minutes]". The runtime says so from one minute on,
// once a garbage collection has seen the goroutine waiting.
var waitRE = regexp.MustCompile(`, (\d+) minutes`)

func waitMinutes(state string) int {
	if m := waitRE.FindStringSubmatch(state); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// splitLive splits the goroutines involved in a timeout into those of the
// hang and the live ones. When some goroutine of the dump had waited
// liveMinutes or more (the test had run that long), one waiting without a
// duration had woken in the last minutes: a loop a timer wakes, not a
// goroutine blocked since the test hung (a garbage collection, forced at
// least every two minutes, dates a wait). Running goroutines stay: a busy
// loop may be the hang. A test that hung only in its last minutes loses
// goroutines of its hang so: its signature then matches more hangs of
// the test, not fewer.
func splitLive(all, involved []Goroutine) (hang, live []Goroutine) {
	longest := 0
	for _, g := range all {
		longest = max(longest, waitMinutes(g.State))
	}
	if longest < liveMinutes {
		return involved, nil
	}
	for _, g := range involved {
		st, _, _ := strings.Cut(g.State, ",")
		if waitMinutes(g.State) == 0 && st != "running" && st != "runnable" && st != "syscall" {
			live = append(live, g)
			continue
		}
		hang = append(hang, g)
	}
	return hang, live
}

// liveMinutes is the least wait in a dump that tells goroutines waiting
// without a duration live: beyond the two minutes between forced
// collections.
const liveMinutes = 3

// runs tells whether the failure came on a repeated run of its test in one
// process: the runs of it that passed before it in its package's output,
// else a -count flag in the log.
func (p *parser) runs(f *Failure) (int, string) {
	passed := 0
	for j := f.Line - 2; j >= 0; j-- {
		if pkgLineRE.MatchString(p.lines[j]) {
			break
		}
		if m := passLineRE.FindStringSubmatch(p.lines[j]); m != nil && m[1] == f.Test {
			passed++
		}
	}
	if passed > 0 {
		return passed + 1, fmt.Sprintf("%d earlier %s of %s in the log passed", passed, plural(passed, "run"), f.Test)
	}
	for _, l := range p.lines {
		if m := countFlagRE.FindStringSubmatch(l); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n > 1 {
				return min(n, MaxRuns), "-count=" + m[1] + " in the log"
			}
		}
	}
	return 0, ""
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// failLine looks for "--- FAIL: TestX" from the failure to the end of its
// package's output, or just before it (a panic in the test's own goroutine
// prints its --- FAIL line first).
func (p *parser) failLine(f *Failure) (string, string) {
	from := f.Line - 1
	for j := from; j < len(p.lines); j++ {
		if m := failLineRE.FindStringSubmatch(p.lines[j]); m != nil {
			return topLevel(m[1]), "the --- FAIL line"
		}
		if m := gotestsumRE.FindStringSubmatch(p.lines[j]); m != nil {
			return topLevel(m[1]), "gotestsum's === FAIL line"
		}
		if pkgLineRE.MatchString(p.lines[j]) {
			break
		}
	}
	for j := from - 1; j >= 0 && j >= from-3; j-- {
		if m := failLineRE.FindStringSubmatch(p.lines[j]); m != nil {
			return topLevel(m[1]), "the --- FAIL line"
		}
		if m := gotestsumRE.FindStringSubmatch(p.lines[j]); m != nil {
			return topLevel(m[1]), "gotestsum's === FAIL line"
		}
	}
	return "", ""
}

// lastRun returns the test of the last "=== RUN" line before line i.
func (p *parser) lastRun(i int) (string, string) {
	for j := i - 1; j >= 0; j-- {
		if pkgLineRE.MatchString(p.lines[j]) {
			break
		}
		if m := runLineRE.FindStringSubmatch(p.lines[j]); m != nil {
			return topLevel(m[1]), "the last === RUN line before it"
		}
	}
	return "", ""
}

// runFlag returns the test a -run flag in the log names, when it names
// exactly one.
func (p *parser) runFlag() (string, string) {
	for _, l := range p.lines {
		for _, m := range runFlagRE.FindAllStringSubmatch(l, -1) {
			if t := RunPatternTest(m[1]); t != "" {
				return t, "-run in the log"
			}
		}
	}
	return "", ""
}

// RunPatternTest returns the one test a -run pattern selects, as in
// '^TestX$' or TestX/case, or "" when it selects several or none for sure.
func RunPatternTest(pat string) string {
	pat = strings.Trim(pat, `'"`)
	pat = topLevel(pat)
	pat = strings.TrimPrefix(pat, "^")
	pat = strings.TrimSuffix(pat, "$")
	pat = strings.TrimPrefix(strings.TrimSuffix(pat, ")"), "(")
	pat = strings.TrimPrefix(pat, "^")
	pat = strings.TrimSuffix(pat, "$")
	for _, r := range pat {
		if !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return ""
		}
	}
	if !isTestName(pat) {
		return ""
	}
	return pat
}

// pkgLine returns the package of the first "FAIL pkg" line from line i on.
func (p *parser) pkgLine(i int) string {
	for j := max(i, 0); j < len(p.lines); j++ {
		if m := pkgLineRE.FindStringSubmatch(p.lines[j]); m != nil && strings.HasPrefix(p.lines[j], "FAIL") {
			return m[1]
		}
	}
	return ""
}

// testGoroutines returns the goroutines of a dump that belong to the
// running test: the one running a test function under testing.tRunner and
// those it started, and theirs. Without such a goroutine, every goroutine
// but the testing package's own.
func testGoroutines(gs []Goroutine) []Goroutine {
	in := map[int]bool{}
	tests := map[string]bool{}
	for _, g := range gs {
		for k, fr := range g.Frames {
			if pkg, test, ok := testFunc(fr.Func); ok && k+1 < len(g.Frames) && g.Frames[k+1].Func == "testing.tRunner" {
				in[g.ID] = true
				tests[pkg+"."+test] = true
			}
		}
	}
	if len(in) == 0 {
		var out []Goroutine
		for _, g := range gs {
			if !onlyTesting(g) {
				out = append(out, g)
			}
		}
		return out
	}
	for grew := true; grew; {
		grew = false
		for _, g := range gs {
			if !in[g.ID] && g.Creator != 0 && in[g.Creator] {
				in[g.ID], grew = true, true
			}
		}
	}
	// Before Go 1.21 a traceback does not say which goroutine created
	// one ("created by pkg.TestX" without "in goroutine N"): a goroutine
	// that the running test's own function started is the test's.
	for _, g := range gs {
		if in[g.ID] || g.Creator != 0 || len(g.CreatedBy) == 0 {
			continue
		}
		if pkg, test, ok := testFunc(g.CreatedBy[0].Func); ok && tests[pkg+"."+test] {
			in[g.ID] = true
		}
	}
	var out []Goroutine
	for _, g := range gs {
		if in[g.ID] {
			out = append(out, g)
		}
	}
	return out
}

// inModCache reports whether a frame's file is in the module cache
// (".../pkg/mod/example.com/dep@v1.2.0/x.go"): a dependency's, not the
// failing module's.
func inModCache(file string) bool {
	file = strings.ReplaceAll(file, `\`, "/")
	return strings.Contains(file, "/pkg/mod/") && strings.Contains(file, "@")
}

// onlyTesting reports whether g runs only the testing package's, the
// runtime's or the standard library's code.
func onlyTesting(g Goroutine) bool {
	for _, fr := range g.Frames {
		if pkg := FuncPackage(fr.Func); pkg != "main" && !isStd(pkg) {
			return false
		}
	}
	return true
}

// isStd reports whether an import path is the standard library's, the
// testing harness's or the runtime's: no dot in its first element, and
// one of the roots the standard library has.
func isStd(pkg string) bool {
	first := pkg
	if i := strings.IndexByte(pkg, '/'); i >= 0 {
		first = pkg[:i]
	}
	if strings.Contains(first, ".") {
		return false
	}
	switch first {
	case "runtime", "testing", "sync", "internal", "time", "os", "io", "net", "syscall",
		"context", "fmt", "reflect", "bufio", "bytes", "strings", "strconv", "errors",
		"encoding", "crypto", "math", "sort", "slices", "maps", "unicode", "log",
		"iter", "container", "hash", "path", "regexp", "text", "html", "mime",
		"compress", "archive", "database", "debug", "embed", "expvar", "flag",
		"go", "image", "index", "plugin", "unique", "weak", "structs", "cmp", "vendor":
		return true
	}
	return false
}

// fromJSON turns the events of go test -json (test2json) back into the
// text they carry; a log without such events is returned as it is.
func fromJSON(log string) string {
	if !strings.Contains(log, `"Action":`) {
		return log
	}
	var b strings.Builder
	events := 0
	for _, l := range strings.Split(log, "\n") {
		t := strings.TrimSpace(clean(l))
		if strings.HasPrefix(t, "{") {
			var ev struct{ Action, Output string }
			if json.Unmarshal([]byte(t), &ev) == nil && ev.Action != "" {
				events++
				b.WriteString(ev.Output)
				continue
			}
		}
		b.WriteString(l + "\n")
	}
	if events == 0 {
		return log
	}
	return b.String()
}
