package gen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// Options says what to generate tests for and how long to search them.
type Options struct {
	Dir      string   // inside the module (default: the current directory)
	Patterns []string // package patterns (default ".")
	Types    string   // regexp on type names (default: all that claim safety)
	// Select, when set, keeps only the targets it returns true for (the
	// pull-request job keeps the types its change touches).
	Select  func(*Target) bool
	PerType int   // tests generated per type (default DefaultPerType)
	Seed    int64 // seeds generation and the search
	// The rest is passed to the search as explore.Options.
	Budget       time.Duration
	Strategy     string
	Race         bool
	SchedulesDir string
	// TestsDir is where the file of a package whose generated tests
	// failed is written, as <import path>/FileName (default
	// DefaultTestsDir, relative to Dir).
	TestsDir    string
	Workers     int
	StepTimeout time.Duration
	Progress    func(explore.Stats)
	Stage       func(explore.StageEvent)
}

// DefaultTestsDir is where the generated files that failed go.
const DefaultTestsDir = ".interleave/gen"

// DefaultPerType is how many tests are searched for each type.
const DefaultPerType = 12

// candidates is how many tests are generated per test searched: those that
// fail sequentially are dropped, and the first PerType others kept.
const candidates = 3

// TypeReport says what happened to one target type.
type TypeReport struct {
	Package   string `json:"package"`
	Type      string `json:"type"`
	Claim     string `json:"claim"`
	Pos       string `json:"pos"`
	Generated int    `json:"generated"`
	Kept      int    `json:"kept"` // tests searched: the first that run sequentially
	Findings  int    `json:"findings"`
	// Dropped says why tests were dropped, one line each.
	Dropped []string `json:"dropped,omitempty"`
}

// Repro is the test file of one package, to copy in for go test -race:
// every generated test that was searched, as it was (the schedules name its
// lines, and carry it for replay); Tests are the ones that failed.
type Repro struct {
	Package string // import path
	Dir     string // the package's directory in the user's tree
	Tests   []string
	Source  []byte
	Path    string // where Source was written
}

// Result is a finished run.
type Result struct {
	Types    []TypeReport
	Findings []checks.Finding
	Repros   []Repro
	Stats    explore.Stats
	Notes    []string
}

// keptKinds are the failures gen reports. A leak is not one: the generated
// test joins its goroutines, so a leak is the type's own background
// goroutine, which no interleaving of the calls caused.
var keptKinds = map[checks.FailureKind]bool{
	checks.Panic: true, checks.TestFailure: true, checks.Deadlock: true,
	checks.DataRace: true, checks.Fatal: true,
}

// NoTargetsError is a run with nothing to test.
type NoTargetsError struct{ What string }

func (e *NoTargetsError) Error() string { return e.What }

// pkgWork is the generation for one package.
type pkgWork struct {
	pkg   *packages.Package
	gen   *Generator
	cases []*Case
	kept  []*Case
	dir   string // package directory in the copy
	src   []byte // the file searched
}

