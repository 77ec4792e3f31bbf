package main

import (
	"bufio"
	"context"
	"fmt"
	"github.com/interleave-dev/interleave/internal/prjob"
	"github.com/interleave-dev/interleave/report/github/cienv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/internal/ghaction"
	"github.com/interleave-dev/interleave/report"
	"github.com/interleave-dev/interleave/report/github/ghtest"
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
		len(in.Reports) != 0 || in.Strategies != nil || in.Seed != 0 || in.PRNumber != 0 || in.Workers != 0 ||
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
		strings.Join(in.Tags, ",") != "integration,linux" || in.Workers != 3 || !in.Verbose {
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
		{map[string]string{"INPUT_PACKAGES": "../x"}, `input packages: "../x" is not a relative package pattern`},
		{map[string]string{"INPUT_PACKAGES": "./a/../../x"}, `input packages: "./a/../../x" is not a relative package pattern`},
		{map[string]string{"INPUT_PACKAGES": "example.com/m"}, `input packages: "example.com/m" is not a relative package pattern`},
		{map[string]string{"INPUT_COMMENT": "yes"}, `input comment: "yes" is not valid: use true or false`},
		{map[string]string{"INPUT_SHARD": "5/4"}, `input shard: "5/4": want i/n with 1 <= i <= n`},
		{map[string]string{"INPUT_SHARD": "1/2", "INPUT_REPORT": "r.json"}, `input report: cannot be combined with shard`},
		{map[string]string{"INPUT_PR_NUMBER": "#3"}, `input pr-number: "#3" is not a pull request number`},
		{map[string]string{"INPUT_SHA": "main"}, `input sha: "main" is not a full commit hash`},
		{map[string]string{"INPUT_SEED": "-4"}, `input seed: "-4" is not a positive integer`},
		{map[string]string{"INPUT_RUN": "Test("}, `input run: error parsing regexp`},
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

// parseGitHubOutput reads a $GITHUB_OUTPUT file the way the runner does.
func parseGitHubOutput(t *testing.T, s string) map[string]string {
	t.Helper()
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		line := sc.Text()
		if name, delim, ok := strings.Cut(line, "<<"); ok {
			var val []string
			for sc.Scan() && sc.Text() != delim {
				val = append(val, sc.Text())
			}
			out[name] = strings.Join(val, "\n")
			continue
		}
		name, val, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("bad output line %q", line)
		}
		out[name] = val
	}
	return out
}

// actionSandbox is a workspace with GITHUB_OUTPUT and GITHUB_STEP_SUMMARY
// files; the process's working directory is restored afterwards.
type actionSandbox struct {
	workspace, output, stepSummary string
}

