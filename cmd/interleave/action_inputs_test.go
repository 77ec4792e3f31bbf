// Tests of the Action's inputs: parsing, action.yml, and the job they ask for.

package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/internal/ghaction"
	"github.com/interleave-dev/interleave/internal/prjob"
	"github.com/interleave-dev/interleave/report/github/cienv"
)

func TestActionInputEnv(t *testing.T) {
	for name, want := range map[string]string{
		"github-token":      "INPUT_GITHUB_TOKEN",
		"fail-on":           "INPUT_FAIL_ON",
		"working-directory": "INPUT_WORKING_DIRECTORY",
		"budget":            "INPUT_BUDGET",
		"some input":        "INPUT_SOME_INPUT",
	} {
		if got := actionInputEnv(name); got != want {
			t.Errorf("actionInputEnv(%q) = %q, want %q", name, got, want)
		}
	}
}

func mapEnv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestParseActionInputsDefaults(t *testing.T) {
	in, err := parseActionInputs(mapEnv(nil))
	if err != nil {
		t.Fatal(err)
	}
	if in.Budget != prjob.DefaultBudget || in.FailOn != prjob.DefaultFailOn || in.Scope != prjob.DefaultScope || in.Race != prjob.DefaultRace || !in.Comment ||
		in.SARIFFile != "interleave.sarif" || in.WorkDir != "." || in.Packages != nil || in.Shard != "" ||
		len(in.Reports) != 0 || in.Strategies != nil || in.Seed != 0 || in.PRNumber != 0 || in.Workers != 0 || in.MaxSteps != 0 ||
		in.Enable != nil || in.Disable != nil || in.Tags != nil || in.Verbose || in.GenBudget != "auto" {
		t.Errorf("defaults: %+v", in)
	}
	// With every input at its default, pr gets only the output files: its
	// defaults are the inputs' (prjob.DefaultConfig).
	cfg := in.config(actionFiles{report: "r.json", summary: "s.md"})
	want := "-format json -o r.json -summary s.md"
	if got := strings.Join(cfg.Args(), " "); got != want {
		t.Errorf("pr args for the defaults:\n got %s\nwant %s", got, want)
	}
}