// Run generates tests for the types of the packages that claim safety for
// concurrent use, drops those that fail sequentially, and searches the rest
// under the controlled scheduler.
func Run(ctx context.Context, opts Options) (*Result, error) {
	if opts.Dir == "" {
		opts.Dir, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(opts.Dir); err == nil {
		opts.Dir = abs
	}
	if len(opts.Patterns) == 0 {
		opts.Patterns = []string{"."}
	}
	if opts.PerType <= 0 {
		opts.PerType = DefaultPerType
	}
	var typeRE *regexp.Regexp
	if opts.Types != "" {
		re, err := regexp.Compile(opts.Types)
		if err != nil {
			return nil, fmt.Errorf("bad -types pattern: %w", err)
		}
		typeRE = re
	}
	if opts.SchedulesDir == "" {
		opts.SchedulesDir = explore.DefaultSchedulesDir
	}
	if !filepath.IsAbs(opts.SchedulesDir) {
		opts.SchedulesDir = filepath.Join(opts.Dir, opts.SchedulesDir)
	}
	if opts.TestsDir == "" {
		opts.TestsDir = DefaultTestsDir
	}
	if !filepath.IsAbs(opts.TestsDir) {
		opts.TestsDir = filepath.Join(opts.Dir, opts.TestsDir)
	}
	stage := func(name string) func(string) {
		start := time.Now()
		if opts.Stage != nil {
			opts.Stage(explore.StageEvent{Name: name})
		}
		return func(detail string) {
			if opts.Stage != nil {
				opts.Stage(explore.StageEvent{Name: name, Done: true, Took: time.Since(start), Detail: detail})
			}
		}
	}

	end := stage("loading " + strings.Join(opts.Patterns, " "))
	pkgs, modRoot, err := load(ctx, opts.Dir, opts.Patterns)
	if err != nil {
		return nil, err
	}
	var targets []*Target
	for _, t := range Targets(pkgs) {
		if (typeRE == nil || typeRE.MatchString(t.Name.Name())) && (opts.Select == nil || opts.Select(t)) {
			targets = append(targets, t)
		}
	}
	end(fmt.Sprintf("%d type(s) claim safety for concurrent use", len(targets)))
	if len(targets) == 0 {
		return nil, &NoTargetsError{What: "no exported type in " + strings.Join(opts.Patterns, " ") + " is documented as safe for concurrent use (or marked " + Directive + ") with a constructor or usable zero value and callable methods"}
	}

	// A copy of the module, which the generated files are added to.
	end = stage("copying the module to add the generated tests")
	copyRoot, err := os.MkdirTemp("", "interleave-gen-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(copyRoot)
	if err := copyTree(modRoot, copyRoot); err != nil {
		return nil, err
	}
	end("")

	res := &Result{}
	var works []*pkgWork
	byPkg := map[string]*pkgWork{}
	reports := map[*Target]*TypeReport{}
	for _, t := range targets {
		w := byPkg[t.Pkg.PkgPath]
		if w == nil {
			rel, err := filepath.Rel(modRoot, pkgDir(t.Pkg))
			if err != nil || strings.HasPrefix(rel, "..") {
				return nil, fmt.Errorf("%s is not in the module at %s", t.Pkg.PkgPath, modRoot)
			}
			w = &pkgWork{pkg: t.Pkg, gen: NewGenerator(t.Pkg.PkgPath, t.Pkg.Name, opts.Seed+int64(len(works))), dir: filepath.Join(copyRoot, rel)}
			byPkg[t.Pkg.PkgPath] = w
			works = append(works, w)
		}
		// Feedback-directed: more candidates than wanted, of which the
		// first PerType that run sequentially are kept.
		cs := w.gen.Generate(t, candidates*opts.PerType)
		w.cases = append(w.cases, cs...)
		pos := t.Pkg.Fset.Position(t.Pos)
		reports[t] = &TypeReport{Package: t.Pkg.PkgPath, Type: t.Name.Name(), Claim: t.Claim, Pos: fmt.Sprintf("%s:%d", relTo(opts.Dir, pos.Filename), pos.Line), Generated: len(cs)}
	}

	// Feedback: run every case sequentially and keep those that pass.
	n := 0
	for _, w := range works {
		n += len(w.cases)
	}
	end = stage(fmt.Sprintf("running %d generated test(s) sequentially", n))
	if err := feedback(ctx, copyRoot, works, reports, opts.PerType); err != nil {
		return nil, err
	}
	kept := 0
	var patterns []string
	for _, w := range works {
		kept += len(w.kept)
		if len(w.kept) == 0 {
			os.Remove(filepath.Join(w.dir, FileName))
			continue
		}
		src, err := Render(w.gen, w.pkg.Name, w.kept, Concurrent)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(w.dir, FileName), src, 0o644); err != nil {
			return nil, err
		}
		w.src = src
		patterns = append(patterns, w.pkg.PkgPath)
	}
	end(fmt.Sprintf("%d kept", kept))
	for _, t := range targets {
		res.Types = append(res.Types, *reports[t])
	}
	if kept == 0 {
		res.Notes = append(res.Notes, "every generated test fails when run sequentially: nothing to search")
		return res, nil
	}

	// The search.
	er, err := explore.Run(ctx, explore.Options{
		Dir:          copyRoot,
		Patterns:     patterns,
		Run:          "^TestInterleaveGen_",
		Budget:       opts.Budget,
		Strategy:     opts.Strategy,
		Seed:         opts.Seed,
		Race:         opts.Race,
		SchedulesDir: opts.SchedulesDir,
		Workers:      opts.Workers,
		StepTimeout:  opts.StepTimeout,
		Progress:     opts.Progress,
		Stage:        opts.Stage,
	})
	if err != nil {
		var be *explore.BuildError
		if errors.As(err, &be) {
			be.Output = strings.ReplaceAll(be.Output, copyRoot, modRoot)
		}
		return nil, err
	}
	res.Stats = er.Stats
	for _, n := range er.Notes {
		res.Notes = append(res.Notes, strings.ReplaceAll(n, copyRoot, modRoot))
	}
	caseOf := map[string]*Case{}
	for _, w := range works {
		for _, c := range w.kept {
			caseOf[w.pkg.PkgPath+"."+c.Name] = c
		}
	}
	// One finding per type, kind and place in the type's code: the
	// smallest test that shows it.
	type key struct {
		t    *Target
		kind checks.FailureKind
		pos  string
	}
	best := map[key]checks.Finding{}
	var order []key
	dups := map[key]int{}
	for _, f := range er.Findings {
		if !keptKinds[f.Kind] {
			res.Notes = append(res.Notes, fmt.Sprintf("%s: %s not reported (not caused by the interleaving of the generated calls): %s", f.Test, f.Kind, firstLine(f.Message)))
			continue
		}
		c := caseOf[f.Package+"."+f.Test]
		if c == nil {
			continue
		}
		f, err := remap(f, copyRoot, modRoot)
		if err != nil {
			return nil, err
		}
		if f.Schedule != "" && !filepath.IsAbs(f.Schedule) {
			f.Schedule = filepath.Join(copyRoot, f.Schedule)
		}
		// Every schedule of a generated test carries its file, so that
		// it replays in the user's tree.
		if f.Schedule != "" {
			if err := carry(f.Schedule, byPkg[f.Package].src); err != nil {
				return nil, err
			}
		}
		k := key{c.Target, f.Kind, ""}
		if filepath.Base(f.Pos.File) != FileName {
			k.pos = fmt.Sprintf("%s:%d", f.Pos.File, f.Pos.Line)
		}
		old, ok := best[k]
		switch {
		case !ok:
			order = append(order, k)
			best[k] = f
		case c.size() < caseOf[old.Package+"."+old.Test].size():
			best[k] = f
			dups[k]++
		default:
			dups[k]++
		}
	}
	// Every finding must replay: its schedule carries the generated file,
	// and is run again as `interleave replay` runs it, in a fresh process,
	// in the user's module with the file added; one that does not
	// reproduce is a note.
	scheds := map[key]*rt.Schedule{}
	if len(order) > 0 {
		end := stage(fmt.Sprintf("replaying %d finding(s)", len(order)))
		list := make([]*rt.Schedule, 0, len(order))
		var replayable []key
		for _, k := range order {
			f := best[k]
			s, err := explore.ReadSchedule(f.Schedule)
			if err != nil {
				res.Notes = append(res.Notes, fmt.Sprintf("%s: not reported: %v", f.Test, err))
				continue
			}
			scheds[k] = s
			list = append(list, s)
			replayable = append(replayable, k)
		}
		ropts := explore.ReplayOptions{Dir: modRoot, StepTimeout: opts.StepTimeout}
		rrs, errs := explore.ReplayMany(ctx, list, ropts)
		// A second fresh run for those that passed: the race detector's
		// report of the same interleaving is not certain in every run.
		var again []int
		for i := range replayable {
			if errs[i] == nil && rrs[i].Outcome != explore.Reproduced {
				again = append(again, i)
			}
		}
		if len(again) > 0 {
			retry := make([]*rt.Schedule, len(again))
			for j, i := range again {
				retry[j] = list[i]
			}
			rrs2, errs2 := explore.ReplayMany(ctx, retry, ropts)
			for j, i := range again {
				if errs2[j] == nil && rrs2[j].Outcome == explore.Reproduced {
					rrs[i] = rrs2[j]
				}
			}
		}
		order = order[:0]
		for i, k := range replayable {
			f := best[k]
			switch {
			case errs[i] != nil:
				res.Notes = append(res.Notes, fmt.Sprintf("%s: %s not reported: its replay failed: %v", f.Test, f.Kind, errs[i]))
			case rrs[i].Outcome != explore.Reproduced:
				res.Notes = append(res.Notes, fmt.Sprintf("%s: %s not reported: it did not replay (%s)", f.Test, f.Kind, rrs[i].Outcome))
			default:
				order = append(order, k)
			}
		}
		end(fmt.Sprintf("%d reproduced", len(order)))
	}
	failed := map[string]map[string]bool{}
	for _, k := range order {
		f := best[k]
		f.Schedule = relTo(opts.Dir, f.Schedule)
		f.Replay = "interleave replay " + f.Schedule
		if tok, err := explore.EncodeToken(scheds[k]); err == nil {
			f.ReplayToken = tok
		} else {
			f.ReplayToken = ""
		}
		if n := dups[k]; n > 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("%s: %d more generated test(s) of %s failed the same way", f.Test, n, k.t))
		}
		f.Message = fmt.Sprintf("%s is documented as %q, but %s", k.t, k.t.Claim, f.Message)
		if filepath.Base(f.Pos.File) == FileName {
			// The test's own failure: shown at the type that makes the
			// promise, with the generated test's line as related.
			f.Related = append([]checks.Related{{Position: f.Pos, Message: "the generated test"}}, f.Related...)
			p := k.t.Pkg.Fset.Position(k.t.Pos)
			f.Pos = checks.Position{File: p.Filename, Line: p.Line, Column: p.Column}
			f.Snippet = strings.TrimSpace(sourceLine(p.Filename, p.Line))
		}
		res.Findings = append(res.Findings, f)
		reports[k.t].Findings++
		if failed[f.Package] == nil {
			failed[f.Package] = map[string]bool{}
		}
		failed[f.Package][f.Test] = true
	}
	for _, w := range works {
		names := failed[w.pkg.PkgPath]
		if len(names) == 0 {
			continue
		}
		// The file as searched: the schedules name its lines.
		var tests []string
		for _, c := range w.kept {
			if names[c.Name] {
				tests = append(tests, c.Name)
			}
		}
		path := filepath.Join(opts.TestsDir, filepath.FromSlash(w.pkg.PkgPath), FileName)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, w.src, 0o644); err != nil {
			return nil, err
		}
		res.Repros = append(res.Repros, Repro{Package: w.pkg.PkgPath, Dir: pkgDir(w.pkg), Tests: tests, Source: w.src, Path: path})
	}
	res.Types = res.Types[:0]
	for _, t := range targets {
		res.Types = append(res.Types, *reports[t])
	}
	return res, nil
}

