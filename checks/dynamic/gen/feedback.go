// The sequential check: the generated tests run one call order at a time with plain go test; those that fail so are dropped.

package gen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// feedback writes the sequential version of every package's cases and
// runs them with plain go test (built with tags); the cases whose tests
// pass are kept. With
// baseRoot (the module in a checkout of a change's base commit), the cases
// that fail are run there too, and those that pass there are kept first
// (onBase): the change broke the calls. Every round's go test -timeout is
// what is left until until (zero: none ends them; at least enough for a
// blocking case to fail), and no round after the first starts at or past
// it, once go test's builds, added to built, are taken out: the cases it
// leaves undecided are dropped.
func feedback(ctx context.Context, root, baseRoot string, works []*pkgWork, reports map[*Target]*TypeReport, perType int, tags []string, until time.Time, built *time.Duration) ([]string, error) {
	var paths []string
	for _, w := range works {
		src, err := Render(w.gen, w.pkg.Name, w.cases, Sequential)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(w.dir, FileName), src, 0o644); err != nil {
			return nil, err
		}
		paths = append(paths, w.pkg.PkgPath)
	}
	// Each round runs the cases not decided yet. A case that crashes the
	// process (a panic in a goroutine of the package) leaves the others
	// undecided: after it, each case runs in its own process (goEach).
	// gocron v1.15.0's seven cases that panic in the scheduler's goroutine
	// took a round each, and its restart case, the one that shows the
	// change's bug, was never decided.
	status := map[string]string{} // pkg.Test -> pass, fail, skip, crash
	output := map[string][]byte{}
	each := false
	outOfTime := false
	shapesFirst := true
	for round := 0; ; round++ {
		// go test's builds do not count against until.
		if !anotherRound(round, clock().Add(-*built), until) {
			outOfTime = round < maxFeedbackRounds
			break
		}
		// The shapes first, by themselves, while one is undecided: a
		// random case that crashes the process would cut their wait
		// short round after round (gocron's restart, which blocks for
		// genSequentialTimeout, never got decided).
		var runs []caseRun
		// Alone, a crashing case cuts no other's wait short: all at once.
		shapes := !each && shapesFirst && undecidedShapes(works, status)
		for _, w := range works {
			for _, c := range w.cases {
				if key := w.pkg.PkgPath + "." + c.Name; status[key] == "" && (c.Shape || !shapes) {
					runs = append(runs, caseRun{Pattern: w.pkg.PkgPath, Dir: w.dir, Name: c.Name, Key: key})
				}
			}
		}
		if len(runs) == 0 {
			break
		}
		var (
			st   map[string]string
			outs map[string][]byte
			err  error
		)
		if each {
			st, outs, err = goEach(ctx, root, roundTimeout(clock().Add(-*built), until), tags, runs, built)
		} else {
			st, outs, err = goTestBatches(ctx, root, tags, runs, paths, until, built)
		}
		if err != nil {
			return nil, err
		}
		crashed, left := false, 0
		for _, w := range works {
			for _, c := range w.cases {
				key := w.pkg.PkgPath + "." + c.Name
				if status[key] != "" || shapes && !c.Shape {
					continue
				}
				output[key] = outs[key]
				switch {
				case st[key] != "":
					status[key] = st[key]
				case crashOutput(outs[key]):
					status[key], crashed = "crash", true
				default:
					left++
				}
			}
		}
		if shapes && len(st) == 0 && !crashed {
			// The shapes alone ran nothing (zap's package failed
			// before any of them reported): all cases together, as
			// before.
			shapesFirst = false
			continue
		}
		if crashed || left > 0 {
			// A crash, told by its output or not (cases left without a
			// status): the rest each alone.
			each = true
		}
	}
	var notes []string
	if baseRoot != "" {
		var err error
		if notes, err = onBase(ctx, root, baseRoot, works, status, tags, until, built); err != nil {
			return nil, err
		}
	}
	for _, w := range works {
		for _, c := range w.cases {
			if c.OnBase {
				w.kept = append(w.kept, c)
				reports[c.Target].Kept++
				reports[c.Target].OnBase++
			}
		}
		for _, c := range w.cases {
			key := w.pkg.PkgPath + "." + c.Name
			r := reports[c.Target]
			switch {
			case c.OnBase:
			case status[key] == "pass":
				if r.Kept < perType {
					w.kept = append(w.kept, c)
					r.Kept++
				}
			case status[key] == "" && outOfTime:
				r.Dropped = append(r.Dropped, c.Name+": not decided (the budget of the sequential runs ran out)")
			case status[key] == "":
				r.Dropped = append(r.Dropped, c.Name+": not decided (the process crashed too often)")
			case status[key] == "crash":
				r.Dropped = append(r.Dropped, c.Name+": crashes when run sequentially: "+firstLine(failLine(output[key])))
			default:
				r.Dropped = append(r.Dropped, c.Name+": "+firstLine(failLine(output[key])))
			}
		}
	}
	return notes, nil
}

