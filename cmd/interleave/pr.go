package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/checks/static"
	"github.com/interleave-dev/interleave/internal/defaults"
	"github.com/interleave-dev/interleave/report"
)

func init() {
	register(&command{
		name:  "pr",
		short: "Run the pull-request job on the changes between two commits",
		usage: "[-base REF] [-head REF] [flags]",
		run: func(ctx context.Context, env *cliEnv, args []string) int {
			opts, code, ok := parsePRFlags(env, args, os.Getenv)
			if !ok {
				return code
			}
			return runPR(ctx, env, opts)
		},
	})
}

// Scopes of interleave pr.
const (
	scopeChanged = "changed" // findings on changed lines, or whose related location is
	scopePackage = "package" // every finding in the changed packages
	scopeAll     = "all"     // every finding in the module
)

// maxDynamicTests caps the tests a run searches: the budget split over more
// tests leaves each too few schedules to find anything.
const maxDynamicTests = 40

// prOptions is everything interleave pr takes from its command line and the
// GitHub event.
type prOptions struct {
	Base, Head string
	Scope      string
	Budget     time.Duration
	FailOn     checks.Severity
	Format     string
	Output     string // "" means stdout
	SARIF      string
	Summary    string
	Shard      int // 1-based; 0 means no sharding
	Shards     int
	Verbose    bool
	Race       bool
	Seed       int64 // 0: derived from the head commit
	Schedules  string
	Workers    int
	Strategy   string // scheduling strategy (explore.Strategies, or a list)
	Tags       []string
	Run        *regexp.Regexp // only affected tests whose name matches; nil means all
	Enable     []string       // static rules to add (IDs or slugs; "all")
	Disable    []string       // static rules to remove
	Notes      []string       // how base and head were chosen, when from an event
}