func newActionSandbox(t *testing.T, workspace string) *actionSandbox {
	t.Helper()
	t.Chdir(workspace)
	tmp := t.TempDir()
	s := &actionSandbox{workspace: workspace, output: filepath.Join(tmp, "output"), stepSummary: filepath.Join(tmp, "summary")}
	t.Setenv("GITHUB_WORKSPACE", workspace)
	t.Setenv("GITHUB_OUTPUT", s.output)
	t.Setenv("GITHUB_STEP_SUMMARY", s.stepSummary)
	for _, k := range []string{"GITHUB_EVENT_PATH", "GITHUB_EVENT_NAME", "GITHUB_TOKEN", "GH_TOKEN"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	for _, e := range os.Environ() {
		if k, _, _ := strings.Cut(e, "="); strings.HasPrefix(k, "INPUT_") {
			t.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
	return s
}

// filePatch is git diff's output for one file as GitHub's pull request
// files carry it: from the first hunk on.
func filePatch(diff string) string {
	if i := strings.Index(diff, "@@"); i >= 0 {
		return diff[i:] + "\n"
	}
	return ""
}

func (s *actionSandbox) outputs(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(s.output)
	if err != nil {
		t.Fatal(err)
	}
	return parseGitHubOutput(t, string(b))
}

// flagValue returns the value after name in args.
func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

func writeJSONReport(t *testing.T, name string, fs []checks.Finding) {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := (report.JSON{}).Write(f, &report.Report{Findings: fs, ToolVersion: "test"}); err != nil {
		t.Fatal(err)
	}
}

var testFindings = []checks.Finding{
	{Rule: "IL1001", Severity: checks.Error, Message: "a.n read without a.mu", Pos: checks.Position{File: "mod/a/a.go", Line: 9}, Evidence: checks.Static, Package: "example.com/m/a", Func: "A.Get", Snippet: "return a.n"},
	{Rule: "IL2001", Severity: checks.Warning, Message: "write under RLock", Pos: checks.Position{File: "mod/b/b.go", Line: 5}, Evidence: checks.Static, Package: "example.com/m/b", Func: "B.Set", Snippet: "b.n++"},
}

// The token is out of the environment (and of every child process's) while
// pr runs, and in GITHUB_TOKEN only while post runs. What pr prints is
// fenced by stop-commands markers.
func TestActionTokenOnlyForPost(t *testing.T) {
	ws := t.TempDir()
	if err := os.Mkdir(filepath.Join(ws, "mod"), 0o755); err != nil {
		t.Fatal(err)
	}
	sb := newActionSandbox(t, ws)
	const secret = "ghs_s3cretTokenValue"
	t.Setenv("INPUT_GITHUB_TOKEN", secret)
	t.Setenv("GITHUB_TOKEN", secret)
	t.Setenv("GH_TOKEN", secret)
	t.Setenv("ACTIONS_RUNTIME_TOKEN", "runtime-"+secret)
	t.Setenv("INPUT_WORKING_DIRECTORY", "mod")
	t.Setenv("INPUT_BUDGET", "2m")

	var prArgs, postArgs []string
	prRan, postRan := false, false
	fakePR := &command{name: "pr", run: func(ctx context.Context, env *cliEnv, args []string) int {
		prRan, prArgs = true, args
		for _, k := range actionSecretEnv {
			if v, ok := os.LookupEnv(k); ok {
				t.Errorf("%s=%q is visible to pr", k, v)
			}
		}
		for _, e := range os.Environ() {
			if strings.Contains(e, secret) {
				t.Errorf("the token is visible to pr in %q", e)
			}
		}
		out, err := exec.Command("env").Output()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), secret) {
			t.Error("the token is visible to processes pr starts")
		}
		if env.dir != filepath.Join(ws, "mod") {
			t.Errorf("pr runs in %s, want the working directory", env.dir)
		}
		fmt.Fprintln(env.stderr, "::add-mask::printed by a test under review")
		writeJSONReport(t, flagValue(args, "-o"), testFindings)
		os.WriteFile(flagValue(args, "-sarif"), []byte("{}"), 0o644)
		os.WriteFile(flagValue(args, "-summary"), []byte("## interleave\n"), 0o644)
		return exitFindings
	}}
	fakePost := &command{name: "post", run: func(ctx context.Context, env *cliEnv, args []string) int {
		postRan, postArgs = true, args
		if got := os.Getenv("GITHUB_TOKEN"); got != secret {
			t.Errorf("post sees GITHUB_TOKEN=%q, want the input token", got)
		}
		return exitOK
	}}
	a := &actionRunner{command: func(name string) *command {
		return map[string]*command{"pr": fakePR, "post": fakePost}[name]
	}}
	env, _, stderr := testEnv(t, ws)
	code := a.run(context.Background(), env)
	if code != exitFindings || !prRan || !postRan {
		t.Fatalf("exit %d (pr ran %v, post ran %v), want 1; stderr:\n%s", code, prRan, postRan, stderr)
	}
	if _, ok := os.LookupEnv("GITHUB_TOKEN"); ok {
		t.Error("GITHUB_TOKEN is still set after post")
	}

	wantPR := []string{"-format", "json", "-o", filepath.Join(ws, "mod", actionReportFile),
		"-sarif", filepath.Join(ws, "mod", "interleave.sarif"), "-summary", filepath.Join(ws, "mod", actionSummaryFile)}
	if strings.Join(prArgs, " ") != strings.Join(wantPR, " ") {
		t.Errorf("pr args:\n got %q\nwant %q", prArgs, wantPR)
	}
	if flagValue(postArgs, "-report") != filepath.Join(ws, "mod", actionReportFile) || flagValue(postArgs, "-fail-on") != prjob.DefaultFailOn ||
		flagValue(postArgs, "-sarif") != filepath.Join(ws, "mod", "interleave.sarif") {
		t.Errorf("post args: %q", postArgs)
	}

	m := regexp.MustCompile(`(?s)::stop-commands::([0-9a-f]{32})\n(.*)::([0-9a-f]{32})::\n`).FindStringSubmatch(stderr.String())
	if m == nil || m[1] != m[3] || !strings.Contains(m[2], "::add-mask::printed by a test under review") {
		t.Errorf("pr's output is not fenced by stop-commands markers:\n%s", stderr)
	}

	got := sb.outputs(t)
	want := map[string]string{"findings": "2", "sarif-file": "mod/interleave.sarif", "summary-file": "mod/interleave-summary.md", "report-file": "mod/interleave-report.json"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("output %s = %q, want %q", k, got[k], v)
		}
	}
}

