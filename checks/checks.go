// Package checks holds the vocabulary every interleave check speaks: the
// Finding, its positions and evidence, and the registry of stable rule IDs.
//
// Static passes (checks/static) and the dynamic search (checks/dynamic) both
// produce Findings; report/ renders them; report/github posts them.
package checks

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Severity orders findings; the zero value is Note.
type Severity int

const (
	Note Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Note:
		return "note"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("Severity(%d)", int(s))
}

// ParseSeverity accepts note, warning and error.
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "note":
		return Note, nil
	case "warning":
		return Warning, nil
	case "error":
		return Error, nil
	}
	return 0, fmt.Errorf("unknown severity %q: valid values are note, warning, error", s)
}

// MarshalText writes the severity's name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity's name.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	*s = v
	return err
}

// Evidence says how a finding was established.
type Evidence string

const (
	Static    Evidence = "static"    // reported by a static pass
	Dynamic   Evidence = "dynamic"   // observed under the controlled scheduler
	Confirmed Evidence = "confirmed" // a static finding that a replayed schedule reproduced
)

// FailureKind classifies a dynamic failure.
type FailureKind string

const (
	Panic       FailureKind = "panic"
	TestFailure FailureKind = "test-failure"
	Deadlock    FailureKind = "deadlock"
	Leak        FailureKind = "leak"
	DataRace    FailureKind = "data-race"
	Fatal       FailureKind = "fatal"
)

// FailureKinds lists every dynamic failure kind in report order.
var FailureKinds = []FailureKind{Panic, TestFailure, Deadlock, Leak, DataRace, Fatal}

// Position is a source range. File is as the tool saw it (absolute or
// relative to the working directory); reporters make it repository-relative.
// Line and Column are 1-based; End* are zero when unknown.
type Position struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column,omitempty"`
	EndLine   int    `json:"endLine,omitempty"`
	EndColumn int    `json:"endColumn,omitempty"`
}

// IsValid reports whether p names a file and a line.
func (p Position) IsValid() bool { return p.File != "" && p.Line > 0 }

// Less orders positions by file, line, then column.
func (p Position) Less(q Position) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Column < q.Column
}

