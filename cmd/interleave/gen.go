package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/gen"
	"github.com/interleave-dev/interleave/internal/prjob"
	"github.com/interleave-dev/interleave/report"
)

func init() {
	register(&command{
		name:  "gen",
		short: "Generate concurrent tests for types documented as safe for concurrent use",
		usage: "[flags] [packages]",
		run:   parsed(parseGenFlags, runGen),
	})
}

// genOptions is what `interleave gen` was asked to do.
type genOptions struct {
	searchFlags
	patterns []string
	types    string
	perType  int
	testsDir string
	guarded  bool
	tags     []string
	tagsFrom string // where tags came from
}

func parseGenFlags(env *cliEnv, args []string) (opts genOptions, code int, ok bool) {
	fs := newFlagSet(env, commands["gen"])
	fs.StringVar(&opts.types, "types", "", "Generate tests only for types whose name matches `regexp`")
	fs.IntVar(&opts.perType, "n", gen.DefaultPerType, "Tests generated per type")
	fs.StringVar(&opts.testsDir, "tests", gen.DefaultTestsDir, "Write the generated tests that fail to `dir`, one file per package")
	fs.BoolVar(&opts.guarded, "guarded", false, "Also test the types that claim nothing but hold a sync.Mutex, sync.RWMutex or sync/atomic field")
	tags := tagsFlag(fs, "the packages are loaded, the generated tests run, searched and replayed with them")
	opts.register(fs, searchHelp{
		budget:   "Total wall time of the search over all generated tests, builds excluded",
		seed:     "Seed of the generation and of the first schedule (default time-based, printed so the run can be repeated)",
		race:     "Build the tests with the race detector",
		workers:  "Worker processes per test (default GOMAXPROCS)",
		watchdog: "Report a schedule as hung when a goroutine runs this `long` without reaching a scheduling point",
		verbose:  "Print what happened to each type and each dropped test",
	})
	if code, ok := opts.parse(env, fs, args); !ok {
		return opts, code, false
	}
	opts.patterns = packageArgs(fs)
	bad := func(format string, a ...any) (genOptions, int, bool) {
		fmt.Fprintf(env.stderr, "interleave gen: "+format+"\n", a...)
		fs.Usage()
		return opts, exitError, false
	}
	switch {
	case opts.perType <= 0:
		return bad("-n must be positive, got %d", opts.perType)
	case opts.testsDir == "":
		return bad("-tests must name a directory")
	}
	if opts.types != "" {
		if _, err := regexp.Compile(opts.types); err != nil {
			return bad("bad -types pattern: %v", err)
		}
	}
	var err error
	if opts.tags, opts.tagsFrom, err = buildTags(env, fs, *tags); err != nil {
		configError(env, "gen", err)
		return opts, exitError, false
	}
	return opts, 0, true
}

// options is the generation and search the flags ask for, in dir.
func (opts genOptions) options(dir string) gen.Options {
	return gen.Options{
		Dir:          dir,
		Patterns:     opts.patterns,
		Types:        opts.types,
		PerType:      opts.perType,
		Seed:         opts.seed,
		Budget:       opts.budget,
		Strategy:     opts.strategy,
		Race:         opts.race,
		Tags:         opts.tags,
		SchedulesDir: opts.schedules,
		Schedules:    opts.count,
		TestsDir:     opts.testsDir,
		Workers:      opts.workers,
		StepTimeout:  opts.watchdog,
		Guarded:      opts.guarded,
	}
}

func runGen(ctx context.Context, env *cliEnv, opts genOptions) int {
	w, err := report.New(opts.format)
	if err != nil {
		fmt.Fprintln(env.stderr, "interleave gen:", err)
		return exitError
	}
	fmt.Fprintf(env.stderr, "interleave gen: seed %d (repeat with -seed %d), budget %v\n", opts.seed, opts.seed, opts.budget)
	if len(opts.tags) > 0 {
		fmt.Fprintf(env.stderr, "interleave gen: build tags %s (%s)\n", strings.Join(opts.tags, ","), opts.tagsFrom)
	}
	prog := newProgress(env.stderr)
	prog.name = "gen"
	o := opts.options(env.dir)
	o.Progress, o.Stage = prog.update, prog.stage
	res, err := gen.Run(ctx, o)
	prog.done()
	if err != nil {
		var nt *gen.NoTargetsError
		var be *explore.BuildError
		switch {
		case errors.As(err, &nt):
			fmt.Fprintln(env.stderr, "interleave gen: nothing to test:", nt)
			return exitOK
		case errors.As(err, &be):
			fmt.Fprintf(env.stderr, "interleave gen: %s\n", buildFailed(be.Package, "does not compile with the generated tests", be.Output))
		default:
			fmt.Fprintln(env.stderr, "interleave gen:", err)
		}
		return exitError
	}
	for _, t := range res.Types {
		fmt.Fprintf(env.stderr, "interleave gen: %s.%s (%s, %q): %d generated, %d fail sequentially, %d searched, %d finding(s)\n",
			t.Package, t.Type, t.Pos, t.Claim, t.Generated, len(t.Dropped), t.Kept, t.Findings)
		if opts.verbose {
			for _, d := range t.Dropped {
				fmt.Fprintln(env.stderr, "interleave gen:   dropped", d)
			}
		}
	}
	for _, n := range res.Notes {
		fmt.Fprintln(env.stderr, "interleave gen: note:", n)
	}
	for _, r := range res.Repros {
		fmt.Fprintf(env.stderr, "interleave gen: the generated tests of %s are in %s; %d failed: `interleave replay` a schedule below as is (it carries the file), or copy the file into %s and `go test -race%s -run '%s'`\n",
			r.Package, relTo(env.dir, r.Path), len(r.Tests), relTo(env.dir, r.Dir), tagsArg(opts.tags), "^("+strings.Join(r.Tests, "|")+")$")
	}
	st := res.Stats
	fmt.Fprintf(env.stderr, "interleave gen: %d schedules in %.1fs (%.0f/s), %d finding(s), seed %d\n",
		st.Schedules, st.Elapsed.Seconds(), st.PerSecond, len(res.Findings), opts.seed)
	rep := &report.Report{Findings: res.Findings, Root: env.dir, ToolVersion: toolVersion(), Tests: prjob.TestRuns(st), Notes: res.Notes}
	if err := writeReport(env, w, rep, opts.output); err != nil {
		fmt.Fprintln(env.stderr, "interleave gen:", err)
		return exitError
	}
	if len(res.Findings) > 0 {
		return exitFindings
	}
	return exitOK
}

// relTo shows path relative to dir when it is inside it.
func relTo(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}
