// The job's configuration: its defaults, its flags, their checks and the argv that gives it back.

package prjob

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/internal/flagvalue"
)

// The defaults interleave pr, the GitHub Action (action.yml) and the
// GitHub App (interleave serve) share, so the three behave the same unless
// told otherwise. internal/ghaction's tests check action.yml's input
// defaults against these.
const (
	// DefaultBudget is the wall time of one pull request's stages after
	// their builds (budget.go).
	DefaultBudget = 2 * time.Minute
	// DefaultFailOn is the lowest severity of a reported finding that
	// fails the run (exit 1, a failed check run).
	DefaultFailOn = "warning"
	// DefaultScope reports the findings on changed lines, or related to one.
	DefaultScope = ScopeChanged
	// DefaultRace builds the searched tests with the race detector, where
	// cgo works.
	DefaultRace = true
)

// Config is one run of the job as a front end states it: interleave pr's
// flags, the Action's inputs, the App's job. Register reads it from flags
// and Args writes it back as the argv that parses to the same Config.
type Config struct {
	Base, Head string
	Scope      string
	Budget     time.Duration
	// GenBudget is the wall time of `interleave gen` over the changed types
	// that claim thread safety; 0 skips it.
	GenBudget time.Duration
	// GenAuto takes GenBudget from Budget instead: a GenShare of it when
	// the change touches a type that claims thread safety, none otherwise.
	GenAuto   bool
	FailOn    checks.Severity
	Format    string
	Output    string // "" means stdout
	SARIF     string
	Summary   string
	Shard     int // 1-based; 0 means no sharding
	Shards    int
	Verbose   bool
	Race      bool
	Seed      int64 // 0: derived from the head commit
	Schedules string
	Workers   int
	Count     int // schedules per worker and test (search and gen); 0: the budgets alone
	// MaxSteps is the step bound of every schedule of the search; 0 lets
	// it choose per test (explore.PlainMaxSteps for the unperturbed
	// schedule, then twice the steps that one took).
	MaxSteps int
	Strategy string // scheduling strategy (explore.Strategies, or a list)
	Tags     []string
	Run      *rt.RunFilter // only affected tests it selects, as go test -run (its subtests too); nil means all
	Enable   []string      // static rules to add (IDs or slugs; "all")
	Disable  []string      // static rules to remove
	// Packages keeps only the findings in these package patterns (".",
	// "./dir", "./dir/...", relative to the working directory); nil keeps
	// all.
	Packages []string
	// Exclude leaves out the findings and the tests of these package
	// patterns, relative to the module root.
	Exclude []string
	Skip    *rt.RunFilter // affected tests (and subtests) not to search, as go test -skip; nil skips none
	// Ignore keeps known failures out of the report. Only the config file
	// sets it: Args does not carry it, the job reads the same file.
	Ignore []Ignore
}

// DefaultConfig is the configuration of a run given no flags.
func DefaultConfig() Config {
	sev, _ := checks.ParseSeverity(DefaultFailOn)
	return Config{Scope: DefaultScope, Budget: DefaultBudget, GenAuto: true, FailOn: sev, Format: "text", Race: DefaultRace}
}

// Flags holds a Config's flags on a FlagSet between Register and Check.
type Flags struct {
	fs                    *flag.FlagSet
	c                     *Config
	scope, failOn, format flagvalue.Choice
	genBudget             genBudget
	shard, run            string
	tags, enable, disable flagvalue.List
	packages, exclude     flagvalue.List
	skip                  string
}