func TestActionShardDoesNotPost(t *testing.T) {
	ws := t.TempDir()
	sb := newActionSandbox(t, ws)
	t.Setenv("INPUT_SHARD", "2/4")
	t.Setenv("INPUT_PACKAGES", "./a/...")
	if err := os.WriteFile(filepath.Join(ws, ".git"), []byte("gitdir: elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var prArgs []string
	fakePR := &command{name: "pr", run: func(ctx context.Context, env *cliEnv, args []string) int {
		prArgs = args
		fs := []checks.Finding{testFindings[0], testFindings[1]}
		fs[0].Pos.File, fs[1].Pos.File = "a/x/a.go", "b/b.go"
		// The job keeps the findings in -packages (prjob.FilterPackages).
		fs, _ = prjob.FilterPackages(fs, env.dir, ws, strings.Split(flagValue(args, "-packages"), ","))
		writeJSONReport(t, flagValue(args, "-o"), fs)
		return exitOK
	}}
	a := &actionRunner{command: func(name string) *command {
		if name == "post" {
			t.Error("a shard must not post")
		}
		return map[string]*command{"pr": fakePR}[name]
	}}
	env, _, stderr := testEnv(t, ws)
	if code := a.run(context.Background(), env); code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	if flagValue(prArgs, "-shard") != "2/4" || flagValue(prArgs, "-packages") != "./a/..." || flagValue(prArgs, "-sarif") != "" || flagValue(prArgs, "-summary") != "" {
		t.Errorf("pr args %q: want -shard 2/4, -packages ./a/... and neither -sarif nor -summary", prArgs)
	}
	got := sb.outputs(t)
	if got["report-file"] != "interleave-shard-2-of-4.json" || got["findings"] != "1" || got["sarif-file"] != "" {
		t.Errorf("outputs %q; want the shard report with the one finding under ./a/...", got)
	}
}

func TestActionBadInput(t *testing.T) {
	ws := t.TempDir()
	newActionSandbox(t, ws)
	t.Setenv("INPUT_SCOPE", "diff")
	t.Setenv("INPUT_STRATEGIES", "nope")
	t.Setenv("INPUT_GITHUB_TOKEN", "tok")
	env, _, stderr := testEnv(t, ws)
	if code := runMain(context.Background(), env, []string{"action"}); code != exitError {
		t.Errorf("exit %d, want 2", code)
	}
	for _, want := range []string{
		`::error title=interleave: bad input::input scope: "diff" is not valid: use one of changed, package, all`,
		`::error title=interleave: bad input::input strategies: unknown strategy "nope": valid strategies are ` + strings.Join(explore.Strategies, ", "),
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if _, ok := os.LookupEnv("INPUT_GITHUB_TOKEN"); ok {
		t.Error("the token input is still in the environment after a bad input")
	}
	t.Setenv("INPUT_SCOPE", "")
	t.Setenv("INPUT_STRATEGIES", "")
	t.Setenv("INPUT_WORKING_DIRECTORY", "nope")
	stderr.Reset()
	if code := runMain(context.Background(), env, []string{"action"}); code != exitError || !strings.Contains(stderr.String(), `input working-directory: "nope" is not a directory`) {
		t.Errorf("exit %d, stderr %s", code, stderr)
	}
}

const actionFixtureBase = `package a

import "sync"

// Counter counts.
type Counter struct {
	mu sync.Mutex
	n  int // guarded by mu
}

// Inc adds one.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Add adds v.
func (c *Counter) Add(v int) {
	c.mu.Lock()
	c.n += v
	c.mu.Unlock()
}
`

const actionFixtureHead = actionFixtureBase + `
// Get reads the count without the lock.
func (c *Counter) Get() int {
	return c.n
}

// Cache counts its lookups.
type Cache struct {
	mu   sync.RWMutex
	hits int // guarded by mu
	m    map[string]int
}

// Lookup writes hits under the read lock.
func (c *Cache) Lookup(k string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	c.hits++
	return c.m[k]
}

// Reset clears hits; on an empty cache it returns holding the lock.
func (c *Cache) Reset() {
	c.mu.Lock()
	if c.m == nil {
		return
	}
	c.hits = 0
	c.mu.Unlock()
}
`

// The action on a real repository with the real pr (static analysis only):
// findings on the changed lines, outputs, SARIF, the job summary, the
// review comments post makes from the report; then the packages input
// dropping them.
func TestActionRealPR(t *testing.T) {
	r := newPRRepo(t)
	base := r.commit(map[string]string{"mod/go.mod": "module example.com/m\n\ngo 1.22\n", "mod/a/a.go": actionFixtureBase})
	r.commit(map[string]string{"mod/a/a.go": actionFixtureHead})
	sb := newActionSandbox(t, r.dir)
	t.Setenv("INPUT_WORKING_DIRECTORY", "mod")
	t.Setenv("INPUT_BASE", base)
	t.Setenv("INPUT_BUDGET", "0")
	t.Setenv("INPUT_COMMENT", "false")
	t.Setenv("INPUT_FAIL_ON", "note")

	env, _, stderr := testEnv(t, r.dir)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	code := runMain(ctx, env, []string{"action"})
	if code != exitFindings {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	out := sb.outputs(t)
	if out["findings"] == "" || out["findings"] == "0" || out["sarif-file"] != "mod/interleave.sarif" {
		t.Fatalf("outputs %q", out)
	}
	rep, err := actionReadReport(filepath.Join(r.dir, out["report-file"]))
	if err != nil {
		t.Fatal(err)
	}
	// Issue 24: IL2002's held-out precision clears the posting bar, so its
	// finding is reported; IL2001's does not, and with no search to
	// confirm it, its finding is in the job summary only.
	const rule = "IL2002"
	var held *report.JSONFinding
	for i, f := range rep.Findings {
		if f.Pos.File == "mod/a/a.go" && f.Rule == rule {
			held = &rep.Findings[i]
		}
		if f.Rule == "IL2001" || f.Rule == "IL1001" {
			t.Errorf("unconfirmed %s finding in the report: %+v", f.Rule, f)
		}
	}
	if held == nil {
		t.Fatalf("no %s in mod/a/a.go among %+v", rule, rep.Findings)
	}
	sarif, err := os.ReadFile(filepath.Join(r.dir, out["sarif-file"]))
	if err != nil || !strings.Contains(string(sarif), `"ruleId": "`+rule+`"`) {
		t.Errorf("SARIF lacks %s (%v):\n%.400s", rule, err, sarif)
	}
	md, err := os.ReadFile(sb.stepSummary)
	if err != nil || !strings.Contains(string(md), rule) || !strings.Contains(string(md), "<details><summary>Change:") ||
		!regexp.MustCompile("\\| IL2001 \\| `mod/a/a.go:\\d+` \\|").Match(md) {
		t.Errorf("job summary (%v) lacks %s, the change or the unconfirmed IL2001:\n%s", err, rule, md)
	}

	// Posted on the pull request: one review comment, the IL2002 one.
	gh := ghtest.New(t)
	gh.AddToken("ghs_post", true)
	gh.AddPull(ghtest.Pull{Owner: "octo", Repo: "demo", Number: 3, HeadSHA: postSHA, BaseSHA: strings.Repeat("b", 40),
		Files: []ghtest.File{{Filename: "mod/a/a.go", Patch: filePatch(r.git("diff", base, "HEAD", "--", "mod/a/a.go"))}}})
	event := writeTemp(t, "event.json", `{"action":"synchronize","pull_request":{"number":3,"head":{"sha":"`+postSHA+`"},"base":{"sha":"`+strings.Repeat("b", 40)+`"}}}`)
	vars := map[string]string{"GITHUB_TOKEN": "ghs_post", "GITHUB_API_URL": gh.URL(), "GITHUB_REPOSITORY": "octo/demo",
		"GITHUB_EVENT_PATH": event, "GITHUB_EVENT_NAME": "pull_request"}
	if code, _, perr := postRun(t, r.dir, vars, "-report", filepath.Join(r.dir, out["report-file"]), "-check=false"); code == exitError {
		t.Fatalf("post: exit %d:\n%s", code, perr)
	}
	if cs := gh.ReviewComments("octo", "demo", 3); len(cs) != 1 || cs[0].GetLine() != held.Pos.Line || !strings.Contains(cs[0].GetBody(), rule) {
		var got []string
		for _, c := range cs {
			got = append(got, fmt.Sprintf("%s:%d %.60q", c.GetPath(), c.GetLine(), c.GetBody()))
		}
		t.Errorf("review comments %v, want one, the %s at line %d", got, rule, held.Pos.Line)
	}

	// packages selects another directory: nothing is reported.
	t.Setenv("INPUT_PACKAGES", "./b/...")
	os.Remove(sb.output)
	stderr.Reset()
	if code := runMain(ctx, env, []string{"action"}); code != exitOK {
		t.Fatalf("with packages ./b/...: exit %d, want 0; stderr:\n%s", code, stderr)
	}
	if out := sb.outputs(t); out["findings"] != "0" {
		t.Errorf("with packages ./b/...: findings %q", out["findings"])
	}
	sarif, _ = os.ReadFile(filepath.Join(r.dir, "mod", "interleave.sarif"))
	if strings.Contains(string(sarif), rule) {
		t.Error("the SARIF file still has the finding outside packages")
	}
	md, _ = os.ReadFile(filepath.Join(r.dir, "mod", actionSummaryFile))
	if !strings.Contains(string(md), "outside the packages input (./b/...) not reported") || !strings.Contains(string(md), "<details><summary>Change:") {
		t.Errorf("summary:\n%s", md)
	}
}

// report mode merges earlier reports (here two shards) and hands the result
// to the real post command, which without a token degrades to annotations.
func TestActionReportMode(t *testing.T) {
	if commands["post"] == nil {
		t.Skip("interleave post is not in this build yet (cmd/interleave/post.go)")
	}
	ws := t.TempDir()
	sb := newActionSandbox(t, ws)
	if err := os.MkdirAll(filepath.Join(ws, "art"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeJSONReport(t, filepath.Join(ws, "art", "shard-1.json"), testFindings[:1])
	writeJSONReport(t, filepath.Join(ws, "art", "shard-2.json"), testFindings)
	event := filepath.Join(ws, "event.json")
	head := strings.Repeat("c", 40)
	os.WriteFile(event, []byte(fmt.Sprintf(`{"action":"opened","number":7,"pull_request":{"number":7,"head":{"sha":%q},"base":{"sha":%q}},"repository":{"full_name":"o/r","default_branch":"main"}}`, head, strings.Repeat("d", 40))), 0o644)
	t.Setenv("GITHUB_EVENT_PATH", event)
	t.Setenv("GITHUB_EVENT_NAME", "pull_request")
	t.Setenv("GITHUB_REPOSITORY", "o/r")
	t.Setenv("GITHUB_SHA", head)
	t.Setenv("INPUT_REPORT", "art/*.json")
	t.Setenv("INPUT_PR_NUMBER", "7")

	env, stdout, stderr := testEnv(t, ws)
	code := runMain(context.Background(), env, []string{"action"})
	t.Logf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	if code != exitFindings {
		t.Fatalf("exit %d, want 1 (an error finding); stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	out := sb.outputs(t)
	if out["findings"] != "2" || out["report-file"] != "interleave-report.json" || out["sarif-file"] != "interleave.sarif" {
		t.Errorf("outputs %q", out)
	}
	if !strings.Contains(stdout.String(), "::error file=mod/a/a.go,line=9,") {
		t.Errorf("post printed no annotation for the finding:\n%s", stdout)
	}
	if md, err := os.ReadFile(sb.stepSummary); err != nil || !strings.Contains(string(md), "IL1001") {
		t.Errorf("job summary (%v): %q", err, md)
	}
}

// When pr cannot run, nothing is posted, the reason reaches the job summary
// and the step exits 2 without a findings output.
func TestActionPRCouldNotRun(t *testing.T) {
	ws := t.TempDir()
	sb := newActionSandbox(t, ws)
	// A report left by an earlier run must not be posted.
	writeJSONReport(t, filepath.Join(ws, actionReportFile), testFindings)
	fakePR := &command{name: "pr", run: func(ctx context.Context, env *cliEnv, args []string) int {
		os.WriteFile(flagValue(args, "-summary"), []byte("## interleave could not run\n\nthe head does not compile\n"), 0o644)
		return exitError
	}}
	a := &actionRunner{command: func(name string) *command {
		if name == "post" {
			t.Error("post ran although pr could not")
		}
		return map[string]*command{"pr": fakePR}[name]
	}}
	env, _, stderr := testEnv(t, ws)
	if code := a.run(context.Background(), env); code != exitError {
		t.Fatalf("exit %d, want 2; stderr:\n%s", code, stderr)
	}
	md, err := os.ReadFile(sb.stepSummary)
	if err != nil || !strings.Contains(string(md), "the head does not compile") {
		t.Errorf("job summary (%v): %q", err, md)
	}
	out := sb.outputs(t)
	if _, ok := out["findings"]; ok || out["summary-file"] != actionSummaryFile || out["report-file"] != "" {
		t.Errorf("outputs %q", out)
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
		case in.name == "budget":
			yd, err1 := time.ParseDuration(y.Default)
			gd, err2 := time.ParseDuration(in.def)
			if err1 != nil || err2 != nil || yd != gd {
				t.Errorf("input budget: action.yml default %q, interleave action's %q", y.Default, in.def)
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
		Tags: []string{"integration"}, Workers: 3, Seed: 42, Verbose: true, GenBudget: "1m", Packages: []string{"./a/..."},
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
	// schedule files stay in the module's .interleave directory.
	notExposed := map[string]bool{"head": true, "schedules": true}
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
