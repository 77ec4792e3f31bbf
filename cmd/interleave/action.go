package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/interleave-dev/interleave/affected"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/internal/defaults"
	"github.com/interleave-dev/interleave/internal/prjob"
	"github.com/interleave-dev/interleave/report"
)

func init() {
	register(&command{
		name:  "action",
		short: "Run as the GitHub Action: read INPUT_* variables, analyze, post, set outputs",
		usage: "",
		run: func(ctx context.Context, env *cliEnv, args []string) int {
			fs := newFlagSet(env, commands["action"])
			fs.Usage = func() {
				c := commands["action"]
				fmt.Fprintf(env.stderr, "%s\n\nUsage: interleave action\n\nIt takes no flags; it reads the inputs of action.yml from:\n", c.short)
				for _, i := range actionInputList {
					fmt.Fprintf(env.stderr, "  %s (default %q)\n", actionInputEnv(i.name), i.def)
				}
			}
			if code, ok := parseFlags(fs, args); !ok {
				return code
			}
			if fs.NArg() > 0 {
				fmt.Fprintf(env.stderr, "interleave action: unexpected arguments %q: the action is configured through INPUT_* variables\n", fs.Args())
				return exitError
			}
			return (&actionRunner{command: func(name string) *command { return commands[name] }}).run(ctx, env)
		},
	})
}

// Files the action writes in the working directory, next to the SARIF file.
const (
	actionReportFile  = "interleave-report.json"
	actionSummaryFile = "interleave-summary.md"
)

// actionMaxStepSummary is GitHub's limit on one step's job summary.
const actionMaxStepSummary = 1 << 20

// actionSecretEnv are removed from the process environment before the
// user's code is built and run, so a test under review cannot read them.
var actionSecretEnv = []string{
	"GITHUB_TOKEN", "GH_TOKEN", "INPUT_GITHUB_TOKEN",
	"ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_URL",
}

// actionInput is one input of action.yml that interleave action reads.
type actionInput struct {
	name string
	def  string // the value an empty input takes; action.yml's default is the same
}

