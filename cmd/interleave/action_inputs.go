// The Action's inputs: action.yml's INPUT_* variables, checked, and the job they ask for.

package main

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/internal/prjob"
	"github.com/interleave-dev/interleave/report/github/cienv"
)

// actionInput is one input of action.yml that interleave action reads.
type actionInput struct {
	name string
	def  string // the value an empty input takes; action.yml's default is the same
}

// actionInputs lists the inputs of action.yml that interleave action
// reads, in action.yml's order; its own "cache" input is used by the
// action's steps alone. The defaults of the job's inputs are
// prjob's (prjob.DefaultBudget, ...), as for interleave pr and serve.
var actionInputList = []actionInput{
	{"github-token", ""}, // action.yml: ${{ github.token }}
	{"base", ""},
	{"budget", ""},     // "": .interleave.yaml's, else prjob.DefaultBudget
	{"gen-budget", ""}, // "": .interleave.yaml's, else auto
	{"fail-on", prjob.DefaultFailOn},
	{"scope", prjob.DefaultScope},
	{"run", ""},
	{"strategies", ""}, // "": interleave pr's default
	{"race", strconv.FormatBool(prjob.DefaultRace)},
	{"enable", ""},
	{"disable", ""},
	{"tags", ""},
	{"workers", "0"},
	{"max-steps", ""}, // "": .interleave.yaml's, else the search's per test
	{"seed", ""},
	{"shard", ""},
	{"packages", "./..."},
	{"working-directory", "."},
	{"sarif-file", "interleave.sarif"},
	{"comment", "true"},
	{"report", ""},
	{"pr-number", ""},
	{"sha", ""},
	{"verbose", "false"},
}

// actionInputEnv is the variable action.yml passes an input in.
var actionInputEnv = cienv.InputEnv

// actionDuration prints d as action.yml writes it: 2m rather than 2m0s.
func actionDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// actionInputs is action.yml's inputs, validated.
type actionInputs struct {
	Token      string
	Base       string
	Budget     time.Duration
	GenBudget  string // interleave gen over the changed thread-safe types: auto, a duration, 0 skips it
	FailOn     string
	Scope      string
	Run        string   // regexp: search only the affected tests it matches
	Strategies []string // nil: interleave pr's default
	Race       bool
	Enable     []string // static rules (IDs, slugs or all)
	Disable    []string
	Tags       []string
	Workers    int      // 0: GOMAXPROCS
	MaxSteps   int      // 0: .interleave.yaml's, else the search's per test
	Seed       int64    // 0: pr derives it from the commits
	Shard      string   // i/n
	Packages   []string // patterns relative to WorkDir; nil means all
	WorkDir    string
	SARIFFile  string
	Comment    bool
	Reports    []string // files or globs: post these instead of analyzing
	PRNumber   int
	SHA        string // the commit the results are posted on; "" lets post read the event
	Verbose    bool
}

// actionBuildTag is a build tag, as go build -tags takes them.
var actionBuildTag = regexp.MustCompile(`^[A-Za-z0-9_.]+$`)