// seqBatch is how many cases one go test process of the sequential check
// runs. Each count of a case's goroutines (genCount) writes the stacks of
// every goroutine of the process, the tests still waiting in t.Parallel
// too, each with a stack of its own: the corpus's 378 cases in one
// process took 58 s of CPU, in six of at most 63 cases each 15 s.
const seqBatch = 64

// goTestBatches runs runs with go test (goTest), seqBatch cases a process,
// one process after another, each with -timeout what is left until until
// (roundTimeout); a process after the first starts only while a whole
// round would still end by until (anotherRound: the cases of those not
// started stay undecided, and no round follows). It returns the cases'
// statuses and output as goTest does.
func goTestBatches(ctx context.Context, root string, tags []string, runs []caseRun, paths []string, until time.Time, built *time.Duration) (map[string]string, map[string][]byte, error) {
	st, outs := map[string]string{}, map[string][]byte{}
	for i := 0; i < len(runs); i += seqBatch {
		batch := runs[i:min(i+seqBatch, len(runs))]
		if i > 0 && !anotherRound(1, clock().Add(-*built), until) {
			break
		}
		pkgs := map[string]bool{}
		for _, r := range batch {
			pkgs[r.Pattern] = true
		}
		var run []string
		for _, p := range paths {
			if pkgs[p] {
				run = append(run, p)
			}
		}
		s, o, _, err := goTest(ctx, root, roundTimeout(clock().Add(-*built), until), 16, tags, caseNames(batch), run, built)
		if err != nil {
			return nil, nil, err
		}
		maps.Copy(st, s)
		for k, b := range o {
			outs[k] = append(outs[k], b...)
		}
	}
	return st, outs, nil
}

// undecidedShapes reports whether some Shapes case has no status yet.
func undecidedShapes(works []*pkgWork, status map[string]string) bool {
	for _, w := range works {
		for _, c := range w.cases {
			if c.Shape && status[w.pkg.PkgPath+"."+c.Name] == "" {
				return true
			}
		}
	}
	return false
}

// goTest and clock are goTestJSON and time.Now; tests replace them.
var (
	goTest = goTestJSON
	clock  = time.Now
)