// Register defines the job's flags on fs, with c's current values as their
// defaults (DefaultConfig for interleave pr). After fs.Parse, Check
// completes c.
func (c *Config) Register(fs *flag.FlagSet) *Flags {
	f := &Flags{fs: fs, c: c,
		scope:     flagvalue.Choice{Value: c.Scope, Allowed: []string{ScopeChanged, ScopePackage, ScopeAll}},
		failOn:    flagvalue.Choice{Value: c.FailOn.String(), Allowed: []string{"note", "warning", "error"}},
		format:    flagvalue.Choice{Value: c.Format, Allowed: []string{"text", "json", "sarif"}},
		genBudget: genBudget{auto: c.GenAuto, d: c.GenBudget},
	}
	fs.StringVar(&c.Base, "base", c.Base, "Base `ref` of the change; required unless $GITHUB_EVENT_PATH holds a pull_request or issue_comment event; "+affected.Empty+" treats every file of the module as new")
	fs.StringVar(&c.Head, "head", c.Head, "Head `ref` of the change (default HEAD, or the pull request's head commit); "+affected.WorkTree+" for uncommitted changes")
	fs.Var(&f.scope, "scope", "Report the findings in this `scope`: changed (on changed lines, or related to one), package (all in the changed packages), all (all in the module)")
	fs.DurationVar(&c.Budget, "budget", c.Budget, "Wall time of the stages after their builds: the search over the affected tests, the base commit's check of its failures and gen's automatic share (static stage, checkouts and builds are timed apart, see -v); 0 skips the search")
	fs.Var(&f.genBudget, "gen-budget", "Wall time of the generated concurrent tests (as interleave gen) for the changed types documented as safe for concurrent use or holding a mutex or atomic: auto (a quarter of -budget, only when such a type changed), a `duration` added to -budget, or 0 to skip them")
	fs.Var(&f.failOn, "fail-on", "Exit 1 when a reported finding has at least this `severity`: note, warning, error")
	fs.Var(&f.format, "format", "Output `format`: text, json, sarif")
	fs.StringVar(&c.Output, "o", c.Output, "Write the report to `file` instead of standard output")
	fs.StringVar(&c.SARIF, "sarif", c.SARIF, "Also write a SARIF 2.1.0 report to `file`")
	fs.StringVar(&c.Summary, "summary", c.Summary, "Also write the markdown summary (the pull request's job summary) to `file`")
	fs.StringVar(&f.shard, "shard", "", "Run shard `i/n` of the dynamic search and write JSON for interleave merge, which applies -fail-on (a shard exits 0 on findings)")
	fs.BoolVar(&c.Verbose, "v", c.Verbose, "Print the change in detail and the time of each stage")
	fs.BoolVar(&c.Race, "race", c.Race, "Build the tests with the race detector")
	fs.Int64Var(&c.Seed, "seed", c.Seed, "Seed of the first schedule (default derived from the head commit)")
	fs.StringVar(&c.Schedules, "schedules", c.Schedules, "Write schedule files to `dir` (default .interleave/schedules in the module)")
	fs.IntVar(&c.Workers, "workers", c.Workers, "Worker processes per test (default GOMAXPROCS)")
	fs.IntVar(&c.Count, "count", c.Count, "Bound each test's search (the affected tests', the generated ones', the base commit's, there at least the schedules a failure's rate needs) by `n` schedules per worker as well as by the budgets (0: the budgets alone): with -seed, the same schedules on any machine the budgets are ample for")
	fs.IntVar(&c.MaxSteps, "max-steps", c.MaxSteps, fmt.Sprintf("Stop every schedule of the search after `n` scheduling steps, inconclusive (default: %d for a test's unperturbed schedule, which runs once more with %d when it stops there and the budget has the time; then twice the steps it took, at least %d)", explore.PlainMaxSteps, explore.LongerMaxSteps, rt.DefaultMaxSteps))
	fs.StringVar(&c.Strategy, "strategy", c.Strategy, "Scheduling `strategy`: "+strings.Join(explore.Strategies, ", ")+", or a comma-separated list of them to rotate (default "+explore.Strategies[0]+")")
	fs.Var(&f.tags, "tags", "Build `tags`, comma-separated, as for go build")
	fs.StringVar(&f.run, "run", "", "Search only the affected tests (and subtests: TestX/sub, as go test -run) the `pattern` selects")
	fs.Var(&f.enable, "enable", "Static `rules` to report without confirmation (opt-in ones, and default ones below the posting bar), comma-separated IDs or slugs, or all")
	fs.Var(&f.disable, "disable", "Static `rules` to remove, comma-separated IDs or slugs; all starts from none")
	fs.StringVar(&f.skip, "skip", "", "Do not search the affected tests (and subtests, as go test -skip) the `pattern` skips")
	fs.Var(&f.exclude, "exclude", "Leave out the findings and tests of these package `patterns`, comma-separated, relative to the module root: ., ./dir or ./dir/...")
	fs.Var(&f.packages, "packages", "Report only the findings in these package `patterns`, comma-separated, relative to the working directory: ., ./dir or ./dir/... (default all)")
	return f
}