// parsePRFlags parses args; getenv supplies GITHUB_EVENT_PATH and
// GITHUB_EVENT_NAME. ok is false when the command should return code.
func parsePRFlags(env *cliEnv, args []string, getenv func(string) string) (opts *prOptions, code int, ok bool) {
	opts = &prOptions{}
	fs := newFlagSet(env, commands["pr"])
	fs.StringVar(&opts.Base, "base", "", "Base `ref` of the change; required unless $GITHUB_EVENT_PATH holds a pull_request or issue_comment event; "+affected.Empty+" treats every file of the module as new")
	fs.StringVar(&opts.Head, "head", "", "Head `ref` of the change (default HEAD, or the pull request's head commit); "+affected.WorkTree+" for uncommitted changes")
	scope := &enumFlag{value: defaults.Scope, allowed: []string{scopeChanged, scopePackage, scopeAll}}
	fs.Var(scope, "scope", "Report the findings in this `scope`: changed (on changed lines, or related to one), package (all in the changed packages), all (all in the module)")
	fs.DurationVar(&opts.Budget, "budget", defaults.Budget, "Wall time of the dynamic search over the affected tests; 0 skips it")
	failOn := &enumFlag{value: defaults.FailOn, allowed: []string{"note", "warning", "error"}}
	fs.Var(failOn, "fail-on", "Exit 1 when a reported finding has at least this `severity`: note, warning, error")
	format := &enumFlag{value: "text", allowed: []string{"text", "json", "sarif"}}
	fs.Var(format, "format", "Output `format`: text, json, sarif")
	fs.StringVar(&opts.Output, "o", "", "Write the report to `file` instead of standard output")
	fs.StringVar(&opts.SARIF, "sarif", "", "Also write a SARIF 2.1.0 report to `file`")
	fs.StringVar(&opts.Summary, "summary", "", "Also write the markdown summary (the pull request's job summary) to `file`")
	shard := fs.String("shard", "", "Run shard `i/n` of the dynamic search and write JSON for interleave merge, which applies -fail-on (a shard exits 0 on findings)")
	fs.BoolVar(&opts.Verbose, "v", false, "Print the change in detail and the time of each stage")
	fs.BoolVar(&opts.Race, "race", defaults.Race, "Build the tests with the race detector")
	fs.Int64Var(&opts.Seed, "seed", 0, "Seed of the first schedule (default derived from the head commit)")
	fs.StringVar(&opts.Schedules, "schedules", "", "Write schedule files to `dir` (default .interleave/schedules in the module)")
	fs.IntVar(&opts.Workers, "workers", 0, "Worker processes per test (default GOMAXPROCS)")
	fs.StringVar(&opts.Strategy, "strategy", "", "Scheduling `strategy`: "+strings.Join(explore.Strategies, ", ")+", or a comma-separated list of them to rotate (default "+explore.Strategies[0]+")")
	var tags prList
	fs.Var(&tags, "tags", "Build `tags`, comma-separated, as for go build")
	run := fs.String("run", "", "Search only the affected tests whose name matches `regexp`")
	var enable, disable prList
	fs.Var(&enable, "enable", "Static `rules` to add, comma-separated IDs or slugs; all adds the opt-in ones")
	fs.Var(&disable, "disable", "Static `rules` to remove, comma-separated IDs or slugs; all starts from none")
	if code, ok := parseFlags(fs, args); !ok {
		return nil, code, false
	}
	raceDefault(env, fs, &opts.Race)
	bad := func(format string, a ...any) (*prOptions, int, bool) {
		fmt.Fprintf(env.stderr, "interleave pr: "+format+"\n", a...)
		fs.Usage()
		return nil, exitError, false
	}
	if fs.NArg() > 0 {
		return bad("unexpected arguments %q: the change is chosen with -base and -head", fs.Args())
	}
	opts.Scope, opts.Format, opts.Tags = scope.value, format.value, tags
	opts.Enable, opts.Disable = enable, disable
	sev, err := checks.ParseSeverity(failOn.value)
	if err != nil {
		return bad("%v", err)
	}
	opts.FailOn = sev
	if *run != "" {
		if opts.Run, err = regexp.Compile(*run); err != nil {
			return bad("-run: %v", err)
		}
	}
	if opts.Budget < 0 {
		return bad("-budget must not be negative, got %v", opts.Budget)
	}
	if opts.Workers < 0 {
		return bad("-workers must not be negative, got %d", opts.Workers)
	}
	if !rt.ValidStrategy(opts.Strategy) {
		return bad("unknown -strategy %q: valid values are %s, or a comma-separated list of them", opts.Strategy, strings.Join(explore.Strategies, ", "))
	}
	if *shard != "" {
		if opts.Shard, opts.Shards, err = parseShard(*shard); err != nil {
			return bad("%v", err)
		}
		formatSet := false
		fs.Visit(func(f *flag.Flag) { formatSet = formatSet || f.Name == "format" })
		if formatSet && opts.Format != "json" {
			return bad("-shard writes JSON for interleave merge; -format %s is not possible", opts.Format)
		}
		if opts.SARIF != "" || opts.Summary != "" {
			return bad("-sarif and -summary are written by interleave merge, not by a shard")
		}
		opts.Format = "json"
	}
	if opts.Base == "" {
		path := getenv("GITHUB_EVENT_PATH")
		if path == "" {
			return bad("-base is required outside a GitHub pull_request or issue_comment workflow")
		}
		ev, err := readGitHubEvent(path, getenv("GITHUB_EVENT_NAME"))
		if err != nil {
			fmt.Fprintf(env.stderr, "interleave pr: %v\n", err)
			return nil, exitError, false
		}
		opts.Base = ev.Base
		if opts.Head == "" {
			opts.Head = ev.Head
		}
		opts.Notes = append(opts.Notes, ev.Note)
	}
	if opts.Head == "" {
		opts.Head = "HEAD"
	}
	return opts, 0, true
}

// prList is a comma-separated list flag; repeating the flag appends.
type prList []string

func (l *prList) String() string { return strings.Join(*l, ",") }
func (l *prList) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l = append(*l, v)
		}
	}
	return nil
}

// parseShard parses "i/n" with 1 <= i <= n.
func parseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("-shard %q: want i/n with 1 <= i <= n, as in 2/4", s)
	}
	return i, n, nil
}