// action.yml passes each input as INPUT_<NAME> with underscores for
// hyphens (INPUT_FAIL_ON). Read from the real environment, as the action
// does.
func TestParseActionInputsFromEnvironment(t *testing.T) {
	for k, v := range map[string]string{
		"INPUT_GITHUB_TOKEN":      "tok",
		"INPUT_FAIL_ON":           "error",
		"INPUT_FAIL-ON":           "note", // a docker action's spelling: ignored
		"INPUT_SARIF_FILE":        "out/x.sarif",
		"INPUT_WORKING_DIRECTORY": "sub",
		"INPUT_BUDGET":            "90s",
		"INPUT_SCOPE":             "package",
		"INPUT_STRATEGIES":        "random",
		"INPUT_RACE":              "FALSE",
		"INPUT_ENABLE":            "all",
		"INPUT_DISABLE":           "IL1001, IL2001",
		"INPUT_TAGS":              "integration,linux",
		"INPUT_WORKERS":           "3",
		"INPUT_MAX_STEPS":         "500000",
		"INPUT_VERBOSE":           "true",
		"INPUT_PACKAGES":          "./a/...\n./b",
		"INPUT_COMMENT":           "False",
		"INPUT_SHARD":             "2/4",
		"INPUT_PR_NUMBER":         "17",
		"INPUT_SEED":              "42",
		"INPUT_SHA":               strings.Repeat("ab", 20),
		"INPUT_BASE":              "origin/main",
		"INPUT_RUN":               "^TestA$",
	} {
		t.Setenv(k, v)
	}
	in, err := parseActionInputs(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(in.Strategies, ",") != "random" || in.Race || strings.Join(in.Enable, ",") != "all" || strings.Join(in.Disable, ",") != "IL1001,IL2001" ||
		strings.Join(in.Tags, ",") != "integration,linux" || in.Workers != 3 || in.MaxSteps != 500000 || !in.Verbose {
		t.Errorf("got %+v", in)
	}
	if in.Token != "tok" || in.FailOn != "error" || in.SARIFFile != "out/x.sarif" || in.WorkDir != "sub" ||
		in.Budget != 90*time.Second || in.Scope != "package" || strings.Join(in.Packages, " ") != "./a/... ./b" ||
		in.Comment || in.Shard != "2/4" || in.PRNumber != 17 || in.Seed != 42 || in.SHA != strings.Repeat("ab", 20) || in.Base != "origin/main" || in.Run != "^TestA$" {
		t.Errorf("got %+v", in)
	}
}

func TestParseActionInputsBad(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"INPUT_BUDGET": "soon"}, `input budget: "soon" is not a duration such as 5m`},
		{map[string]string{"INPUT_BUDGET": "-1m"}, `input budget: "-1m" must not be negative`},
		{map[string]string{"INPUT_GEN_BUDGET": "-1m"}, `input gen-budget: "-1m" is not auto, 0`},
		{map[string]string{"INPUT_GEN_BUDGET": "always"}, `input gen-budget: "always" is not auto`},
		{map[string]string{"INPUT_FAIL_ON": "fatal"}, `input fail-on: "fatal" is not valid: use one of note, warning, error`},
		{map[string]string{"INPUT_SCOPE": "diff"}, `input scope: "diff" is not valid: use one of changed, package, all`},
		{map[string]string{"INPUT_STRATEGIES": "random,nope"}, `input strategies: unknown strategy "nope": valid strategies are ` + strings.Join(explore.Strategies, ", ")},
		{map[string]string{"INPUT_RACE": "yes"}, `input race: "yes" is not valid: use true or false`},
		{map[string]string{"INPUT_VERBOSE": "1"}, `input verbose: "1" is not valid: use true or false`},
		{map[string]string{"INPUT_ENABLE": "IL1001,nosuchrule"}, `input enable: unknown static rule "nosuchrule": valid values are all, IL`},
		{map[string]string{"INPUT_DISABLE": checks.DynamicRuleID(checks.Deadlock)}, `input disable: unknown static rule "` + checks.DynamicRuleID(checks.Deadlock) + `"`},
		{map[string]string{"INPUT_TAGS": "a b,c;d"}, `input tags: "c;d" is not a build tag`},
		{map[string]string{"INPUT_WORKERS": "-1"}, `input workers: "-1" is not a number of workers`},
		{map[string]string{"INPUT_WORKERS": "many"}, `input workers: "many" is not a number of workers`},
		{map[string]string{"INPUT_MAX_STEPS": "0"}, `input max-steps: "0" is not a number of scheduling steps: use a positive integer`},
		{map[string]string{"INPUT_MAX_STEPS": "1e6"}, `input max-steps: "1e6" is not a number of scheduling steps`},
		{map[string]string{"INPUT_PACKAGES": "../x"}, `input packages: "../x" is not a relative package pattern`},
		{map[string]string{"INPUT_PACKAGES": "./a/../../x"}, `input packages: "./a/../../x" is not a relative package pattern`},
		{map[string]string{"INPUT_PACKAGES": "example.com/m"}, `input packages: "example.com/m" is not a relative package pattern`},
		{map[string]string{"INPUT_COMMENT": "yes"}, `input comment: "yes" is not valid: use true or false`},
		{map[string]string{"INPUT_SHARD": "5/4"}, `input shard: "5/4": want i/n with 1 <= i <= n`},
		{map[string]string{"INPUT_SHARD": "1/2", "INPUT_REPORT": "r.json"}, `input report: cannot be combined with shard`},
		{map[string]string{"INPUT_PR_NUMBER": "#3"}, `input pr-number: "#3" is not a pull request number`},
		{map[string]string{"INPUT_SHA": "main"}, `input sha: "main" is not a full commit hash`},
		{map[string]string{"INPUT_SEED": "-4"}, `input seed: "-4" is not a positive integer`},
		{map[string]string{"INPUT_RUN": "Test("}, `input run: bad pattern: element 0 of`},
		{map[string]string{"INPUT_RUN": "TestA/(x"}, `input run: bad pattern: element 1 of "TestA/(x"`},
		{map[string]string{"INPUT_BASE": "--upload-pack=x"}, `input base: "--upload-pack=x" is not a ref`},
	}
	for _, tt := range tests {
		_, err := parseActionInputs(mapEnv(tt.env))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: got error %v, want %q", tt.env, err, tt.want)
		}
	}
	// Every bad input is named at once.
	_, err := parseActionInputs(mapEnv(map[string]string{"INPUT_BUDGET": "x", "INPUT_SCOPE": "y", "INPUT_COMMENT": "z"}))
	if err == nil || strings.Count(err.Error(), "\n") != 2 {
		t.Errorf("want three errors, got %v", err)
	}
}

func TestWriteGitHubOutput(t *testing.T) {
	var b strings.Builder
	if err := cienv.WriteOutput(&b, "findings", "3"); err != nil {
		t.Fatal(err)
	}
	if err := cienv.WriteOutput(&b, "text", "line 1\nline 2"); err != nil {
		t.Fatal(err)
	}
	got := parseGitHubOutput(t, b.String())
	if got["findings"] != "3" || got["text"] != "line 1\nline 2" || len(got) != 2 {
		t.Errorf("round trip: %q from %q", got, b.String())
	}
}

