package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/internal/prjob"
	"github.com/interleave-dev/interleave/report"
)

func init() {
	register(&command{
		name:  "replay",
		short: "Run one schedule again and say whether the failure reproduces",
		usage: "[flags] FILE | -s TOKEN",
		run:   parsed(parseReplayFlags, runReplay),
	})
}

// replayOptions is what `interleave replay` was asked to do.
type replayOptions struct {
	file     string
	token    string // -s: the schedule itself; "-" reads it from standard input
	watchdog time.Duration
	tries    int // fresh runs at most, stopping at the first that reproduces; 0: by the schedule (replayTries)
}

// replayStdin is where `replay -s -` reads the token (tests replace it).
var replayStdin io.Reader = os.Stdin

// exitDiverged is replay's exit code when the run failed another way or
// left the schedule: the recorded failure neither happened nor was ruled
// out.
const exitDiverged = 3

func parseReplayFlags(env *cliEnv, args []string) (opts replayOptions, code int, ok bool) {
	fs := newFlagSet(env, commands["replay"])
	fs.DurationVar(&opts.watchdog, "watchdog", explore.DefaultStepTimeout, "Call the run hung when a goroutine runs this `long` without reaching a scheduling point")
	fs.IntVar(&opts.tries, "tries", 0, fmt.Sprintf("Run the schedule in up to `n` fresh processes, stopping at the first that reproduces the failure (default 1, or %d when something besides the schedule decides whether it happens: a data race, earlier runs of its process, goroutines outside control)", explore.UndecidedTries))
	fs.StringVar(&opts.token, "s", "", "Replay the schedule `token` (from a review comment) instead of a file; - reads it from standard input")
	if code, ok := parseFlags(fs, args); !ok {
		return opts, code, false
	}
	if opts.watchdog <= 0 {
		fmt.Fprintf(env.stderr, "interleave replay: -watchdog must be positive, got %v\n", opts.watchdog)
		fs.Usage()
		return opts, exitError, false
	}
	triesSet := false
	fs.Visit(func(f *flag.Flag) { triesSet = triesSet || f.Name == "tries" })
	if triesSet && opts.tries < 1 {
		fmt.Fprintf(env.stderr, "interleave replay: -tries must be at least 1, got %d\n", opts.tries)
		fs.Usage()
		return opts, exitError, false
	}
	if opts.token != "" {
		if fs.NArg() != 0 {
			fmt.Fprintf(env.stderr, "interleave replay: -s takes the schedule; got %d more arguments\n", fs.NArg())
			fs.Usage()
			return opts, exitError, false
		}
		return opts, 0, true
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(env.stderr, "interleave replay: want exactly one schedule file or -s TOKEN, got %d arguments\n", fs.NArg())
		fs.Usage()
		return opts, exitError, false
	}
	opts.file = fs.Arg(0)
	if !filepath.IsAbs(opts.file) {
		opts.file = filepath.Join(env.dir, opts.file)
	}
	return opts, 0, true
}

// replayTries is the fresh runs a replay gets: tries when the flag set
// it, else explore.DefaultTries; undecided says what besides the
// schedule decides its failure.
func replayTries(sched *rt.Schedule, tries int) (undecided string, n int) {
	if tries == 0 {
		tries = explore.DefaultTries(sched)
	}
	return explore.Undecided(sched), tries
}