// githubEvent is the part of a GitHub webhook payload interleave pr reads.
type githubEvent struct {
	PullRequest *struct {
		Number int `json:"number"`
		Base   struct {
			SHA string `json:"sha"`
			Ref string `json:"ref"`
		} `json:"base"`
		Head struct {
			SHA string `json:"sha"`
		} `json:"head"`
	} `json:"pull_request"`
	Issue *struct {
		Number      int `json:"number"`
		PullRequest *struct {
			URL string `json:"url"`
		} `json:"pull_request"`
	} `json:"issue"`
	Comment *struct {
		ID int64 `json:"id"`
	} `json:"comment"`
	Repository *struct {
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
}

// eventRefs is what an event says about the change.
type eventRefs struct {
	Base, Head string
	Note       string
}

// readGitHubEvent reads base and head from the event payload at path.
// name is $GITHUB_EVENT_NAME; when empty the event is recognized by shape.
func readGitHubEvent(path, name string) (*eventRefs, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read GitHub event payload: %w", err)
	}
	var ev githubEvent
	if err := json.Unmarshal(b, &ev); err != nil {
		return nil, fmt.Errorf("GitHub event payload %s is malformed: %v", path, err)
	}
	if name == "" {
		switch {
		case ev.PullRequest != nil:
			name = "pull_request"
		case ev.Issue != nil && ev.Comment != nil:
			name = "issue_comment"
		}
	}
	switch name {
	case "pull_request", "pull_request_target", "pull_request_review", "pull_request_review_comment":
		pr := ev.PullRequest
		if pr == nil {
			return nil, fmt.Errorf("GitHub event payload %s is a %s event without a pull_request object", path, name)
		}
		if !isSHA(pr.Base.SHA) || !isSHA(pr.Head.SHA) {
			return nil, fmt.Errorf("GitHub event payload %s: pull_request.base.sha %q and pull_request.head.sha %q must be commit hashes", path, pr.Base.SHA, pr.Head.SHA)
		}
		return &eventRefs{Base: pr.Base.SHA, Head: pr.Head.SHA,
			Note: fmt.Sprintf("pull request #%d: base %.12s, head %.12s (from %s)", pr.Number, pr.Base.SHA, pr.Head.SHA, name)}, nil
	case "issue_comment":
		if ev.Issue == nil {
			return nil, fmt.Errorf("GitHub event payload %s is an issue_comment event without an issue object", path)
		}
		if ev.Issue.PullRequest == nil {
			return nil, fmt.Errorf("the comment is on issue #%d, not on a pull request: nothing to analyze", ev.Issue.Number)
		}
		// The payload names the pull request but not its commits: the
		// workflow checks out the head; the base is the default branch.
		if ev.Repository == nil || ev.Repository.DefaultBranch == "" {
			return nil, fmt.Errorf("GitHub event payload %s: issue_comment without repository.default_branch; pass -base", path)
		}
		base := "origin/" + ev.Repository.DefaultBranch
		return &eventRefs{Base: base, Head: "HEAD",
			Note: fmt.Sprintf("pull request #%d (from a comment): base %s, head the checked-out commit; pass -base if the pull request targets another branch", ev.Issue.Number, base)}, nil
	case "":
		return nil, fmt.Errorf("GitHub event payload %s is neither a pull_request nor an issue_comment event: pass -base", path)
	}
	return nil, fmt.Errorf("-base is required: the %s event is not about a pull request", name)
}