// Check completes the Config from the parsed flags and returns the first
// bad one's problem.
func (f *Flags) Check() error {
	c := f.c
	c.Scope, c.Format = f.scope.Value, f.format.Value
	c.Tags, c.Enable, c.Disable = f.tags, f.enable, f.disable
	c.GenBudget, c.GenAuto = f.genBudget.d, f.genBudget.auto
	sev, err := checks.ParseSeverity(f.failOn.Value)
	if err != nil {
		return err
	}
	c.FailOn = sev
	if f.run != "" {
		if c.Run, err = rt.ParseRun(f.run); err != nil {
			return fmt.Errorf("bad -run pattern: %v", err)
		}
	}
	if f.skip != "" {
		if c.Skip, err = rt.ParseRun(f.skip); err != nil {
			return fmt.Errorf("bad -skip pattern: %v", err)
		}
	}
	if len(f.exclude) > 0 {
		c.Exclude = f.exclude
	}
	c.Packages = nil
	for _, p := range f.packages {
		if p == "./..." {
			c.Packages = nil // all
			break
		}
		c.Packages = append(c.Packages, p)
	}
	if f.shard != "" {
		if c.Shard, c.Shards, err = ParseShard(f.shard); err != nil {
			return err
		}
		formatSet := false
		f.fs.Visit(func(fl *flag.Flag) { formatSet = formatSet || fl.Name == "format" })
		if formatSet && c.Format != "json" {
			return fmt.Errorf("-shard writes JSON for interleave merge; -format %s is not possible", c.Format)
		}
		c.Format = "json"
	}
	return c.Validate()
}

// Validate returns the first problem of a Config, in the words of its
// flags: Check runs it, and a front end that builds a Config runs it too.
func (c *Config) Validate() error {
	if c.Budget < 0 {
		return fmt.Errorf("-budget must not be negative, got %v", c.Budget)
	}
	if c.GenBudget < 0 {
		return fmt.Errorf("-gen-budget must not be negative, got %v", c.GenBudget)
	}
	if c.Workers < 0 {
		return fmt.Errorf("-workers must not be negative, got %d", c.Workers)
	}
	if c.Count < 0 {
		return fmt.Errorf("-count must not be negative, got %d", c.Count)
	}
	if c.MaxSteps < 0 {
		return fmt.Errorf("-max-steps must not be negative, got %d", c.MaxSteps)
	}
	if !rt.ValidStrategy(c.Strategy) {
		return fmt.Errorf("unknown -strategy %q: valid values are %s, or a comma-separated list of them", c.Strategy, strings.Join(explore.Strategies, ", "))
	}
	for _, p := range c.Packages {
		if err := CheckPattern(p); err != nil {
			return fmt.Errorf("-packages: %v", err)
		}
	}
	for _, p := range c.Exclude {
		if err := CheckPattern(p); err != nil {
			return fmt.Errorf("-exclude: %v", err)
		}
	}
	if c.Shards > 0 {
		switch {
		case c.Shard < 1 || c.Shard > c.Shards:
			return fmt.Errorf("-shard %d/%d: want i/n with 1 <= i <= n, as in 2/4", c.Shard, c.Shards)
		case c.SARIF != "" || c.Summary != "":
			return fmt.Errorf("-sarif and -summary are written by interleave merge, not by a shard")
		case c.Format != "json":
			return fmt.Errorf("-shard writes JSON for interleave merge; -format %s is not possible", c.Format)
		}
	}
	return nil
}