func (p Position) String() string {
	if p.Column > 0 {
		return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

// Related is a secondary location: the other access, the other acquisition.
type Related struct {
	Position
	Message string `json:"message"`
}

// Frame is one stack frame of a goroutine.
type Frame struct {
	Func string `json:"func"`
	File string `json:"file"`
	Line int    `json:"line"`
}

// Goroutine is one goroutine's state when a dynamic failure happened.
type Goroutine struct {
	ID    string  `json:"id"`              // logical identity, stable across replays ("g0", "g3")
	State string  `json:"state,omitempty"` // the operation it was blocked on, or "running"
	Site  string  `json:"site,omitempty"`  // file:line of that operation
	Stack []Frame `json:"stack,omitempty"` // innermost first
}

// Finding is one problem reported by any check.
type Finding struct {
	Rule       string      `json:"rule"` // stable ID, e.g. IL1001
	Severity   Severity    `json:"severity"`
	Message    string      `json:"message"`
	Pos        Position    `json:"pos"`
	Related    []Related   `json:"related,omitempty"`
	Evidence   Evidence    `json:"evidence"`
	Package    string      `json:"package,omitempty"` // import path
	Func       string      `json:"func,omitempty"`    // enclosing function, for the fingerprint
	Snippet    string      `json:"snippet,omitempty"` // source text of the primary line
	Kind       FailureKind `json:"kind,omitempty"`    // dynamic only
	Test       string      `json:"test,omitempty"`    // dynamic only: the test that failed
	Goroutines []Goroutine `json:"goroutines,omitempty"`
	Schedule   string      `json:"schedule,omitempty"` // path of the schedule file that replays it
	Replay     string      `json:"replay,omitempty"`   // the command that replays it
	// Baseline is how the finding relates to the base commit of a pull
	// request, as SARIF's baselineState: BaselineNew, BaselineUnchanged,
	// or "" when not compared.
	Baseline string `json:"baselineState,omitempty"`
	// ReplayToken is the schedule itself, encoded for `interleave replay
	// -s TOKEN`, so that it replays where the file is not.
	ReplayToken string `json:"replayToken,omitempty"`
	// Interleaving tells a dynamic finding's schedule in source terms.
	Interleaving *Interleaving `json:"interleaving,omitempty"`
	// SameCause lists the other failures of this finding's cause (group.go).
	SameCause []Occurrence `json:"sameCause,omitempty"`
	// Frequency and PlainGo label a dynamic finding: how often its test
	// failed this way under the scheduler, and what plain go test did.
	Frequency *Frequency `json:"frequency,omitempty"`
	PlainGo   *PlainGo   `json:"plainGoTest,omitempty"`
	// Replays, when set, says that its schedule, replayed alone in fresh
	// processes, reproduced it on some of the replays only; its Replay
	// line then replays up to ReplayRate.ReplayTries times.
	Replays *ReplayRate `json:"replays,omitempty"`
	// NotReplayed, when set, says why its schedule was not replayed in a
	// fresh process before it was reported (NotReplayedNoTime: the
	// budget ended first): its Replay line is the check still to run.
	NotReplayed string `json:"notReplayed,omitempty"`
	// EarlyTimers, when set, says that the failure needs timers to fire
	// early: its schedule moves the clock to a deadline while goroutines
	// that could run have not run (repro only, for the failure its log
	// shows).
	EarlyTimers *EarlyTimers `json:"earlyTimers,omitempty"`
	// AfterEarlier, when set, says that the failure needs state that
	// schedules of its test run before it in the same process left
	// (package variables): its schedule file carries them and its
	// replay runs them first.
	AfterEarlier *AfterEarlier `json:"afterEarlier,omitempty"`
	// AfterReturn says that the failure (a data race) happened after its
	// test returned, in goroutines the test left running: go test meets
	// it only while its process runs on (later tests, -count).
	AfterReturn bool `json:"afterReturn,omitempty"`
	// DrawsOnly says that the only choices of the failing schedule were
	// random draws and map orders, which its seed fixes: the values
	// drawn decided it, not the order of goroutines.
	DrawsOnly bool `json:"drawsOnly,omitempty"`
	// Unperturbed says that the failing schedule is the unperturbed one:
	// the program's own order, nothing preempted, nothing chosen.
	Unperturbed bool `json:"unperturbed,omitempty"`
}

// AfterEarlier is how many earlier runs in its process a failure needs.
type AfterEarlier struct {
	Schedules int `json:"schedules"` // schedules run first, in one process
	// Tests are the other tests among them (a batch process runs a
	// package's tests one after another, as go test does), in order;
	// none when all are runs of the failing test.
	Tests []string `json:"tests,omitempty"`
}

// Label is the earlier runs for people.
func (a *AfterEarlier) Label() string {
	if len(a.Tests) > 0 {
		return fmt.Sprintf("needs state that %d earlier %s left in the process, of %s run before it (a batch process runs some of a package's tests one after another, in go test's order): not when it runs alone, its replay runs them first", a.Schedules, Plural(a.Schedules, "schedule"), strings.Join(a.Tests, ", "))
	}
	return fmt.Sprintf("needs state that %d earlier %s of the test left in the process (as go test -count=%d would run it): not on a first run, its replay runs them first", a.Schedules, Plural(a.Schedules, "run"), a.Schedules+1)
}

// EarlyTimers is how a failure needs the clock to jump early.
type EarlyTimers struct {
	Jumps int `json:"jumps"` // early clock jumps in its schedule
	// Moves tell the jumps of its (shrunk) schedule: the timed waits each
	// ended and the goroutines that could still run.
	Moves []EarlyMove `json:"moves,omitempty"`
	// FromLog is set on repro's: the log shows plain go test failing so.
	FromLog bool `json:"fromLog,omitempty"`
	// Searched is set on test's and pr's findings: no failing schedule
	// of it without an early jump was found.
	Searched bool `json:"searched,omitempty"`
}

// EarlyMove is one early jump of the clock: what it ended before whom.
type EarlyMove struct {
	Ended  []EndedWait `json:"ended"`
	Passed []PassedG   `json:"passed,omitempty"`
}

// EndedWait is a timed wait an early jump ended.
type EndedWait struct {
	G  string `json:"g"`  // the waiting goroutine ("g0"), or an AfterFunc's callback
	Op string `json:"op"` // time.Sleep, time.After, timer, ticker, AfterFunc
	// Site is where the goroutine waited, Armed where its timer was made
	// or reset (file.go:line); Duration the sleep's or timer's.
	Site     string `json:"site,omitempty"`
	Armed    string `json:"armed,omitempty"`
	Duration string `json:"duration,omitempty"`
	// InTest: the wait is in a _test.go file (the test's own).
	InTest bool `json:"inTest,omitempty"`
	// Own: no goroutine waited on the timer; it fired while G ran on
	// to this operation on it at Site (Timer.Stop, Timer.Reset, select).
	Own string `json:"own,omitempty"`
}

// PassedG is a goroutine that could run when the clock jumped. Site is
// where it was parked, or, not started yet, where it next ran (Next).
type PassedG struct {
	G    string `json:"g"`
	Op   string `json:"op,omitempty"`
	Site string `json:"site,omitempty"`
	Next bool   `json:"next,omitempty"`
}

// Label is the early timers for people.
func (e *EarlyTimers) Label() string {
	if e.FromLog || len(e.Moves) == 0 {
		l := fmt.Sprintf("needs a timer to fire early: the schedule moves the clock %d %s to a sleep's or a timer's deadline before goroutines that could run have run, as a loaded machine can (on an idle machine they would run first)", e.Jumps, Plural(e.Jumps, "time"))
		if len(e.Moves) > 0 {
			l += ": " + e.Moves[0].String()
		}
		return l
	}
	m := e.Moves[0]
	l := "reached when " + m.String()
	if more := len(e.Moves) - 1; more > 0 {
		l += fmt.Sprintf(" (and %d more early %s)", more, Plural(more, "jump"))
	}
	why := "a timeout fired before the work it waits for had run"
	delayed := m.passedNames()
	if w, ok := m.own(); ok {
		why = "the timer fired while its own goroutine ran on to its " + w.Own
		delayed = w.G
	} else if w := m.Ended[0]; w.Op == "time.Sleep" && w.InTest {
		why = "the test uses a sleep as synchronization"
	} else if w.Op == "time.Sleep" {
		why = "the code waits for other goroutines by sleeping"
	}
	l += ": " + why + "; plain go test can fail the same way when a loaded machine delays " + delayed + " that long"
	if e.Searched {
		l += " (no failing schedule without such a jump was found)"
	}
	return l
}

// String tells the move: "g0's time.Sleep(100ms) at a_test.go:12 ended
// while g2 (at a.go:40) could still run".
func (m EarlyMove) String() string {
	var ws, own []string
	for _, w := range m.Ended {
		if w.Own != "" {
			own = append(own, w.String())
		} else {
			ws = append(ws, w.String())
		}
	}
	l := strings.Join(ws, " and ")
	if len(ws) > 0 {
		l += " ended"
	}
	if len(ws) > 0 && len(own) > 0 {
		l += " and "
	}
	l += strings.Join(own, " and ")
	if len(m.Passed) == 0 {
		return l
	}
	var ps []string
	for i, p := range m.Passed {
		if i == maxPassedTold {
			ps = append(ps, fmt.Sprintf("%d more", len(m.Passed)-i))
			break
		}
		switch {
		case p.Site == "":
			ps = append(ps, p.G)
		case p.Next:
			ps = append(ps, fmt.Sprintf("%s (not started; it runs at %s next)", p.G, p.Site))
		default:
			ps = append(ps, fmt.Sprintf("%s (at %s)", p.G, p.Site))
		}
	}
	if len(ws) == 0 {
		return l + "; " + strings.Join(ps, ", ") + " could still run"
	}
	return l + " while " + strings.Join(ps, ", ") + " could still run"
}

// own is the first of m's waits that is a timer fired while its own
// goroutine ran on to it (EndedWait.Own): what a failure after the move
// comes from, rather than a sleep the move ended beside it.
func (m EarlyMove) own() (EndedWait, bool) {
	for _, w := range m.Ended {
		if w.Own != "" {
			return w, true
		}
	}
	return EndedWait{}, false
}

// maxPassedTold bounds the goroutines a label names one by one.
const maxPassedTold = 3

// passedNames is "g2", "g2 and g3", or "the other goroutines".
func (m EarlyMove) passedNames() string {
	var ns []string
	for i, p := range m.Passed {
		if i == maxPassedTold {
			ns = append(ns, fmt.Sprintf("%d more", len(m.Passed)-i))
			break
		}
		ns = append(ns, p.G)
	}
	switch len(ns) {
	case 0:
		return "the other goroutines"
	case 1:
		return ns[0]
	}
	return strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1]
}

// String tells the wait: "g0's time.Sleep(100ms) at a_test.go:12", "g0's
// select at a.go:18 on a 50ms timer made at a.go:17".
func (w EndedWait) String() string {
	d := ""
	if w.Duration != "" {
		d = w.Duration + " "
	}
	switch w.Op {
	case "time.Sleep":
		s := w.G + "'s time.Sleep"
		if w.Duration != "" {
			s += "(" + w.Duration + ")"
		}
		if w.Site != "" {
			s += " at " + w.Site
		}
		return s
	case "AfterFunc":
		s := "the " + d + "AfterFunc"
		if w.Armed != "" {
			s += " armed at " + w.Armed
		}
		return s
	case "context deadline":
		s := "the " + d + "context deadline (context.WithTimeout/WithDeadline"
		if w.Armed != "" {
			s += " at " + w.Armed
		}
		return s + ")"
	}
	if w.Own != "" {
		s := "the " + d + w.Op
		if w.Armed != "" {
			s += " made at " + w.Armed
		}
		s += " fired while " + w.G + " ran on to its " + w.Own
		if w.Site != "" {
			s += " at " + w.Site
		}
		return s
	}
	s := w.G + "'s wait"
	if w.Site != "" {
		s += " at " + w.Site
	}
	s += " on a " + d + w.Op
	if w.Armed != "" {
		s += " made at " + w.Armed
	}
	return s
}

// ReplayRate is how many fresh replays of a finding's schedule reproduced
// it, when not all did: something outside the schedule decides it too.
type ReplayRate struct {
	Reproduced int `json:"reproduced"`
	Tries      int `json:"tries"`
	// Otherwise is what a replay that did not reproduce it did.
	Otherwise string `json:"otherwise,omitempty"`
}

// Label is the replay rate for people.
func (r *ReplayRate) Label() string {
	return fmt.Sprintf("reproduced on %d of %d fresh replays: something outside the schedule (real I/O, real time) also decides it", r.Reproduced, r.Tries)
}

// ReplayTries is how many runs its replay line asks for (interleave
// replay -tries): enough that one reproduces it most likely.
func (r *ReplayRate) ReplayTries() int { return 2*r.Tries + 1 }

// NotReplayedNoTime is Finding.NotReplayed of a failure the search saw
// whose replay the budget left no time for.
const NotReplayedNoTime = "no time left in the budget to replay its schedule in a fresh process; run its replay line"

// NotReplayedLabel is the label of a finding whose schedule was not
// replayed (Finding.NotReplayed says why).
func NotReplayedLabel(why string) string { return "not replayed: " + why }

// Frequency is how many of a test's schedules failed one way.
type Frequency struct {
	Failing   int `json:"failing"`
	Schedules int `json:"schedules"`
	// Unseen counts the schedules left out of Schedules because they
	// could not show the failure: a data race's after its first report
	// in their process (the race detector reports a race once).
	Unseen int `json:"unseen,omitempty"`
	// Inconclusive counts the schedules left out of Schedules because they
	// ended neither passing nor failing (the step bound, a failure after a
	// timer fired early, the budget's end).
	Inconclusive int `json:"inconclusive,omitempty"`
	// PassedOnlyAfterOthers says that the test passed only on schedules
	// run after other tests in their process (tests go test runs before
	// it) and failed this way without them: the order's, not the
	// schedule's.
	PassedOnlyAfterOthers bool `json:"passedOnlyAfterOthers,omitempty"`
}

// Every reports whether every schedule tried failed this way.
func (q *Frequency) Every() bool { return q.Failing >= q.Schedules }

// Label is the frequency for people.
func (q *Frequency) Label() string { return q.label("schedule-dependent") }

// label is Label with dep for what the failing schedules depend on.
func (q *Frequency) label(dep string) string {
	unseen := ""
	if q.Unseen > 0 {
		unseen = fmt.Sprintf("; %d more ran after its report in their process, where the race detector does not report it again", q.Unseen)
	}
	if q.Inconclusive > 0 {
		unseen += fmt.Sprintf("; %d more ended inconclusive", q.Inconclusive)
	}
	if q.Every() {
		if q.Schedules == 1 {
			return "on the one schedule tried" + unseen
		}
		return fmt.Sprintf("on every schedule tried (%d%s)", q.Schedules, unseen)
	}
	if q.PassedOnlyAfterOthers {
		return fmt.Sprintf("on %d of %d schedules (order-dependent: it passed only after other tests ran in its process, as go test runs them before it%s)", q.Failing, q.Schedules, unseen)
	}
	return fmt.Sprintf("on %d of %d schedules (%s%s)", q.Failing, q.Schedules, dep, unseen)
}

// PlainGo is what plain go test (the test alone, -race when the search
// used it) did with a dynamic finding's test.
type PlainGo struct {
	Command string `json:"command,omitempty"` // "go test -race -run '^TestX$'"
	Runs    int    `json:"runs"`              // 0: not run (NotRun says why)
	// Failed counts the runs that exited non-zero the way the finding
	// fails; ExitCode and Failure are the first such run's status and
	// failure line, else those of the first run that exited non-zero.
	Failed   int    `json:"failed"`
	ExitCode int    `json:"exitCode,omitempty"` // -1: killed
	Failure  string `json:"failure,omitempty"`
	NotRun   string `json:"notRun,omitempty"`
	// LeavesSame says that a run exited 0 but left the goroutines of a
	// leak finding behind (plain go test does not report that), or those
	// of a finding that failed its test after it returned (plain go
	// test's process ends first).
	LeavesSame bool `json:"leavesSame,omitempty"`
}

// Fails reports whether plain go test exited non-zero the way the
// finding fails.
func (p *PlainGo) Fails() bool { return p != nil && p.Failed > 0 }

// Label is plain go test's outcome for people.
func (p *PlainGo) Label() string {
	switch {
	case p.Runs == 0:
		return "plain go test not run: " + p.NotRun
	case p.Failed > 0:
		return fmt.Sprintf("plain go test fails too (%d of %d %s of %s: %s: %s)", p.Failed, p.Runs, Plural(p.Runs, "run"), p.Command, ExitStatus(p.ExitCode), p.Failure)
	case p.ExitCode != 0:
		left := ""
		if p.LeavesSame {
			left = ", leaving the same goroutines behind"
		}
		return fmt.Sprintf("plain go test does not fail this way (%d %s of %s; one failed otherwise, %s: %s)%s", p.Runs, Plural(p.Runs, "run"), p.Command, ExitStatus(p.ExitCode), p.Failure, left)
	case p.LeavesSame:
		return fmt.Sprintf("plain go test passes (exit 0, %d %s of %s), leaving the same goroutines behind", p.Runs, Plural(p.Runs, "run"), p.Command)
	}
	return fmt.Sprintf("plain go test passes (exit 0, %d %s of %s)", p.Runs, Plural(p.Runs, "run"), p.Command)
}

// ExitStatus says how a process ended: "exit 1", or "killed" (code -1).
func ExitStatus(code int) string {
	if code < 0 {
		return "killed"
	}
	return fmt.Sprintf("exit %d", code)
}

// Plural is word, with an "s" unless n is 1: "1 schedule", "2 schedules".
func Plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// OrderDependent reports whether f failed on some schedules only and
// needs state that earlier runs in its process left (AfterEarlier), or
// passed only after other tests ran in its process
// (Frequency.PassedOnlyAfterOthers): what decides it is what ran before
// it, not only its schedule.
func (f *Finding) OrderDependent() bool {
	q := f.Frequency
	return q != nil && q.Schedules > 0 && !q.Every() && (f.AfterEarlier != nil || q.PassedOnlyAfterOthers)
}

// DrawsOnlyLabel is Finding.DrawsOnly for people.
const DrawsOnlyLabel = "not the order of goroutines: its schedule's only choices were random draws (math/rand) and map orders, which the seed fixes and go test draws anew on each run"

// AfterReturnLabel is Finding.AfterReturn for people.
const AfterReturnLabel = "after the test returned, in goroutines it left running (go test's process meets it only if it runs on that long: later tests, -count)"

// Labels are a dynamic finding's labels, for people ("" when none).
func (f *Finding) Labels() string {
	var parts []string
	if q := f.Frequency; q != nil && q.Schedules > 0 {
		if f.OrderDependent() && f.AfterEarlier != nil {
			// groupcache's tests fail on each run after the first in a
			// process, whatever the schedule: "schedule-dependent" misled.
			parts = append(parts, fmt.Sprintf("on %d of %d schedules (order-dependent: after earlier runs in its process)", q.Failing, q.Schedules))
		} else if f.DrawsOnly {
			// The draws differ from schedule to schedule, not the order.
			parts = append(parts, q.label("seed-dependent"))
		} else {
			parts = append(parts, q.Label())
		}
	}
	if f.DrawsOnly {
		parts = append(parts, DrawsOnlyLabel)
	}
	if f.PlainGo != nil {
		parts = append(parts, f.PlainGo.Label())
	}
	if f.Replays != nil {
		parts = append(parts, f.Replays.Label())
	}
	if f.NotReplayed != "" {
		parts = append(parts, NotReplayedLabel(f.NotReplayed))
	}
	if f.EarlyTimers != nil {
		parts = append(parts, f.EarlyTimers.Label())
	}
	if f.AfterEarlier != nil {
		parts = append(parts, f.AfterEarlier.Label())
	}
	if f.AfterReturn {
		parts = append(parts, AfterReturnLabel)
	}
	return strings.Join(parts, "; ")
}

// Interleaving is a failing schedule told as the steps that matter: the
// operations on the objects involved in the failure and the preemptions,
// in the order they happened, then where each goroutine was left.
type Interleaving struct {
	Steps []Step `json:"steps"`
	// Omitted counts earlier steps that were left out to keep it short.
	Omitted int `json:"omitted,omitempty"`
	// Preemptions counts the schedule's preemptions; Original is the count
	// before it was shrunk (0 when it was not).
	Preemptions int `json:"preemptions"`
	Original    int `json:"originalPreemptions,omitempty"`
	// Chosen counts the schedule's selects that took another ready case
	// than the first (Step.Chose), shown or not.
	Chosen int `json:"chosen,omitempty"`
	// End says how it ends, e.g. "deadlock".
	End string `json:"end,omitempty"`
}

// Step is one operation of an Interleaving.
type Step struct {
	G      string `json:"g"`                // goroutine, "g1"
	Verb   string `json:"verb"`             // "locks", "waits to lock", "starts"
	Object string `json:"object,omitempty"` // the operand as written, "from.mu", or the goroutine started
	// Label tells objects apart when one expression names several
	// ("lock A"); Holder is the goroutine holding a lock waited for.
	Label  string `json:"label,omitempty"`
	Holder string `json:"holder,omitempty"`
	Site   string `json:"site,omitempty"` // file.go:line
	// Preempts is the goroutine this step's goroutine preempted to run it.
	Preempts string `json:"preempts,omitempty"`
	// Chose is set on a select that took another ready case than the
	// first, the one the unperturbed schedule takes: a choice the
	// failure may hang on, as Go's runtime picks among ready cases at
	// random.
	Chose bool `json:"chose,omitempty"`
	// Callers, on a preempting or choosing step, are the sites outside
	// test files that called Site, innermost first, space-separated: they
	// tell two callers of one helper apart.
	Callers string `json:"callers,omitempty"`
	// Blocked says the goroutine is still waiting here when the run ends.
	Blocked bool `json:"blocked,omitempty"`
}

// Sentence is the step as a line of the story, in source terms; code
// wraps source text (the object's expression).
func (s Step) Sentence(code func(string) string) string {
	var b strings.Builder
	b.WriteString(s.G + " " + s.Verb)
	if s.Object != "" {
		if strings.HasPrefix(s.Verb, "starts") {
			b.WriteString(" " + s.Object)
		} else {
			b.WriteString(" " + code(s.Object))
		}
	}
	var paren []string
	if s.Label != "" {
		paren = append(paren, s.Label)
	}
	if s.Holder != "" {
		paren = append(paren, "held by "+s.Holder)
	}
	if len(paren) > 0 {
		b.WriteString(" (" + strings.Join(paren, ", ") + ")")
	}
	if s.Site != "" {
		b.WriteString(" at " + s.Site)
	}
	if s.Preempts != "" {
		b.WriteString(", preempting " + s.Preempts)
	}
	return b.String()
}

// Baseline states of a finding (SARIF result.baselineState).
const (
	BaselineNew       = "new"       // does not happen on the base commit
	BaselineUnchanged = "unchanged" // happens on the base commit too
)

// Fingerprint identifies a finding across pushes: rule, package, enclosing
// function and the whitespace-normalized source line, but no line numbers.
// A dynamic finding's function is named as the runtime names it, which for
// a closure of an inlined function names the caller it was inlined into
// (zap's "….With.(*lazyWithCore).initOnce.func1" in one push, "….Check.…"
// in the next); the fingerprint takes the closure's own name (OwnFunc), so
// one closure keeps one fingerprint whichever caller ran it.
func (f *Finding) Fingerprint() string {
	fn := f.Func
	if f.Evidence == Dynamic {
		fn = OwnFunc(fn)
	}
	h := sha256.New()
	for _, s := range []string{f.Rule, f.Package, fn, normalizeSnippet(f.Snippet), string(f.Kind)} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	if f.Snippet == "" && f.Func == "" {
		// Nothing stable to go on: fall back to the message.
		h.Write([]byte(f.Message))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func normalizeSnippet(s string) string { return strings.Join(strings.Fields(s), " ") }

// Sort orders findings by file, line, column, then rule.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		switch a, b := fs[i].Pos, fs[j].Pos; {
		case a.Less(b):
			return true
		case b.Less(a):
			return false
		}
		return fs[i].Rule < fs[j].Rule
	})
}