// goTestJSON runs go test -json on pkgs in dir for the tests named (with
// tags, -timeout and -parallel as given) and returns each test's final
// action and output (parseTestJSON) and go test's standard error; the
// error is the context's, when it ended the run. The time go test took
// to build, until its first test binary started, is added to built.
func goTestJSON(ctx context.Context, dir, timeout string, parallel int, tags, names, pkgs []string, built *time.Duration) (map[string]string, map[string][]byte, string, error) {
	// -vet=off: the generated calls are the tool's, not the module's (a
	// printf-like method called with a format of no directives, logrus's
	// Logger.Infof("a", 1), fails go test's vet and with it every case).
	args := append([]string{"test", "-count=1", "-json", "-vet=off", "-timeout=" + timeout, fmt.Sprintf("-parallel=%d", parallel)}, tagFlags(tags)...)
	args = append(append(args, "-run", "^("+strings.Join(names, "|")+")$"), pkgs...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	// Once go test exits, a process its tests started that holds the
	// output open does not hold the sequential check up.
	cmd.WaitDelay = testWaitDelay
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	began := time.Now()
	out, _ := cmd.Output()
	if ctx.Err() != nil {
		return nil, nil, "", ctx.Err()
	}
	st, outs, started := parseTestJSON(out)
	*built += buildTime(began, started, time.Now())
	return st, outs, stderr.String(), nil
}

// testWaitDelay is how long goTestJSON waits for go test's output after
// it exited.
const testWaitDelay = 5 * time.Second

// crashOutput: does a test's output show it took its process down (a
// panic in a goroutine, a fatal error)?
func crashOutput(out []byte) bool {
	return bytes.Contains(out, []byte("panic:")) || bytes.Contains(out, []byte("fatal error:"))
}

// maxFeedbackRounds bounds the go test runs of the sequential check.
const maxFeedbackRounds = 6

// sequentialTimeout is genSequentialTimeout of the generated file: a
// blocking case fails after it.
const sequentialTimeout = 10 * time.Second

// roundTimeout is go test's -timeout for a round at now: what is left
// until until (zero: 30m), at least genSequentialTimeout and a few
// seconds, so that a blocking case fails by itself. The first round is no
// exception: many blocking cases wait out genSequentialTimeout a batch of
// -parallel at a time. A case go test's timeout stops crashes (its
// output holds the timeout's panic); the others not run stay undecided.
func roundTimeout(now, until time.Time) string {
	if until.IsZero() {
		return "30m"
	}
	d := max(until.Sub(now), sequentialTimeout+5*time.Second)
	return d.Round(time.Second).String()
}

// anotherRound reports whether the sequential check starts round (from
// 0) at now: the first always, the others below maxFeedbackRounds and
// only when a whole round, one in which a blocking case can fail by
// itself (roundTimeout's least), ends by until (zero: no end). A round
// started just before until ran its 15 s past it: gocron's check took 27 s
// of gen's 29 s and left its search 2 s, too little to run the restart
// case it had kept.
func anotherRound(round int, now, until time.Time) bool {
	return round == 0 || round < maxFeedbackRounds && (until.IsZero() || !now.Add(sequentialTimeout+5*time.Second).After(until))
}

// buildTime is how long go test, run from began to ended, built before
// its first test binary started (all of it when none did).
func buildTime(began, started, ended time.Time) time.Duration {
	if started.IsZero() || started.After(ended) {
		return ended.Sub(began)
	}
	return max(started.Sub(began), 0)
}

// parseTestJSON returns each test's final action and output, keyed by
// package + "." + test ("pkg." holds the package's own output, "build" the
// compiler's), and when the first test binary started (zero when none did).
func parseTestJSON(out []byte) (map[string]string, map[string][]byte, time.Time) {
	status := map[string]string{}
	output := map[string][]byte{}
	var started time.Time
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var ev struct {
			Action, Package, Test, Output string
			Time                          time.Time
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		key := ev.Package + "." + ev.Test
		switch ev.Action {
		case "start":
			if started.IsZero() || ev.Time.Before(started) {
				started = ev.Time
			}
		case "pass", "fail", "skip":
			if ev.Test != "" {
				status[key] = ev.Action
			}
		case "output":
			output[key] = append(output[key], ev.Output...)
		case "build-output":
			output["build"] = append(output["build"], ev.Output...)
		}
	}
	return status, output, started
}

// failLine picks the line of a test's output that says why it failed.
func failLine(out []byte) string {
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(l)
		if strings.Contains(l, "when run sequentially") || strings.HasPrefix(l, "panic:") {
			// Without the file:line prefix of t.Fatalf.
			if i := strings.Index(l, ": "); i >= 0 && strings.Contains(l[:i], ".go:") {
				return l[i+2:]
			}
			return l
		}
	}
	if strings.Contains(string(out), "test timed out") {
		return "blocks when run sequentially"
	}
	return "fails when run sequentially"
}