// Args is the argv that Register and Check parse back to c: a flag for
// every field that differs from DefaultConfig.
func (c *Config) Args() []string {
	d := DefaultConfig()
	var args []string
	str := func(name, v, def string) {
		if v != def {
			args = append(args, "-"+name, v)
		}
	}
	list := func(name string, v []string) {
		if len(v) > 0 {
			args = append(args, "-"+name, strings.Join(v, ","))
		}
	}
	str("base", c.Base, "")
	str("head", c.Head, "")
	str("scope", c.Scope, d.Scope)
	if c.Budget != d.Budget {
		args = append(args, "-budget", c.Budget.String())
	}
	if !c.GenAuto {
		args = append(args, "-gen-budget", c.GenBudget.String())
	}
	str("fail-on", c.FailOn.String(), d.FailOn.String())
	str("format", c.Format, d.Format)
	str("o", c.Output, "")
	str("sarif", c.SARIF, "")
	str("summary", c.Summary, "")
	if c.Shards > 0 {
		args = append(args, "-shard", fmt.Sprintf("%d/%d", c.Shard, c.Shards))
	}
	if c.Verbose {
		args = append(args, "-v")
	}
	if c.Race != d.Race {
		args = append(args, "-race="+strconv.FormatBool(c.Race))
	}
	if c.Seed != 0 {
		args = append(args, "-seed", strconv.FormatInt(c.Seed, 10))
	}
	str("schedules", c.Schedules, "")
	if c.Workers != 0 {
		args = append(args, "-workers", strconv.Itoa(c.Workers))
	}
	if c.Count != 0 {
		args = append(args, "-count", strconv.Itoa(c.Count))
	}
	if c.MaxSteps != 0 {
		args = append(args, "-max-steps", strconv.Itoa(c.MaxSteps))
	}
	str("strategy", c.Strategy, "")
	list("tags", c.Tags)
	if c.Run != nil {
		args = append(args, "-run", c.Run.String())
	}
	list("enable", c.Enable)
	list("disable", c.Disable)
	list("packages", c.Packages)
	if c.Skip != nil {
		args = append(args, "-skip", c.Skip.String())
	}
	list("exclude", c.Exclude)
	return args
}

// ParseShard parses "i/n" with 1 <= i <= n.
func ParseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("-shard %q: want i/n with 1 <= i <= n, as in 2/4", s)
	}
	return i, n, nil
}

// CheckPattern accepts package patterns relative to the working
// directory: ".", "./...", "./dir" or "./dir/...".
func CheckPattern(p string) error {
	if p == "." || p == "./..." {
		return nil
	}
	rest, ok := strings.CutPrefix(p, "./")
	if !ok || rest == "" {
		return fmt.Errorf("%q is not a relative package pattern: use ./... or ./dir or ./dir/... as patterns", p)
	}
	rest = strings.TrimSuffix(rest, "/...")
	for _, elem := range strings.Split(rest, "/") {
		if elem == "" || elem == "." || elem == ".." || strings.Contains(elem, "...") {
			return fmt.Errorf("%q is not a relative package pattern: use ./..., ./dir or ./dir/... inside the working directory", p)
		}
	}
	return nil
}

// ParseGenBudget parses -gen-budget: auto, or a duration that is not
// negative.
func ParseGenBudget(s string) (d time.Duration, auto bool, err error) {
	var g genBudget
	err = g.Set(s)
	return g.d, g.auto, err
}

// genBudget is -gen-budget: auto, or a duration that is not negative.
type genBudget struct {
	auto bool
	d    time.Duration
}

func (g *genBudget) String() string {
	if g == nil || g.auto {
		return "auto"
	}
	return g.d.String()
}

func (g *genBudget) Set(s string) error {
	if s == "auto" {
		g.auto, g.d = true, 0
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("want auto, 0 or a duration such as 1m, got %q", s)
	}
	g.auto, g.d = false, d
	return nil
}