// Level says whether a rule runs by default.
type Level string

const (
	Default Level = "default" // on unless disabled
	OptIn   Level = "opt-in"  // off unless enabled: useful, but below the precision bar
)

// Rule documents one stable rule ID.
type Rule struct {
	ID       string   // IL1001; never reused
	Slug     string   // unguarded-field
	Title    string   // capitalized phrase, no period
	Text     string   // markdown: why it matters, what to do
	Severity Severity // default severity
	Level    Level
	Since    string // first release that had it
	Removed  bool   // retired: the ID stays reserved
}

var (
	registryMu sync.Mutex
	registry   = map[string]Rule{}
)

// Register adds rules to the registry; a duplicate ID panics at init.
func Register(rules ...Rule) {
	registryMu.Lock()
	defer registryMu.Unlock()
	for _, r := range rules {
		if _, dup := registry[r.ID]; dup {
			panic("checks: duplicate rule ID " + r.ID)
		}
		registry[r.ID] = r
	}
}

// LookupRule finds a rule by ID or slug.
func LookupRule(idOrSlug string) (Rule, bool) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if r, ok := registry[idOrSlug]; ok {
		return r, true
	}
	for _, r := range registry {
		if r.Slug == idOrSlug {
			return r, true
		}
	}
	return Rule{}, false
}