// carry adds the generated file to the schedule file at path.
func carry(path string, src []byte) error {
	s, err := explore.ReadSchedule(path)
	if err != nil {
		return err
	}
	s.Version = rt.ScheduleVersionFiles
	s.Files = []rt.SourceFile{{Name: FileName, Source: string(src)}}
	return explore.WriteSchedule(path, s)
}

// load type-checks the patterns and returns them with the module root.
func load(ctx context.Context, dir string, patterns []string) ([]*packages.Package, string, error) {
	cfg := &packages.Config{
		Context: ctx,
		Dir:     dir,
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes |
			packages.NeedTypesInfo | packages.NeedModule | packages.NeedImports | packages.NeedDeps,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, "", fmt.Errorf("load %s: %w", strings.Join(patterns, " "), err)
	}
	var errs []string
	root := ""
	for _, p := range pkgs {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
		if p.Module == nil {
			errs = append(errs, p.PkgPath+": not in a module")
			continue
		}
		if root == "" {
			root = p.Module.Dir
		} else if root != p.Module.Dir {
			errs = append(errs, fmt.Sprintf("%s is in module %s, not %s: run gen on one module at a time", p.PkgPath, p.Module.Dir, root))
		}
	}
	if len(errs) > 0 {
		if len(errs) > 10 {
			errs = append(errs[:10], fmt.Sprintf("and %d more", len(errs)-10))
		}
		return nil, "", fmt.Errorf("load %s:\n%s", strings.Join(patterns, " "), strings.Join(errs, "\n"))
	}
	if len(pkgs) == 0 || root == "" {
		return nil, "", fmt.Errorf("no packages match %s", strings.Join(patterns, " "))
	}
	return pkgs, root, nil
}