// runReplay replays the schedule: exit 1 when the failure happens again, 0
// when the run follows the schedule to its end and passes, 3 when it fails
// another way or leaves the schedule, 2 when it cannot run.
func runReplay(ctx context.Context, env *cliEnv, opts replayOptions) int {
	ropts := explore.ReplayOptions{Dir: env.dir, StepTimeout: opts.watchdog, Stage: func(ev explore.StageEvent) {
		fmt.Fprintln(env.stderr, "interleave replay: "+prjob.StageLine(ev))
	}}
	var res *explore.ReplayResult
	var err error
	undecided := "" // what besides the schedule decides its failure
	if opts.token != "" {
		tok := opts.token
		if tok == "-" {
			b, rerr := io.ReadAll(io.LimitReader(replayStdin, 4<<20))
			if rerr != nil {
				fmt.Fprintln(env.stderr, "interleave replay: reading the token from standard input:", rerr)
				return exitError
			}
			tok = string(b)
		}
		sched, derr := explore.DecodeToken(tok)
		if derr != nil {
			fmt.Fprintln(env.stderr, "interleave replay:", derr)
			return exitError
		}
		undecided, ropts.Tries = replayTries(sched, opts.tries)
		res, err = explore.ReplaySchedule(ctx, sched, "", ropts)
	} else {
		if sched, rerr := explore.ReadSchedule(opts.file); rerr == nil {
			undecided, ropts.Tries = replayTries(sched, opts.tries)
		} // else Replay says why it cannot read it
		res, err = explore.Replay(ctx, opts.file, ropts)
	}
	if err != nil {
		var be *explore.BuildError
		if errors.As(err, &be) {
			fmt.Fprintf(env.stderr, "interleave replay: %s\n", buildFailed(be.Package, "does not compile", be.Output))
		} else {
			fmt.Fprintln(env.stderr, "interleave replay:", ranFailed(err))
		}
		return exitError
	}
	s := res.Schedule
	want := "a failure"
	if s.Failure != nil {
		want = fmt.Sprintf("%s at %s", s.Failure.Kind, s.Failure.Site)
	}
	build := fmt.Sprintf("race %v", s.Race)
	if len(s.Tags) > 0 {
		build += ", tags " + strings.Join(s.Tags, ",")
	}
	if s.Runs > 1 {
		build += fmt.Sprintf(", the test run %d times in a row as go test -count=%d does", s.Runs, s.Runs)
	}
	if s.MaxSteps > 0 {
		build += fmt.Sprintf(", step bound %d", s.MaxSteps)
	}
	fmt.Fprintf(env.stdout, "replaying %s of %s (%d decisions, seed %d, %s), recorded: %s\n",
		s.Test, s.Package, len(s.Decisions), s.Seed, build, want)
	if len(s.Prior) > 0 {
		fmt.Fprintln(env.stdout, earlierLine(s, res.Earlier))
	}
	if ropts.Tries > 1 {
		if opts.tries == 0 {
			fmt.Fprintf(env.stdout, "up to %d fresh runs, as %s\n", ropts.Tries, undecided)
		}
		if res.Outcome == explore.Reproduced {
			fmt.Fprintf(env.stdout, "reproduced on try %d of at most %d\n", res.Try, ropts.Tries)
		} else {
			fmt.Fprintf(env.stdout, "not reproduced on any of %d tries; the last one:\n", res.Try)
		}
	}
	diverged := func() {
		if res.Diverged != "" {
			fmt.Fprintf(env.stdout, "the run diverged from the schedule: %s\n", res.Diverged)
		}
	}
	for _, n := range res.Notes {
		fmt.Fprintf(env.stdout, "note: %s\n", n)
	}
	code := exitFindings
	switch {
	case res.Outcome == explore.Passed && strings.HasPrefix(res.Inconclusive, rt.SkippedPrefix):
		fmt.Fprintf(env.stdout, "NOT RUN: %s %s, so the schedule was not replayed: nothing is known about the failure\n",
			s.Test, strings.TrimPrefix(res.Inconclusive, rt.SkippedPrefix+"the test "))
		return exitError
	case res.Outcome == explore.Passed && res.Inconclusive != "":
		fmt.Fprintf(env.stdout, "INCONCLUSIVE: the run was stopped before the test ended (%s): this says nothing about the failure\n", res.Inconclusive)
		diverged()
		return exitDiverged
	case res.Outcome == explore.Passed && res.EarlierOff() != nil:
		e := res.EarlierOff()
		fmt.Fprintf(env.stdout, "DIVERGED: an earlier schedule the process ran first (%s, seed %d) %s, so the state it left is not the recording's; the run passed: this says nothing about the failure\n", e.Test, e.Seed, e.Off())
		diverged()
		return exitDiverged
	case res.Outcome == explore.Passed && res.Diverged == "":
		fmt.Fprintln(env.stdout, "PASS: the failure did not happen again")
		switch {
		case len(s.Decisions) == 0:
		case undecided == "":
			fmt.Fprintln(env.stdout, "the run followed the schedule to its end, so the code no longer fails this way")
		case res.Try > 1:
			fmt.Fprintf(env.stdout, "each of the %d runs followed the schedule to its end, so the code most likely no longer fails this way\n", res.Try)
		default:
			fmt.Fprintf(env.stdout, "the run followed the schedule to its end, but %s: one pass does not rule the failure out (-tries %d runs it again)\n", undecided, explore.UndecidedTries)
		}
		return exitOK
	case res.Outcome == explore.Passed:
		fmt.Fprintln(env.stdout, "DIVERGED: the run left the schedule and passed: the code changed since the schedule was recorded, or the test depends on what a schedule does not fix (state the recording process had, the clock, I/O); this says nothing about the failure")
		diverged()
		return exitDiverged
	case res.Outcome == explore.Reproduced && res.Diverged != "":
		fmt.Fprintln(env.stdout, "REPRODUCED off the schedule: the same failure, after the run left the schedule as recorded:")
	case res.Outcome == explore.Reproduced:
		fmt.Fprintln(env.stdout, "REPRODUCED:")
	default:
		fmt.Fprintln(env.stdout, "FAILED differently:")
		code = exitDiverged
	}
	diverged()
	rep := &report.Report{Findings: []checks.Finding{*res.Finding}, Root: env.dir, ToolVersion: toolVersion()}
	if err := (report.Text{}).Write(env.stdout, rep); err != nil {
		fmt.Fprintln(env.stderr, "interleave replay:", err)
		return exitError
	}
	if res.Detail != "" {
		fmt.Fprintf(env.stdout, "\n%s\n", strings.TrimRight(res.Detail, "\n"))
	}
	return code
}