// Rules returns every registered rule sorted by ID.
func Rules() []Rule {
	registryMu.Lock()
	defer registryMu.Unlock()
	out := make([]Rule, 0, len(registry))
	for _, r := range registry {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// DynamicRuleID maps a failure kind to its rule ID.
func DynamicRuleID(k FailureKind) string {
	for i, kk := range FailureKinds {
		if kk == k {
			return dynamicRuleIDs[i]
		}
	}
	return ruleUnknownFailure
}

func init() {
	texts := map[FailureKind][2]string{
		Panic:       {"Panic under a controlled schedule", "A goroutine panicked in one interleaving of this test. Replay the schedule to see it happen, then fix the ordering assumption."},
		TestFailure: {"Test fails under a controlled schedule", "The test's own assertions failed in one interleaving. Replay the schedule; the test is order-dependent."},
		Deadlock:    {"Deadlock under a controlled schedule", "Every goroutine of the test was blocked in one interleaving. The report lists what each was waiting on."},
		Leak:        {"Goroutine leak under a controlled schedule", "The test returned while goroutines it started were still blocked forever in one interleaving."},
		DataRace:    {"Data race under a controlled schedule", "The race detector reported two unsynchronized accesses in one interleaving."},
		Fatal:       {"Fatal runtime error under a controlled schedule", "The test process died (for example concurrent map writes) in one interleaving; the schedule replays it in a fresh process."},
	}
	for _, k := range FailureKinds {
		Register(Rule{ID: DynamicRuleID(k), Slug: string(k), Title: texts[k][0], Text: texts[k][1], Severity: Error, Level: Default, Since: "0.1"})
	}
}