func pkgDir(p *packages.Package) string {
	if len(p.GoFiles) > 0 {
		return filepath.Dir(p.GoFiles[0])
	}
	return p.Dir
}

// feedback writes the sequential version of every package's cases and
// runs them with plain go test; the cases whose tests pass are kept.
func feedback(ctx context.Context, root string, works []*pkgWork, reports map[*Target]*TypeReport, perType int) error {
	var paths []string
	for _, w := range works {
		src, err := Render(w.gen, w.pkg.Name, w.cases, Sequential)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(w.dir, FileName), src, 0o644); err != nil {
			return err
		}
		paths = append(paths, w.pkg.PkgPath)
	}
	// Each round runs the cases not decided yet. A case that crashes the
	// process (a panic in a goroutine of the package) leaves the others
	// undecided: the crashing one is dropped, found by its output, or by
	// running the rest one at a time.
	status := map[string]string{} // pkg.Test -> pass, fail, skip, crash
	output := map[string][]byte{}
	parallel := 16
	for round := 0; round < maxFeedbackRounds; round++ {
		var names []string
		pkgs := map[string]bool{}
		for _, w := range works {
			for _, c := range w.cases {
				if status[w.pkg.PkgPath+"."+c.Name] == "" {
					names = append(names, c.Name)
					pkgs[w.pkg.PkgPath] = true
				}
			}
		}
		if len(names) == 0 {
			break
		}
		var run []string
		for _, p := range paths {
			if pkgs[p] {
				run = append(run, p)
			}
		}
		args := append([]string{"test", "-count=1", "-json", "-timeout=30m", fmt.Sprintf("-parallel=%d", parallel), "-run", "^(" + strings.Join(names, "|") + ")$"}, run...)
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = root
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, _ := cmd.Output()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		st, outs := parseTestJSON(out)
		crashed := false
		for _, w := range works {
			for _, c := range w.cases {
				key := w.pkg.PkgPath + "." + c.Name
				if status[key] != "" {
					continue
				}
				output[key] = outs[key]
				switch {
				case st[key] != "":
					status[key] = st[key]
				case bytes.Contains(outs[key], []byte("panic:")) || bytes.Contains(outs[key], []byte("fatal error:")):
					status[key], crashed = "crash", true
				}
			}
		}
		if len(st) == 0 && !crashed {
			var pkgOut []string
			for _, p := range run {
				pkgOut = append(pkgOut, tail(string(outs[p+"."]), 20))
			}
			if parallel == 1 {
				return fmt.Errorf("the generated tests did not run:\n%s\n%s%s", tail(strings.TrimSpace(stderr.String()), 20), tail(string(outs["build"]), 20), strings.Join(pkgOut, "\n"))
			}
		}
		if !crashed {
			parallel = 1 // the crash was not attributed: one at a time
		}
	}
	for _, w := range works {
		for _, c := range w.cases {
			key := w.pkg.PkgPath + "." + c.Name
			r := reports[c.Target]
			switch status[key] {
			case "pass":
				if r.Kept < perType {
					w.kept = append(w.kept, c)
					r.Kept++
				}
			case "":
				r.Dropped = append(r.Dropped, c.Name+": not decided (the process crashed too often)")
			case "crash":
				r.Dropped = append(r.Dropped, c.Name+": crashes when run sequentially: "+firstLine(failLine(output[key])))
			default:
				r.Dropped = append(r.Dropped, c.Name+": "+firstLine(failLine(output[key])))
			}
		}
	}
	return nil
}

