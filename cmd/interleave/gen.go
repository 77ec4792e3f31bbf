package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/gen"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/internal/prjob"
	"github.com/interleave-dev/interleave/report"
)

func init() {
	register(&command{
		name:  "gen",
		short: "Generate concurrent tests for types documented as safe for concurrent use",
		usage: "[flags] [packages]",
		run: func(ctx context.Context, env *cliEnv, args []string) int {
			opts, code, ok := parseGenFlags(env, args)
			if !ok {
				return code
			}
			return runGen(ctx, env, opts)
		},
	})
}

// genOptions is what `interleave gen` was asked to do.
type genOptions struct {
	gen.Options
	format  string
	output  string
	seedSet bool
	verbose bool
}

func parseGenFlags(env *cliEnv, args []string) (opts genOptions, code int, ok bool) {
	fs := newFlagSet(env, commands["gen"])
	format := &enumFlag{value: "text", allowed: []string{"text", "json", "sarif"}}
	opts.Strategy = explore.Strategies[0]
	fs.StringVar(&opts.Types, "types", "", "Generate tests only for types whose name matches `regexp`")
	fs.IntVar(&opts.PerType, "n", gen.DefaultPerType, "Tests generated per type")
	fs.DurationVar(&opts.Budget, "budget", 60*time.Second, "Total wall time of the search over all generated tests, builds excluded")
	fs.StringVar(&opts.Strategy, "strategy", opts.Strategy, "Scheduling `strategy`: "+strings.Join(explore.Strategies, ", ")+", or a comma-separated list of them to rotate")
	fs.Int64Var(&opts.Seed, "seed", 0, "Seed of the generation and of the first schedule (default time-based, printed so the run can be repeated)")
	fs.BoolVar(&opts.Race, "race", true, "Build the tests with the race detector")
	fs.StringVar(&opts.SchedulesDir, "schedules", explore.DefaultSchedulesDir, "Write schedule files to `dir`")
	fs.StringVar(&opts.TestsDir, "tests", gen.DefaultTestsDir, "Write the generated tests that fail to `dir`, one file per package")
	fs.IntVar(&opts.Workers, "workers", 0, "Worker processes per test (default GOMAXPROCS)")
	fs.DurationVar(&opts.StepTimeout, "watchdog", explore.DefaultStepTimeout, "Report a schedule as hung when a goroutine runs this `long` without reaching a scheduling point")
	fs.Var(format, "format", "Output `format`: text, json, sarif")
	fs.StringVar(&opts.output, "o", "", "Write the report to `file` instead of standard output")
	fs.BoolVar(&opts.verbose, "v", false, "Print what happened to each type and each dropped test")
	if code, ok := parseFlags(fs, args); !ok {
		return opts, code, false
	}
	raceDefault(env, fs, &opts.Race)
	fs.Visit(func(f *flag.Flag) { opts.seedSet = opts.seedSet || f.Name == "seed" })
	opts.format = format.value
	opts.Patterns = fs.Args()
	if len(opts.Patterns) == 0 {
		opts.Patterns = []string{"."}
	}
	bad := func(format string, a ...any) (genOptions, int, bool) {
		fmt.Fprintf(env.stderr, "interleave gen: "+format+"\n", a...)
		fs.Usage()
		return opts, exitError, false
	}
	switch {
	case opts.Budget <= 0:
		return bad("-budget must be positive, got %v", opts.Budget)
	case opts.PerType <= 0:
		return bad("-n must be positive, got %d", opts.PerType)
	case !rt.ValidStrategy(opts.Strategy):
		return bad("unknown -strategy %q: valid values are %s, or a comma-separated list of them", opts.Strategy, strings.Join(explore.Strategies, ", "))
	case opts.StepTimeout <= 0:
		return bad("-watchdog must be positive, got %v", opts.StepTimeout)
	case opts.Workers < 0:
		return bad("-workers must not be negative, got %d", opts.Workers)
	case opts.SchedulesDir == "":
		return bad("-schedules must name a directory")
	case opts.TestsDir == "":
		return bad("-tests must name a directory")
	}
	if opts.Types != "" {
		if _, err := regexp.Compile(opts.Types); err != nil {
			return bad("bad -types pattern: %v", err)
		}
	}
	if !opts.seedSet {
		opts.Seed = time.Now().UnixNano() % 1e9
	}
	return opts, 0, true
}

func runGen(ctx context.Context, env *cliEnv, opts genOptions) int {
	w, err := report.New(opts.format)
	if err != nil {
		fmt.Fprintln(env.stderr, "interleave gen:", err)
		return exitError
	}
	fmt.Fprintf(env.stderr, "interleave gen: seed %d (repeat with -seed %d), budget %v\n", opts.Seed, opts.Seed, opts.Budget)
	prog := newProgress(env.stderr)
	prog.name = "gen"
	o := opts.Options
	o.Dir = env.dir
	o.Progress = prog.update
	o.Stage = prog.stage
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
			fmt.Fprintf(env.stderr, "interleave gen: %s does not compile with the generated tests:\n%s\n", be.Package, strings.TrimRight(be.Output, "\n"))
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
		fmt.Fprintf(env.stderr, "interleave gen: the generated tests of %s are in %s; %d failed: copy the file into %s, then `go test -race -run '%s'` or `interleave replay` a schedule below\n",
			r.Package, relTo(env.dir, r.Path), len(r.Tests), relTo(env.dir, r.Dir), "^("+strings.Join(r.Tests, "|")+")$")
	}
	st := res.Stats
	fmt.Fprintf(env.stderr, "interleave gen: %d schedules in %.1fs (%.0f/s), %d finding(s), seed %d\n",
		st.Schedules, st.Elapsed.Seconds(), st.PerSecond, len(res.Findings), opts.Seed)
	rep := &report.Report{Findings: res.Findings, Root: env.dir, ToolVersion: toolVersion(), Tests: prjob.TestRuns(st)}
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