func isSHA(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// prRun is the state of one interleave pr run.
type prRun struct {
	env     *cliEnv
	opts    *prOptions
	change  *affected.Change
	timings []prStage
	notes   []string
	confirm prConfirmStats // confirm.go
	// From the dynamic search: the failures without interleave too, and
	// the schedules per test.
	plain    []checks.Finding
	testRuns []report.TestRun
}

type prStage struct {
	name string
	d    time.Duration
}

func (r *prRun) logf(format string, a ...any) {
	fmt.Fprintf(r.env.stderr, "interleave pr: "+format+"\n", a...)
}

// stage runs f and records its time.
func (r *prRun) stage(name string, f func() error) error {
	r.logf("%s …", name)
	start := time.Now()
	err := f()
	d := time.Since(start)
	r.timings = append(r.timings, prStage{name, d})
	if d >= time.Second {
		r.logf("%s stage took %v", name, d.Round(100*time.Millisecond))
	}
	return err
}

// runPR runs the job and returns the exit code.
func runPR(ctx context.Context, env *cliEnv, opts *prOptions) int {
	r := &prRun{env: env, opts: opts, notes: opts.Notes}
	code := r.run(ctx)
	if opts.Verbose {
		var parts []string
		for _, s := range r.timings {
			parts = append(parts, fmt.Sprintf("%s %v", s.name, s.d.Round(time.Millisecond)))
		}
		r.logf("stages: %s", strings.Join(parts, ", "))
	}
	return code
}

func (r *prRun) run(ctx context.Context) int {
	opts := r.opts
	var buildFlags []string
	if len(opts.Tags) > 0 {
		buildFlags = []string{"-tags=" + strings.Join(opts.Tags, ",")}
	}
	for _, n := range r.notes {
		r.logf("%s", n)
	}

	// diff and load: the change, its files, functions and packages.
	c, err := affected.Analyze(ctx, affected.Options{Dir: r.env.dir, Base: opts.Base, Head: opts.Head, BuildFlags: buildFlags, NoTests: true})
	if err != nil {
		return r.fail(err)
	}
	r.change = c
	r.timings = append(r.timings, prStage{"diff", c.Timings["diff"]}, prStage{"load", c.Timings["load"]})

	// static: the passes over the changed packages.
	var staticFindings, candidateFindings []checks.Finding // candidates: opt-in, reported only when confirmed
	var outOfScope int
	if len(c.Packages) > 0 {
		patterns := c.Packages
		if opts.Scope == scopeAll {
			patterns = []string{"./..."}
		}
		var res *static.Result
		err := r.stage("static", func() (err error) {
			res, err = static.Run(ctx, static.Options{Dir: c.ModuleDir, Patterns: patterns, Tests: true, BuildFlags: buildFlags,
				Enable: prStaticEnable(r.opts.Enable, r.opts.Disable), Disable: r.opts.Disable, VetTool: checkVetTool()})
			return err
		})
		if err != nil {
			var le *static.LoadError
			if errors.As(err, &le) {
				return r.couldNotRun("the head does not compile", le.Error())
			}
			return r.fail(fmt.Errorf("static analysis: %w", err))
		}
		reported, candidates := prSplitCandidates(res.Findings, r.opts.Enable)
		for _, f := range reported {
			if r.inScope(&f) {
				staticFindings = append(staticFindings, f)
			} else {
				outOfScope++
			}
		}
		for _, f := range candidates {
			if r.inScope(&f) {
				candidateFindings = append(candidateFindings, f)
			}
		}
	}

	// affected: the tests that reach the changed code.
	if len(c.Packages) > 0 && opts.Budget > 0 {
		if err := r.stage("affected", func() error { return c.FindTests(ctx, buildFlags) }); err != nil {
			return r.fail(fmt.Errorf("affected tests: %w", err))
		}
	}
	r.printChange()

	// dynamic: the search over the ranked tests, targeted at the static
	// findings' sites.
	var dynamicFindings []checks.Finding
	var dynErr error
	if err := r.stage("dynamic", func() error {
		dynamicFindings, dynErr = r.dynamic(ctx, slices.Concat(staticFindings, candidateFindings))
		return nil
	}); err != nil {
		return r.fail(err)
	}
	if dynErr != nil {
		var be *explore.BuildError
		if errors.As(dynErr, &be) {
			return r.couldNotRun(fmt.Sprintf("the tests of %s do not compile", be.Package), strings.TrimRight(be.Output, "\n"))
		}
		if ctx.Err() != nil {
			return r.fail(errors.New("interrupted"))
		}
		r.logf("dynamic search failed: %v", dynErr)
		r.notes = append(r.notes, fmt.Sprintf("the dynamic search failed: %v", dynErr))
	}

	// merge: a static finding a schedule reproduces is reported once.
	merged := prConfirmAll(staticFindings, candidateFindings, dynamicFindings, c.ModuleDir, &r.confirm)
	var final, dyn []checks.Finding
	for _, f := range merged {
		if f.Evidence == checks.Dynamic {
			dyn = append(dyn, f)
			continue
		}
		final = append(final, f)
	}
	// A dynamic failure is the change's by cause, not by line (prbase.go).
	news, preExisting := r.byCause(ctx, dyn)
	final = prDedupe(append(final, news...))
	if outOfScope > 0 {
		r.notes = append(r.notes, fmt.Sprintf("%d %s outside the changed lines not reported (-scope package or all shows them)", outOfScope, prPlural(outOfScope, "finding")))
	}

	// report.
	err = r.stage("report", func() error {
		rep := &report.Report{Findings: final, Root: c.Root, ToolVersion: toolVersion(),
			PreExisting: preExisting, WithoutInterleave: r.plain, Tests: r.testRuns}
		return prWriteOutputs(r.env, rep, opts.Format, opts.Output, opts.SARIF, opts.Summary, r.confirm.summary(c.Root)+r.summaryExtra())
	})
	if err != nil {
		return r.fail(err)
	}
	for _, n := range r.notes[len(opts.Notes):] {
		r.logf("note: %s", n)
	}
	byEvidence := map[checks.Evidence]int{}
	for _, f := range final {
		byEvidence[f.Evidence]++
	}
	if r.confirm.targeted > 0 || len(r.confirm.unconfirmed) > 0 {
		r.logf("%s", r.confirm.logLine())
		if opts.Verbose {
			for _, l := range r.confirm.verbose(c.Root) {
				r.logf("%s", l)
			}
		}
	}
	r.logf("%d %s reported (%d static, %d confirmed by a schedule, %d dynamic)", len(final), prPlural(len(final), "finding"),
		byEvidence[checks.Static], byEvidence[checks.Confirmed], byEvidence[checks.Dynamic])
	if dynErr != nil {
		return exitError
	}
	if opts.Shards > 0 {
		return exitOK // the merge step decides
	}
	return prExitCode(final, opts.FailOn)
}

// fail reports an error that kept the job from running.
func (r *prRun) fail(err error) int {
	if errors.Is(err, context.Canceled) {
		err = errors.New("interrupted")
	}
	r.logf("%v", err)
	r.writeFailureSummary(err.Error(), "")
	return exitError
}

// couldNotRun reports that the code under review cannot be analyzed, with
// the compiler's words, on stderr and in the summary.
func (r *prRun) couldNotRun(what, detail string) int {
	r.logf("%s:\n%s", what, detail)
	r.writeFailureSummary(what, detail)
	return exitError
}

// writeFailureSummary makes the job summary say why nothing was analyzed,
// so the pull request shows the reason rather than no summary at all.
func (r *prRun) writeFailureSummary(what, detail string) {
	if r.opts.Summary == "" {
		return
	}
	md := fmt.Sprintf("## interleave could not run\n\n%s\n", what)
	if detail != "" {
		md = fmt.Sprintf("## interleave could not run\n\n%s:\n\n```\n%s\n```\n", what, strings.ReplaceAll(detail, "```", "'''"))
	}
	if err := os.WriteFile(prAbs(r.env.dir, r.opts.Summary), []byte(md), 0o644); err != nil {
		r.logf("write summary: %v", err)
	}
}

// inScope reports whether a finding is reported under -scope.
func (r *prRun) inScope(f *checks.Finding) bool {
	if r.opts.Scope != scopeChanged {
		return true
	}
	c := r.change
	on := func(file string, line int) bool {
		return file != "" && line > 0 && c.OnChangedLine(prAbs(c.ModuleDir, file), line)
	}
	if on(f.Pos.File, f.Pos.Line) {
		return true
	}
	for _, rel := range f.Related {
		if on(rel.File, rel.Line) {
			return true
		}
	}
	for _, g := range f.Goroutines {
		if file, line, ok := prSplitSite(g.Site); ok && on(file, line) {
			return true
		}
		if !f.Pos.IsValid() {
			for _, fr := range g.Stack {
				if on(fr.File, fr.Line) {
					return true
				}
			}
		}
	}
	return false
}

// dynamic runs this run's share of the search.
func (r *prRun) dynamic(ctx context.Context, staticFindings []checks.Finding) ([]checks.Finding, error) {
	opts, c := r.opts, r.change
	if opts.Budget == 0 {
		r.notes = append(r.notes, "dynamic search skipped (-budget 0)")
		return nil, nil
	}
	tests := c.Tests
	if opts.Run != nil {
		var kept []affected.Test
		for _, t := range tests {
			if opts.Run.MatchString(t.Name) {
				kept = append(kept, t)
			}
		}
		if len(kept) == 0 && len(tests) > 0 {
			r.notes = append(r.notes, fmt.Sprintf("no affected test matches -run %q: dynamic search skipped", opts.Run))
			return nil, nil
		}
		tests = kept
	}
	tests = shardTests(tests, opts.Shard, opts.Shards)
	if len(tests) == 0 {
		if len(c.Packages) > 0 {
			r.notes = append(r.notes, "no affected test reaches the changed code: dynamic search skipped")
		}
		return nil, nil
	}
	var refs []explore.TestRef
	pkgSet := map[string]bool{}
	var pkgs []string
	for _, t := range tests {
		refs = append(refs, explore.TestRef{Package: t.Package, Name: t.Name, Weight: t.Score})
		if !pkgSet[t.Package] {
			pkgSet[t.Package] = true
			pkgs = append(pkgs, t.Package)
		}
	}
	var targets []string
	seen := map[string]bool{}
	for _, f := range staticFindings {
		for site := range prSites(&f, c.ModuleDir, false) {
			if !seen[site] {
				seen[site] = true
				targets = append(targets, site)
			}
		}
	}
	sort.Strings(targets)
	seed := opts.Seed
	if seed == 0 {
		seed = seedFrom(c.HeadCommit, c.MergeBase)
	}
	schedules := opts.Schedules
	if schedules == "" {
		schedules = filepath.Join(c.ModuleDir, explore.DefaultSchedulesDir)
	} else {
		schedules = prAbs(r.env.dir, schedules)
	}
	r.logf("dynamic search: %d %s, budget %v, seed %d, %d target %s", len(refs), prPlural(len(refs), "test"), opts.Budget, seed, len(targets), prPlural(len(targets), "site"))
	var (
		progressMu   sync.Mutex // Progress may be called from the search's goroutines
		lastProgress time.Time
	)
	res, err := explore.Run(ctx, explore.Options{
		Dir:          c.ModuleDir,
		Patterns:     pkgs,
		Tests:        refs,
		Budget:       opts.Budget,
		Seed:         seed,
		Race:         opts.Race,
		SchedulesDir: schedules,
		Workers:      opts.Workers,
		Strategy:     opts.Strategy,
		Targets:      targets,
		Stage: func(ev explore.StageEvent) {
			progressMu.Lock()
			defer progressMu.Unlock()
			printStage(r.env.stderr, "interleave pr: dynamic: ", ev)
			lastProgress = time.Now()
		},
		Progress: func(st explore.Stats) {
			const every = 10 * time.Second
			progressMu.Lock()
			defer progressMu.Unlock()
			if st.Building || time.Since(lastProgress) < every {
				return
			}
			lastProgress = time.Now()
			r.logf("dynamic: %v of %v, %d schedules, %d %s, now %s", st.Elapsed.Round(time.Second), st.Budget, st.Schedules, st.Findings, prPlural(st.Findings, "finding"), st.Current)
		},
	})
	if err != nil {
		var nt *explore.NoTestsError
		if errors.As(err, &nt) {
			r.notes = append(r.notes, nt.Error())
			return nil, nil
		}
		return nil, err
	}
	r.notes = append(r.notes, res.Notes...)
	r.confirm.searched = res.Stats.Schedules > 0
	r.logf("dynamic search: %d schedules in %v, %d %s", res.Stats.Schedules, res.Stats.Elapsed.Round(time.Millisecond), len(res.Findings), prPlural(len(res.Findings), "finding"))
	// Schedule names relative to the repository root, so the replay
	// command works from a fresh clone's top level.
	fromRoot := func(fs []checks.Finding) []checks.Finding {
		out := make([]checks.Finding, len(fs))
		for i, f := range fs {
			if f.Schedule != "" {
				abs := prAbs(c.ModuleDir, f.Schedule)
				f.Schedule = abs
				if rel, err := filepath.Rel(c.Root, abs); err == nil && !strings.HasPrefix(rel, "..") {
					f.Replay = "interleave replay " + filepath.ToSlash(rel)
				}
			}
			out[i] = f
		}
		return out
	}
	r.plain = fromRoot(res.Plain)
	r.testRuns = testRuns(res.Stats)
	return fromRoot(res.Findings), nil
}

// shardTests returns shard i of n of the ranked tests (all when n is 0),
// capped at maxDynamicTests: round robin, so every shard gets some of the
// best-ranked tests.
func shardTests(tests []affected.Test, i, n int) []affected.Test {
	if n == 0 {
		return tests[:min(len(tests), maxDynamicTests)]
	}
	var out []affected.Test
	for k, t := range tests[:min(len(tests), maxDynamicTests*n)] {
		if k%n == i-1 {
			out = append(out, t)
		}
	}
	return out
}

// seedFrom derives the search seed from the commits, so that a run repeats
// on the same change and differs on the next push.
func seedFrom(head, base string) int64 {
	s := head + base
	var h uint64 = 14695981039346656037 // FNV-1a
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return int64(h%1_000_000_000) + 1
}

// printChange writes the change summary to stderr: every file not analyzed
// and why, and each chosen test with why; -v adds the functions.
func (r *prRun) printChange() {
	c := r.change
	if r.opts.Verbose {
		var b bytes.Buffer
		if err := c.WriteSummary(&b); err == nil {
			io.Copy(r.env.stderr, &b)
		}
		return
	}
	head := c.Head
	r.logf("%s...%s: %d %s changed, %d analyzed, in %d %s", c.Base, head, len(c.Files), prPlural(len(c.Files), "file"), c.AnalyzedFiles(), len(c.Packages), prPlural(len(c.Packages), "package"))
	const showSkipped = 20 // -v groups them by reason
	for i, f := range c.Skipped() {
		if i == showSkipped {
			r.logf("  ... and %d more files not analyzed (-v groups them by reason)", len(c.Skipped())-i)
			break
		}
		r.logf("  not analyzed: %s: %s", f.Path, f.Skip)
	}
	for i, t := range c.Tests {
		if i == maxDynamicTests {
			r.logf("  ... and %d more affected tests", len(c.Tests)-i)
			break
		}
		r.logf("  test %s %s: %s", t.Package, t.Name, t.Why)
	}
	for _, n := range c.Notes {
		r.logf("note: %s", n)
	}
}

// summaryExtra is the markdown appended to the job summary: what the change
// was, what was not analyzed and why, which tests were searched and why.
func (r *prRun) summaryExtra() string {
	c := r.change
	var b strings.Builder
	fmt.Fprintf(&b, "\n<details><summary>Change: %d %s, %d analyzed, %d %s, %d affected %s</summary>\n\n",
		len(c.Files), prPlural(len(c.Files), "file"), c.AnalyzedFiles(), len(c.Packages), prPlural(len(c.Packages), "package"), len(c.Tests), prPlural(len(c.Tests), "test"))
	fmt.Fprintf(&b, "Base `%s`, head `%s`, merge base `%.12s`.\n\n", c.Base, c.Head, c.MergeBase)
	if skipped := c.Skipped(); len(skipped) > 0 {
		b.WriteString("Not analyzed:\n\n| file | reason |\n|---|---|\n")
		const show = 50
		for i, f := range skipped {
			if i == show {
				fmt.Fprintf(&b, "| … | and %d more |\n", len(skipped)-show)
				break
			}
			fmt.Fprintf(&b, "| `%s` | %s |\n", strings.ReplaceAll(f.Path, "|", `\|`), f.Skip)
		}
		b.WriteString("\n")
	}
	if len(c.Tests) > 0 {
		b.WriteString("Affected tests, in search order:\n\n")
		for i, t := range c.Tests {
			if i == maxDynamicTests {
				fmt.Fprintf(&b, "- … and %d more\n", len(c.Tests)-i)
				break
			}
			fmt.Fprintf(&b, "- `%s` in `%s`: %s\n", t.Name, t.Package, t.Why)
		}
		b.WriteString("\n")
	}
	for _, n := range append(append([]string(nil), c.Notes...), r.notes...) {
		fmt.Fprintf(&b, "- note: %s\n", n)
	}
	b.WriteString("</details>\n")
	return b.String()
}

func prPlural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