// actionInputs lists the inputs of action.yml that interleave action
// reads, in action.yml's order; its own "cache" input is used by the
// action's steps alone. The defaults of the pr flags come from
// internal/defaults, as for interleave pr and interleave serve.
var actionInputList = []actionInput{
	{"github-token", ""}, // action.yml: ${{ github.token }}
	{"base", ""},
	{"budget", actionDuration(defaults.Budget)},
	{"gen-budget", "auto"},
	{"fail-on", defaults.FailOn},
	{"scope", defaults.Scope},
	{"run", ""},
	{"strategies", ""}, // "": interleave pr's default
	{"race", strconv.FormatBool(defaults.Race)},
	{"enable", ""},
	{"disable", ""},
	{"tags", ""},
	{"workers", "0"},
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

// actionInputEnv is the variable action.yml passes an input in: INPUT_
// plus the name upper-cased, with hyphens and spaces as underscores
// (INPUT_FAIL_ON).
func actionInputEnv(name string) string {
	return "INPUT_" + strings.ToUpper(strings.NewReplacer("-", "_", " ", "_").Replace(name))
}

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
		v := strings.TrimSpace(getenv(actionInputEnv(name)))
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
	d, err := time.ParseDuration(budget)
	switch {
	case err != nil:
		bad("budget", "%q is not a duration such as 5m, 90s or 0 (no dynamic search)", budget)
	case d < 0:
		bad("budget", "%q must not be negative", budget)
	}
	in.Budget = d
	in.GenBudget = get("gen-budget")
	if err := new(genBudgetFlag).Set(in.GenBudget); err != nil {
		bad("gen-budget", "%q is not auto, 0 (no generated tests) or a duration such as 1m", in.GenBudget)
	}
	in.FailOn = oneOf("fail-on", []string{"note", "warning", "error"})
	in.Scope = oneOf("scope", []string{prjob.ScopeChanged, prjob.ScopePackage, prjob.ScopeAll})
	if run := get("run"); run != "" {
		if _, err := regexp.Compile(run); err != nil {
			bad("run", "%v", err)
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
	if seed := get("seed"); seed != "" {
		v, err := strconv.ParseInt(seed, 10, 64)
		if err != nil || v < 1 {
			bad("seed", "%q is not a positive integer", seed)
		}
		in.Seed = v
	}
	in.Shard = get("shard")
	if in.Shard != "" {
		if _, _, err := parseShard(in.Shard); err != nil {
			bad("shard", "%q: want i/n with 1 <= i <= n, as in 2/4", in.Shard)
		}
	}
	pkgs := actionList(get("packages"))
	all := false
	for _, p := range pkgs {
		if err := actionCheckPattern(p); err != nil {
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

// actionCheckPattern accepts package patterns relative to the working
// directory: ".", "./...", "./dir" or "./dir/...".
func actionCheckPattern(p string) error {
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

// actionRunner runs the action; command looks subcommands up, so tests can
// substitute pr and post.
type actionRunner struct {
	command func(name string) *command
}

// actionFiles are the paths the action writes, absolute.
type actionFiles struct {
	report, sarif, summary string
}

func (a *actionRunner) run(ctx context.Context, env *cliEnv) int {
	logf := func(format string, args ...any) { fmt.Fprintf(env.stderr, "interleave action: "+format+"\n", args...) }
	in, err := parseActionInputs(os.Getenv)
	// The token leaves the environment before anything else runs; post gets
	// it back explicitly.
	for _, name := range actionSecretEnv {
		os.Unsetenv(name)
	}
	if err != nil {
		for _, e := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(env.stderr, "::error title=interleave: bad input::%s\n", actionEscape(e))
		}
		logf("see the inputs of action.yml; nothing was analyzed")
		return exitError
	}

	dir := prjob.AbsIn(env.dir, in.WorkDir)
	if ws := os.Getenv("GITHUB_WORKSPACE"); ws != "" && !filepath.IsAbs(in.WorkDir) {
		dir = prjob.AbsIn(ws, in.WorkDir)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		logf("input working-directory: %q is not a directory", in.WorkDir)
		return exitError
	}
	if err := os.Chdir(dir); err != nil {
		logf("input working-directory: %v", err)
		return exitError
	}
	wenv := &cliEnv{stdout: env.stdout, stderr: env.stderr, dir: dir}

	files := actionFiles{report: filepath.Join(dir, actionReportFile), summary: filepath.Join(dir, actionSummaryFile)}
	if in.SARIFFile != "" {
		files.sarif = prjob.AbsIn(dir, in.SARIFFile)
	}
	if in.Shard != "" {
		i, n, _ := parseShard(in.Shard)
		files = actionFiles{report: filepath.Join(dir, fmt.Sprintf("interleave-shard-%d-of-%d.json", i, n))}
	}

	var code int
	if len(in.Reports) > 0 {
		code = a.merge(ctx, wenv, in, files)
	} else {
		os.Remove(files.report) // never post a report left by an earlier run
		code = a.analyze(ctx, wenv, in, files)
	}
	count, err := actionCountFindings(files.report)
	if err != nil {
		// Nothing to post: show why in the job summary.
		if code != exitError {
			logf("%v", err)
		}
		if in.Shard == "" {
			if err := actionAppendStepSummary(files.summary); err != nil && !errors.Is(err, os.ErrNotExist) {
				logf("job summary: %v", err)
			}
		}
		a.writeOutputs(env, files, -1)
		return exitError
	}
	// A run that failed part-way (the dynamic search) still posts what it found.
	if len(in.Packages) > 0 {
		restricted, err := actionRestrict(wenv, in, files)
		if err != nil {
			logf("input packages: %v", err)
			return exitError
		}
		if code != exitError {
			code = restricted
		}
		if count, err = actionCountFindings(files.report); err != nil {
			logf("%v", err)
			return exitError
		}
	}

	switch {
	case in.Shard != "":
		logf("shard %s: %d %s in %s; combine the shards with the report input", in.Shard, count, checkPlural(count, "finding"), files.report)
	case in.Comment:
		if pc := a.post(ctx, wenv, in, files); pc != exitOK {
			logf("posting the results failed (exit %d)", pc)
			a.writeOutputs(env, files, count)
			return exitError
		}
	default:
		if err := actionAppendStepSummary(files.summary); err != nil {
			logf("job summary: %v", err)
		}
	}
	if err := a.writeOutputs(env, files, count); err != nil {
		logf("outputs: %v", err)
		return exitError
	}
	return code
}

// analyze runs interleave pr in process (prjob.Run behind pr's flags, so
// the action gets pr's defaults and checks); what the code under review
// prints is shown with workflow commands off.
func (a *actionRunner) analyze(ctx context.Context, env *cliEnv, in *actionInputs, files actionFiles) int {
	pr := a.command("pr")
	args := actionPRArgs(in, files)
	return actionUntrusted(env, func(e *cliEnv) int { return pr.run(ctx, e, args) })
}

// actionPRArgs is the interleave pr command line for the inputs: a flag
// for every input that differs from pr's default, and the output files.
func actionPRArgs(in *actionInputs, files actionFiles) []string {
	args := []string{"-format", "json", "-o", files.report, "-budget", in.Budget.String(), "-fail-on", in.FailOn, "-scope", in.Scope}
	if in.Base != "" {
		args = append(args, "-base", in.Base)
	}
	if in.GenBudget != "auto" {
		args = append(args, "-gen-budget", in.GenBudget)
	}
	if in.Run != "" {
		args = append(args, "-run", in.Run)
	}
	if len(in.Strategies) > 0 {
		args = append(args, "-strategy", strings.Join(in.Strategies, ","))
	}
	if in.Race != defaults.Race {
		// Only an explicit false: pr's default turns the race detector
		// off, with a note, where cgo does not work.
		args = append(args, "-race="+strconv.FormatBool(in.Race))
	}
	if len(in.Enable) > 0 {
		args = append(args, "-enable", strings.Join(in.Enable, ","))
	}
	if len(in.Disable) > 0 {
		args = append(args, "-disable", strings.Join(in.Disable, ","))
	}
	if len(in.Tags) > 0 {
		args = append(args, "-tags", strings.Join(in.Tags, ","))
	}
	if in.Workers > 0 {
		args = append(args, "-workers", strconv.Itoa(in.Workers))
	}
	if in.Seed != 0 {
		args = append(args, "-seed", strconv.FormatInt(in.Seed, 10))
	}
	if in.Verbose {
		args = append(args, "-v")
	}
	if in.Shard != "" {
		args = append(args, "-shard", in.Shard)
	} else {
		args = append(args, "-summary", files.summary)
		if files.sarif != "" {
			args = append(args, "-sarif", files.sarif)
		}
	}
	return args
}

// merge combines earlier JSON reports (one, or the shards of a run).
func (a *actionRunner) merge(ctx context.Context, env *cliEnv, in *actionInputs, files actionFiles) int {
	var reports []string
	for _, pat := range in.Reports {
		matches, err := filepath.Glob(prjob.AbsIn(env.dir, pat))
		if err != nil || len(matches) == 0 {
			fmt.Fprintf(env.stderr, "interleave action: input report: no file matches %q in %s\n", pat, env.dir)
			return exitError
		}
		reports = append(reports, matches...)
	}
	args := []string{"-format", "json", "-o", files.report, "-summary", files.summary, "-fail-on", in.FailOn}
	if files.sarif != "" {
		args = append(args, "-sarif", files.sarif)
	}
	merge := a.command("merge")
	return actionUntrusted(env, func(e *cliEnv) int { return merge.run(ctx, e, append(args, reports...)) })
}

// post hands the report to interleave post with the token in GITHUB_TOKEN
// for this step only.
func (a *actionRunner) post(ctx context.Context, env *cliEnv, in *actionInputs, files actionFiles) int {
	post := a.command("post")
	if post == nil {
		fmt.Fprintln(env.stderr, "interleave action: this build has no post command; set comment: false")
		return exitError
	}
	args := []string{"-report", files.report, "-summary", files.summary, "-fail-on", in.FailOn}
	if files.sarif != "" {
		if _, err := os.Stat(files.sarif); err == nil {
			args = append(args, "-sarif", files.sarif)
		}
	}
	if in.PRNumber > 0 {
		args = append(args, "-pr", strconv.Itoa(in.PRNumber))
	}
	if in.SHA != "" {
		args = append(args, "-sha", in.SHA)
	}
	if in.Token != "" {
		os.Setenv("GITHUB_TOKEN", in.Token)
		defer os.Unsetenv("GITHUB_TOKEN")
	}
	return post.run(ctx, env, args)
}

// actionUntrusted runs f with its output (which quotes the code under
// review) between ::stop-commands:: markers, on one stream so the markers
// stay in order.
func actionUntrusted(env *cliEnv, f func(*cliEnv) int) int {
	var b [16]byte
	rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	fmt.Fprintf(env.stderr, "::stop-commands::%s\n", token)
	code := f(&cliEnv{stdout: env.stderr, stderr: env.stderr, dir: env.dir})
	fmt.Fprintf(env.stderr, "::%s::\n", token)
	return code
}

// actionRestrict keeps only the findings whose file lies in one of the
// packages patterns, rewrites the report, SARIF and summary, and returns
// the exit code for what is left.
func actionRestrict(env *cliEnv, in *actionInputs, files actionFiles) (int, error) {
	rep, err := actionReadReport(files.report)
	if err != nil {
		return exitError, err
	}
	root, ok := affected.RepoRoot(env.dir)
	if !ok {
		// A report posted without its checkout: take its names as relative
		// to the working directory.
		root = env.dir
	}
	var kept []checks.Finding
	dropped := 0
	for _, f := range rep.Findings {
		if f.Pos.File == "" || actionMatchPackages(env.dir, in.Packages, prjob.AbsIn(root, f.Pos.File)) {
			kept = append(kept, f.Finding)
		} else {
			dropped++
		}
	}
	extra := ""
	if dropped > 0 {
		extra = fmt.Sprintf("\n- note: %d %s outside the packages input (%s) not reported\n", dropped, checkPlural(dropped, "finding"), strings.Join(in.Packages, " "))
	}
	if old, err := os.ReadFile(files.summary); err == nil {
		// Keep the change details interleave pr appended to its summary.
		if i := strings.Index(string(old), "\n<details><summary>Change:"); i >= 0 {
			extra += string(old[i:])
		}
	}
	out := &report.Report{Findings: kept, Root: root, ToolVersion: rep.Tool.Version, Tests: rep.Tests}
	for _, f := range rep.PreExisting {
		out.PreExisting = append(out.PreExisting, f.Finding)
	}
	summary := files.summary
	if in.Shard != "" {
		summary = ""
	}
	if err := prjob.WriteOutputs(out, prjob.Outputs{Dir: env.dir, Stdout: env.stdout, Format: "json", Output: files.report, SARIF: files.sarif, Summary: summary, Extra: extra}); err != nil {
		return exitError, err
	}
	sev, _ := checks.ParseSeverity(in.FailOn)
	if in.Shard != "" {
		return exitOK, nil
	}
	return prExitCode(kept, sev), nil
}

// actionMatchPackages reports whether file is in a package the patterns
// (relative to dir) select.
func actionMatchPackages(dir string, patterns []string, file string) bool {
	fileDir := filepath.Dir(file)
	for _, p := range patterns {
		rest, recursive := strings.CutSuffix(p, "/...")
		pdir := prjob.AbsIn(dir, rest)
		if fileDir == pdir {
			return true
		}
		if rel, err := filepath.Rel(pdir, fileDir); recursive && err == nil && !strings.HasPrefix(rel, "..") {
			return true
		}
	}
	return false
}

func actionReadReport(name string) (*report.JSONReport, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("read report: %w", err)
	}
	var r report.JSONReport
	if err := json.Unmarshal(b, &r); err != nil || r.Tool.Name != "interleave" {
		return nil, fmt.Errorf("%s is not an interleave JSON report", name)
	}
	return &r, nil
}

func actionCountFindings(name string) (int, error) {
	r, err := actionReadReport(name)
	if err != nil {
		return 0, err
	}
	return len(r.Findings), nil
}

// actionAppendStepSummary adds the markdown summary to the job summary,
// cut to GitHub's 1 MiB limit.
func actionAppendStepSummary(summary string) error {
	dst := os.Getenv("GITHUB_STEP_SUMMARY")
	if dst == "" {
		return nil
	}
	md, err := os.ReadFile(summary)
	if err != nil {
		return err
	}
	const cut = "\n\n… (summary cut at GitHub's 1 MiB limit; the full report is in the SARIF and JSON files)\n"
	if len(md) > actionMaxStepSummary {
		n := actionMaxStepSummary - len(cut)
		for n > 0 && !utf8.RuneStart(md[n]) {
			n-- // do not split a character
		}
		md = append(md[:n], cut...)
	}
	f, err := os.OpenFile(dst, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(md)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeOutputs writes the step outputs to $GITHUB_OUTPUT; count < 0 means
// the analysis did not finish and findings is left unset.
func (a *actionRunner) writeOutputs(env *cliEnv, files actionFiles, count int) error {
	name := os.Getenv("GITHUB_OUTPUT")
	if name == "" {
		return nil
	}
	ws := os.Getenv("GITHUB_WORKSPACE")
	rel := func(p string) string {
		if p == "" {
			return ""
		}
		if _, err := os.Stat(p); err != nil {
			return ""
		}
		if ws != "" {
			if r, err := filepath.Rel(ws, p); err == nil && !strings.HasPrefix(r, "..") {
				return filepath.ToSlash(r)
			}
		}
		return p
	}
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if count >= 0 {
		err = writeGitHubOutput(f, "findings", strconv.Itoa(count))
	}
	for _, kv := range [][2]string{{"sarif-file", rel(files.sarif)}, {"summary-file", rel(files.summary)}, {"report-file", rel(files.report)}} {
		if err == nil {
			err = writeGitHubOutput(f, kv[0], kv[1])
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeGitHubOutput writes one output: name=value, or the heredoc form
// with a random delimiter when the value spans lines.
func writeGitHubOutput(w io.Writer, name, value string) error {
	if !strings.ContainsAny(value, "\r\n") {
		_, err := fmt.Fprintf(w, "%s=%s\n", name, value)
		return err
	}
	var b [12]byte
	rand.Read(b[:])
	delim := "ghadelimiter_" + hex.EncodeToString(b[:])
	_, err := fmt.Fprintf(w, "%s<<%s\n%s\n%s\n", name, delim, value, delim)
	return err
}

// actionEscape escapes workflow-command data: %, CR and LF.
func actionEscape(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}