// action.yml declares the inputs interleave action reads, in its order,
// with the same defaults, and its run step passes each one in the
// variable interleave action reads it from.
func TestActionYAMLInputs(t *testing.T) {
	a, err := ghaction.ReadAction("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, in := range a.Inputs {
		if in.Name != "cache" { // used by the action's own steps
			names = append(names, in.Name)
		}
	}
	var want []string
	for _, in := range actionInputList {
		want = append(want, in.name)
	}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("action.yml inputs\n %q\ninterleave action reads\n %q", names, want)
	}
	run, ok := a.Step("run")
	if !ok {
		t.Fatal("action.yml has no step with id run")
	}
	for _, in := range actionInputList {
		y, ok := a.Input(in.name)
		if !ok {
			continue
		}
		switch {
		case in.name == "github-token":
			if y.Default != "${{ github.token }}" {
				t.Errorf("input github-token: default %q, want ${{ github.token }}", y.Default)
			}
		case y.Default != in.def:
			t.Errorf("input %s: action.yml default %q, interleave action's %q", in.name, y.Default, in.def)
		}
		if got, want := run.Env[actionInputEnv(in.name)], "${{ inputs."+in.name+" }}"; got != want {
			t.Errorf("the run step sets %s=%q, want %q", actionInputEnv(in.name), got, want)
		}
	}
	for k := range run.Env {
		if strings.HasPrefix(k, "INPUT_") && !slices.ContainsFunc(actionInputList, func(i actionInput) bool { return actionInputEnv(i.name) == k }) {
			t.Errorf("the run step sets %s, which interleave action does not read", k)
		}
	}
	for _, out := range []string{"findings", "sarif-file", "summary-file", "report-file"} {
		if got, want := a.Outputs[out], "${{ steps.run.outputs."+out+" }}"; got != want {
			t.Errorf("action.yml output %s = %q, want %q", out, got, want)
		}
	}
}

// prFlagNames are the flags interleave pr defines, read from its usage.
func prFlagNames(t *testing.T) map[string]bool {
	t.Helper()
	env, _, stderr := testEnv(t, t.TempDir())
	if _, code, ok := parsePRFlags(env, []string{"-h"}, mapEnv(nil)); ok || code != exitOK {
		t.Fatalf("pr -h: ok %v, exit %d", ok, code)
	}
	names := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z-]+)`).FindAllStringSubmatch(stderr.String(), -1) {
		names[m[1]] = true
	}
	if len(names) < 10 {
		t.Fatalf("read only %d flags from pr's usage:\n%s", len(names), stderr)
	}
	return names
}

// Every interleave pr flag is either set from an input or set by the
// action itself, and pr accepts the command line the action builds.
func TestActionPRFlagsCovered(t *testing.T) {
	in := &actionInputs{
		Base: "origin/main", Budget: 90 * time.Second, FailOn: "note", Scope: "all", Run: "^TestA$",
		Strategies: []string{explore.Strategies[0]}, Race: !prjob.DefaultRace, Enable: []string{"all"}, Disable: []string{"IL1001"},
		Tags: []string{"integration"}, Workers: 3, MaxSteps: 500000, Seed: 42, Verbose: true, GenBudget: "1m", Packages: []string{"./a/..."},
	}
	files := actionFiles{report: "r.json", sarif: "r.sarif", summary: "s.md"}
	set := map[string]bool{}
	collect := func(args []string) {
		for _, a := range args {
			if name, ok := strings.CutPrefix(a, "-"); ok {
				name, _, _ = strings.Cut(name, "=")
				set[name] = true
			}
		}
	}
	cfg := in.config(files)
	args := cfg.Args()
	collect(args)
	sharded := *in
	sharded.Shard = "2/4"
	scfg := sharded.config(actionFiles{report: "shard.json"})
	collect(scfg.Args())
	// Flags the action does not expose: the event names the head, and
	// schedule files stay in the module's .interleave directory; skip and
	// exclude are settings of the repository, in .interleave.yaml; a
	// workflow bounds its job by the budget, -count is for runs that must
	// be the same on any machine (tests, reproductions).
	notExposed := map[string]bool{"head": true, "schedules": true, "skip": true, "exclude": true, "count": true}
	prFlags := prFlagNames(t)
	for name := range prFlags {
		if !set[name] && !notExposed[name] {
			t.Errorf("interleave pr -%s is neither set from an input of action.yml nor listed as not exposed", name)
		}
	}
	for name := range set {
		if !prFlags[name] {
			if name == "strategy" {
				// The strategies branch adds pr -strategy; the action passes
				// it only when the input is set.
				t.Logf("interleave pr has no -strategy flag in this build")
				continue
			}
			t.Errorf("the action passes -%s, which interleave pr does not define", name)
		}
	}
	if !prFlags["strategy"] {
		in.Strategies = nil
		cfg = in.config(files)
		args = cfg.Args()
	}
	env, _, stderr := testEnv(t, t.TempDir())
	opts, code, ok := parsePRFlags(env, args, mapEnv(nil))
	if !ok {
		t.Fatalf("pr rejects the action's command line %q: exit %d\n%s", args, code, stderr)
	}
	if opts.Base != "origin/main" || opts.Budget != 90*time.Second || opts.FailOn != checks.Note || opts.Scope != "all" || opts.Run.String() != "^TestA$" ||
		opts.Race != !prjob.DefaultRace || strings.Join(opts.Enable, ",") != "all" || strings.Join(opts.Disable, ",") != "IL1001" ||
		strings.Join(opts.Tags, ",") != "integration" || opts.Workers != 3 || opts.Seed != 42 || !opts.Verbose ||
		opts.Output != "r.json" || opts.SARIF != "r.sarif" || opts.Summary != "s.md" || opts.Format != "json" ||
		strings.Join(opts.Packages, ",") != "./a/..." {
		t.Errorf("pr parsed the action's command line %q as %+v", args, opts)
	}
}
