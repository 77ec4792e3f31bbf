package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/internal/flagvalue"
)

// searchBudget is the default -budget of interleave test, repro and gen:
// one search a developer waits for, not a pull request's job
// (prjob.DefaultBudget).
const searchBudget = 60 * time.Second

// searchFlags are the schedule-search flags of test, repro and gen.
type searchFlags struct {
	budget     time.Duration
	strategy   string
	target     string   // -target as given
	targets    []string // -target file:line sites
	seed       int64
	seedSet    bool // -seed was given; otherwise seed is time-based
	race       bool
	schedules  string
	count      int // schedules per worker and test; 0: the budget alone
	workers    int
	watchdog   time.Duration
	format     string
	formatFlag flagvalue.Choice
	output     string
	verbose    bool
}

// searchHelp is the help of the search flags whose wording is the
// command's own; an empty target leaves -target out.
type searchHelp struct {
	budget, target, seed, race, workers, watchdog, verbose string
}

// register defines the search flags on fs.
func (s *searchFlags) register(fs *flag.FlagSet, h searchHelp) {
	s.strategy = explore.Strategies[0]
	s.formatFlag = flagvalue.Choice{Value: "text", Allowed: []string{"text", "json", "sarif"}}
	fs.DurationVar(&s.budget, "budget", searchBudget, h.budget)
	fs.StringVar(&s.strategy, "strategy", s.strategy, "Scheduling `strategy`: "+strings.Join(explore.Strategies, ", ")+", or a comma-separated list of them to rotate")
	if h.target != "" {
		fs.StringVar(&s.target, "target", "", h.target)
	}
	fs.Int64Var(&s.seed, "seed", 0, h.seed)
	fs.BoolVar(&s.race, "race", true, h.race)
	fs.StringVar(&s.schedules, "schedules", explore.DefaultSchedulesDir, "Write schedule files to `dir`")
	fs.IntVar(&s.count, "count", 0, "Bound each test's search by `n` schedules per worker as well as by the budget (0: the budget alone): with -seed, the same schedules on any machine the budget is ample for")
	fs.IntVar(&s.workers, "workers", 0, h.workers)
	fs.DurationVar(&s.watchdog, "watchdog", explore.DefaultStepTimeout, h.watchdog)
	fs.Var(&s.formatFlag, "format", "Output `format`: text, json, sarif")
	fs.StringVar(&s.output, "o", "", "Write the report to `file` instead of standard output")
	fs.BoolVar(&s.verbose, "v", false, h.verbose)
}

// parse parses args into fs and completes the search flags: the race
// default, whether -seed was given (else a time-based seed), the format.
// A bad search flag is reported with the usage; ok is false when the
// command should exit with code.
func (s *searchFlags) parse(env *cliEnv, fs *flag.FlagSet, args []string) (code int, ok bool) {
	if code, ok := parseFlags(fs, args); !ok {
		return code, false
	}
	raceDefault(env, fs, &s.race)
	fs.Visit(func(f *flag.Flag) { s.seedSet = s.seedSet || f.Name == "seed" })
	s.format = s.formatFlag.Value
	if err := s.check(); err != nil {
		fmt.Fprintf(env.stderr, "interleave %s: %v\n", fs.Name(), err)
		fs.Usage()
		return exitError, false
	}
	if !s.seedSet {
		s.seed = time.Now().UnixNano() % 1e9
	}
	return 0, true
}

// packageArgs returns the package patterns of fs's arguments, "." when none.
func packageArgs(fs *flag.FlagSet) []string {
	if fs.NArg() == 0 {
		return []string{"."}
	}
	return fs.Args()
}

// check parses -target and returns the first bad search flag's problem.
func (s *searchFlags) check() error {
	if s.budget <= 0 {
		return fmt.Errorf("-budget must be positive, got %v", s.budget)
	}
	if !rt.ValidStrategy(s.strategy) {
		return fmt.Errorf("unknown -strategy %q: valid values are %s, or a comma-separated list of them", s.strategy, strings.Join(explore.Strategies, ", "))
	}
	if s.target != "" {
		ts, err := parseTargets(s.target)
		if err != nil {
			return fmt.Errorf("-target: %v", err)
		}
		s.targets = ts
	}
	if s.watchdog <= 0 {
		return fmt.Errorf("-watchdog must be positive, got %v", s.watchdog)
	}
	if s.count < 0 {
		return fmt.Errorf("-count must not be negative, got %d", s.count)
	}
	if s.workers < 0 {
		return fmt.Errorf("-workers must not be negative, got %d", s.workers)
	}
	if s.schedules == "" {
		return errors.New("-schedules must name a directory")
	}
	return nil
}

// options is the search the flags ask for, in dir.
func (s *searchFlags) options(dir string) explore.Options {
	return explore.Options{
		Dir:          dir,
		Budget:       s.budget,
		Strategy:     s.strategy,
		Targets:      s.targets,
		Seed:         s.seed,
		Race:         s.race,
		SchedulesDir: s.schedules,
		Schedules:    s.count,
		Workers:      s.workers,
		StepTimeout:  s.watchdog,
	}
}