// maxFeedbackRounds bounds the go test runs of the sequential check.
const maxFeedbackRounds = 6

// parseTestJSON returns each test's final action and output, keyed by
// package + "." + test ("pkg." holds the package's own output, "build" the
// compiler's).
func parseTestJSON(out []byte) (map[string]string, map[string][]byte) {
	status := map[string]string{}
	output := map[string][]byte{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var ev struct {
			Action, Package, Test, Output string
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		key := ev.Package + "." + ev.Test
		switch ev.Action {
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
	return status, output
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

// sourceLine is line n of file, or "".
func sourceLine(file string, n int) string {
	b, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	lines := strings.Split(string(b), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func relTo(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}

// remap rewrites the copy's paths in a finding to the module's own.
func remap(f checks.Finding, from, to string) (checks.Finding, error) {
	b, err := json.Marshal(f)
	if err != nil {
		return f, err
	}
	fromJ, _ := json.Marshal(from)
	toJ, _ := json.Marshal(to)
	b = bytes.ReplaceAll(b, bytes.Trim(fromJ, `"`), bytes.Trim(toJ, `"`))
	var out checks.Finding
	if err := json.Unmarshal(b, &out); err != nil {
		return f, err
	}
	return out, nil
}

// copyTree copies the module at src to dst, leaving out version control and
// interleave's own output.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if rel != "." && (d.Name() == ".git" || d.Name() == ".interleave" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(filepath.Join(dst, rel), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}