// earlierLine says which schedules the replay ran first in its process
// (the schedule's Prior) and how each went.
func earlierLine(s *rt.Schedule, ran []explore.EarlierRun) string {
	tests := map[string]bool{}
	for _, p := range s.Prior {
		tests[p.Test] = true
	}
	what := fmt.Sprintf("%d earlier %s of %s", len(s.Prior), checks.Plural(len(s.Prior), "schedule"), s.Test)
	if len(tests) > 1 || !tests[s.Test] {
		what = fmt.Sprintf("%d earlier %s (tests %s)", len(s.Prior), checks.Plural(len(s.Prior), "schedule"), strings.Join(slices.Sorted(maps.Keys(tests)), ", "))
	}
	bySeed := 0
	for _, p := range s.Prior {
		if p.BySeed() {
			bySeed++
		}
	}
	if bySeed > 0 {
		// Carried by their seed: the strategy ran them again, checked
		// against a digest of their recorded decisions.
		what += fmt.Sprintf(" (%d of them from their seed by %s, checked against their recorded decisions)", bySeed, s.PriorStrategy)
	}
	line := "ran first, in the same process, as the recording process did: " + what
	if len(ran) < len(s.Prior) {
		return line + fmt.Sprintf("; %d of them ended", len(ran))
	}
	// The runs that did what they did when recorded are counted; the
	// others are named, the first few.
	same, failed := 0, 0
	var off []string
	for _, e := range ran {
		if e.Outcome != "pass" {
			failed++
		}
		if why := e.Off(); why != "" {
			if len(off) < 3 {
				off = append(off, fmt.Sprintf("seed %d %s", e.Seed, why))
			}
			continue
		}
		same++
	}
	how := []string{fmt.Sprintf("%d of %d as recorded", same, len(ran))}
	if failed > 0 {
		how = append(how, fmt.Sprintf("%d failed", failed))
	}
	how = append(how, off...)
	return line + ": " + strings.Join(how, "; ")
}