// parseActionInputs reads and validates the inputs; the error lists every
// bad input.
func parseActionInputs(getenv func(string) string) (*actionInputs, error) {
	in := &actionInputs{}
	var errs []error
	defs := map[string]string{}
	for _, i := range actionInputList {
		defs[i.name] = i.def
	}
	get := func(name string) string {
		def, ok := defs[name]
		if !ok {
			panic("interleave action: no input " + name)
		}
		v := cienv.Input(getenv, name)
		if v == "" {
			return def
		}
		return v
	}
	bad := func(name, format string, a ...any) {
		errs = append(errs, fmt.Errorf("input %s: "+format, append([]any{name}, a...)...))
	}
	oneOf := func(name string, allowed []string) string {
		v := get(name)
		for _, a := range allowed {
			if v == a {
				return v
			}
		}
		bad(name, "%q is not valid: use one of %s", v, strings.Join(allowed, ", "))
		return defs[name]
	}
	boolean := func(name string) bool {
		switch v := strings.ToLower(get(name)); v {
		case "true":
			return true
		case "false":
			return false
		default:
			bad(name, "%q is not valid: use true or false", v)
			return defs[name] == "true"
		}
	}

	in.Token = getenv(actionInputEnv("github-token"))
	in.Base = get("base")
	if strings.HasPrefix(in.Base, "-") {
		bad("base", "%q is not a ref", in.Base)
	}
	budget := get("budget")
	if budget == "" {
		budget = actionDuration(prjob.DefaultBudget)
	}
	d, err := time.ParseDuration(budget)
	switch {
	case err != nil:
		bad("budget", "%q is not a duration such as 5m, 90s or 0 (no dynamic search)", budget)
	case d < 0:
		bad("budget", "%q must not be negative", budget)
	}
	in.Budget = d
	if in.GenBudget = get("gen-budget"); in.GenBudget == "" {
		in.GenBudget = "auto"
	}
	if _, _, err := prjob.ParseGenBudget(in.GenBudget); err != nil {
		bad("gen-budget", "%q is not auto, 0 (no generated tests) or a duration such as 1m", in.GenBudget)
	}
	in.FailOn = oneOf("fail-on", []string{"note", "warning", "error"})
	in.Scope = oneOf("scope", []string{prjob.ScopeChanged, prjob.ScopePackage, prjob.ScopeAll})
	if run := get("run"); run != "" {
		if _, err := rt.ParseRun(run); err != nil {
			bad("run", "bad pattern: %v", err)
		}
		in.Run = run
	}
	for _, s := range actionList(get("strategies")) {
		if !slices.Contains(explore.Strategies, s) {
			bad("strategies", "unknown strategy %q: valid strategies are %s", s, strings.Join(explore.Strategies, ", "))
			continue
		}
		in.Strategies = append(in.Strategies, s)
	}
	in.Race = boolean("race")
	in.Enable = actionRules(get("enable"), func(format string, a ...any) { bad("enable", format, a...) })
	in.Disable = actionRules(get("disable"), func(format string, a ...any) { bad("disable", format, a...) })
	for _, t := range actionList(get("tags")) {
		if !actionBuildTag.MatchString(t) {
			bad("tags", "%q is not a build tag (letters, digits, _ and .)", t)
			continue
		}
		in.Tags = append(in.Tags, t)
	}
	if w, err := strconv.Atoi(get("workers")); err != nil || w < 0 {
		bad("workers", "%q is not a number of workers: use 0 (one per CPU) or more", get("workers"))
	} else {
		in.Workers = w
	}
	if v := get("max-steps"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			bad("max-steps", "%q is not a number of scheduling steps: use a positive integer (such as 500000), or leave it empty for the default", v)
		}
		in.MaxSteps = n
	}
	if seed := get("seed"); seed != "" {
		v, err := strconv.ParseInt(seed, 10, 64)
		if err != nil || v < 1 {
			bad("seed", "%q is not a positive integer", seed)
		}
		in.Seed = v
	}
	in.Shard = get("shard")
	if in.Shard != "" {
		if _, _, err := prjob.ParseShard(in.Shard); err != nil {
			bad("shard", "%q: want i/n with 1 <= i <= n, as in 2/4", in.Shard)
		}
	}
	pkgs := actionList(get("packages"))
	all := false
	for _, p := range pkgs {
		if err := prjob.CheckPattern(p); err != nil {
			bad("packages", "%v", err)
		}
		all = all || p == "./..."
	}
	if !all {
		in.Packages = pkgs
	}
	in.WorkDir = get("working-directory")
	in.SARIFFile = get("sarif-file")
	in.Comment = boolean("comment")
	in.Reports = actionList(get("report"))
	if len(in.Reports) > 0 && in.Shard != "" {
		bad("report", "cannot be combined with shard: a shard analyzes, report posts an earlier analysis")
	}
	if n := get("pr-number"); n != "" {
		v, err := strconv.Atoi(n)
		if err != nil || v < 1 {
			bad("pr-number", "%q is not a pull request number", n)
		}
		in.PRNumber = v
	}
	if sha := get("sha"); sha != "" {
		if !isSHA(sha) {
			bad("sha", "%q is not a full commit hash", sha)
		}
		in.SHA = sha
	}
	in.Verbose = boolean("verbose")
	return in, errors.Join(errs...)
}

// actionRules splits a rule list and checks each name against the static
// rules (IDs or slugs) and "all".
func actionRules(s string, bad func(format string, a ...any)) []string {
	var out []string
	for _, name := range actionList(s) {
		if name == "all" {
			out = append(out, name)
			continue
		}
		if r, ok := checks.LookupRule(name); ok && !r.Removed && !actionDynamicRule(r.ID) {
			out = append(out, name)
			continue
		}
		var ids []string
		for _, r := range checks.Rules() {
			if !r.Removed && !actionDynamicRule(r.ID) {
				ids = append(ids, r.ID)
			}
		}
		bad("unknown static rule %q: valid values are all, %s (or their slugs)", name, strings.Join(ids, ", "))
	}
	return out
}

// actionDynamicRule reports whether id is a rule of the dynamic search,
// which cannot be switched off by rule.
func actionDynamicRule(id string) bool {
	for _, k := range checks.FailureKinds {
		if checks.DynamicRuleID(k) == id {
			return true
		}
	}
	return false
}

// actionList splits an input on commas, spaces and newlines.
func actionList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\r' || r == '\t' })
}

// config is the job the inputs ask for, writing to files.
func (in *actionInputs) config(files actionFiles) prjob.Config {
	c := prjob.DefaultConfig()
	c.Base, c.Scope, c.Budget, c.Race = in.Base, in.Scope, in.Budget, in.Race
	c.FailOn, _ = checks.ParseSeverity(in.FailOn)
	c.GenBudget, c.GenAuto, _ = prjob.ParseGenBudget(in.GenBudget)
	if in.Run != "" {
		c.Run = rt.MustParseRun(in.Run) // checked by parseActionInputs
	}
	c.Strategy = strings.Join(in.Strategies, ",")
	c.Enable, c.Disable, c.Tags = in.Enable, in.Disable, in.Tags
	c.Workers, c.MaxSteps, c.Seed, c.Verbose = in.Workers, in.MaxSteps, in.Seed, in.Verbose
	c.Packages = in.Packages
	c.Format, c.Output = "json", files.report
	if in.Shard != "" {
		c.Shard, c.Shards, _ = prjob.ParseShard(in.Shard)
	} else {
		c.Summary, c.SARIF = files.summary, files.sarif
	}
	return c
}

// actionGiven tells prjob.ApplyFile which settings an input gave: an
// input given (not empty) overrides .interleave.yaml.
func actionGiven(getenv func(string) string) func(setting string) string {
	return func(setting string) string {
		name := prjob.SettingFlag(setting)
		if name == "" || name == "skip" || name == "exclude" {
			return "" // no such input: only the file sets it
		}
		if cienv.Input(getenv, name) != "" {
			return "input " + name
		}
		return ""
	}
}
