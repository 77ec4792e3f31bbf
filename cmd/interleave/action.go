package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
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
				for _, name := range actionInputNames {
					fmt.Fprintf(env.stderr, "  %s\n", actionInputEnv(name))
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
	"GITHUB_TOKEN", "GH_TOKEN", "INPUT_GITHUB-TOKEN",
	"ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_URL",
}

// actionInputNames are the inputs of action.yml, in its order.
var actionInputNames = []string{
	"github-token", "base", "budget", "fail-on", "scope", "strategies", "packages", "sarif-file",
	"comment", "shard", "working-directory", "report", "pr-number", "sha", "seed", "run",
}

// actionInputEnv is the variable the runner sets for a docker action's
// input: INPUT_ plus the name upper-cased with spaces replaced by
// underscores; hyphens are kept (INPUT_FAIL-ON).
func actionInputEnv(name string) string {
	return "INPUT_" + strings.ToUpper(strings.ReplaceAll(name, " ", "_"))
}

// actionInputs is action.yml's inputs, validated.
type actionInputs struct {
	Token      string
	Base       string
	Budget     time.Duration
	FailOn     string
	Scope      string
	Strategies []string
	Packages   []string // patterns relative to WorkDir; nil means all
	SARIFFile  string
	Comment    bool
	Shard      string
	WorkDir    string
	Reports    []string // files or globs: post these instead of analyzing
	PRNumber   int
	SHA        string // the commit the results are posted on; "" lets post read the event
	Seed       int64  // 0: pr derives it from the commits
	Run        string // regexp: search only the affected tests it matches
}

// parseActionInputs reads and validates the inputs; the error lists every
// bad input.
func parseActionInputs(getenv func(string) string) (*actionInputs, error) {
	in := &actionInputs{}
	var errs []error
	get := func(name, def string) string {
		v := strings.TrimSpace(getenv(actionInputEnv(name)))
		if v == "" {
			return def
		}
		return v
	}
	bad := func(name, format string, a ...any) {
		errs = append(errs, fmt.Errorf("input %s: "+format, append([]any{name}, a...)...))
	}
	oneOf := func(name, def string, allowed []string) string {
		v := get(name, def)
		for _, a := range allowed {
			if v == a {
				return v
			}
		}
		bad(name, "%q is not valid: use one of %s", v, strings.Join(allowed, ", "))
		return def
	}

	in.Token = getenv(actionInputEnv("github-token"))
	in.Base = get("base", "")
	if strings.HasPrefix(in.Base, "-") {
		bad("base", "%q is not a ref", in.Base)
	}
	budget := get("budget", "5m")
	d, err := time.ParseDuration(budget)
	switch {
	case err != nil:
		bad("budget", "%q is not a duration such as 5m, 90s or 0 (no dynamic search)", budget)
	case d < 0:
		bad("budget", "%q must not be negative", budget)
	}
	in.Budget = d
	in.FailOn = oneOf("fail-on", "error", []string{"note", "warning", "error"})
	in.Scope = oneOf("scope", scopeChanged, []string{scopeChanged, scopePackage, scopeAll})
	for _, s := range actionList(get("strategies", explore.Strategies[0])) {
		known := false
		for _, k := range explore.Strategies {
			known = known || s == k
		}
		if !known {
			bad("strategies", "unknown strategy %q: valid strategies are %s (a list rotates them)", s, strings.Join(explore.Strategies, ", "))
			continue
		}
		in.Strategies = append(in.Strategies, s)
	}
	pkgs := actionList(get("packages", "./..."))
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
	in.SARIFFile = get("sarif-file", "interleave.sarif")
	switch c := strings.ToLower(get("comment", "true")); c {
	case "true":
		in.Comment = true
	case "false":
		in.Comment = false
	default:
		bad("comment", "%q is not valid: use true or false", c)
	}
	in.Shard = get("shard", "")
	if in.Shard != "" {
		if _, _, err := parseShard(in.Shard); err != nil {
			bad("shard", "%q: want i/n with 1 <= i <= n, as in 2/4", in.Shard)
		}
	}
	in.WorkDir = get("working-directory", ".")
	in.Reports = actionList(get("report", ""))
	if len(in.Reports) > 0 && in.Shard != "" {
		bad("report", "cannot be combined with shard: a shard analyzes, report posts an earlier analysis")
	}
	if n := get("pr-number", ""); n != "" {
		v, err := strconv.Atoi(n)
		if err != nil || v < 1 {
			bad("pr-number", "%q is not a pull request number", n)
		}
		in.PRNumber = v
	}
	if sha := get("sha", ""); sha != "" {
		if !isSHA(sha) {
			bad("sha", "%q is not a full commit hash", sha)
		}
		in.SHA = sha
	}
	if seed := get("seed", ""); seed != "" {
		v, err := strconv.ParseInt(seed, 10, 64)
		if err != nil || v < 1 {
			bad("seed", "%q is not a positive integer", seed)
		}
		in.Seed = v
	}
	if run := get("run", ""); run != "" {
		if _, err := regexp.Compile(run); err != nil {
			bad("run", "%v", err)
		}
		in.Run = run
	}
	return in, errors.Join(errs...)
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

	dir := prAbs(env.dir, in.WorkDir)
	if ws := os.Getenv("GITHUB_WORKSPACE"); ws != "" && !filepath.IsAbs(in.WorkDir) {
		dir = prAbs(ws, in.WorkDir)
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
		files.sarif = prAbs(dir, in.SARIFFile)
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
		logf("shard %s: %d %s in %s; combine the shards with the report input", in.Shard, count, prPlural(count, "finding"), files.report)
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

// analyze runs interleave pr; what the code under review prints is shown
// with workflow commands off.
func (a *actionRunner) analyze(ctx context.Context, env *cliEnv, in *actionInputs, files actionFiles) int {
	pr := a.command("pr")
	args := []string{"-format", "json", "-o", files.report, "-budget", in.Budget.String(), "-fail-on", in.FailOn, "-scope", in.Scope}
	if in.Base != "" {
		args = append(args, "-base", in.Base)
	}
	if in.Seed != 0 {
		args = append(args, "-seed", strconv.FormatInt(in.Seed, 10))
	}
	if in.Run != "" {
		args = append(args, "-run", in.Run)
	}
	if len(in.Strategies) > 0 {
		args = append(args, "-strategy", strings.Join(in.Strategies, ","))
	}
	if in.Shard != "" {
		args = append(args, "-shard", in.Shard)
	} else {
		args = append(args, "-summary", files.summary)
		if files.sarif != "" {
			args = append(args, "-sarif", files.sarif)
		}
	}
	return actionUntrusted(env, func(e *cliEnv) int { return pr.run(ctx, e, args) })
}

// merge combines earlier JSON reports (one, or the shards of a run).
func (a *actionRunner) merge(ctx context.Context, env *cliEnv, in *actionInputs, files actionFiles) int {
	var reports []string
	for _, pat := range in.Reports {
		matches, err := filepath.Glob(prAbs(env.dir, pat))
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
	root, err := gitRoot(env.dir)
	if err != nil {
		// A report posted without its checkout: take its names as relative
		// to the working directory.
		root = env.dir
	}
	var kept []checks.Finding
	dropped := 0
	for _, f := range rep.Findings {
		if f.Pos.File == "" || actionMatchPackages(env.dir, in.Packages, prAbs(root, f.Pos.File)) {
			kept = append(kept, f.Finding)
		} else {
			dropped++
		}
	}
	extra := ""
	if dropped > 0 {
		extra = fmt.Sprintf("\n- note: %d %s outside the packages input (%s) not reported\n", dropped, prPlural(dropped, "finding"), strings.Join(in.Packages, " "))
	}
	if old, err := os.ReadFile(files.summary); err == nil {
		// Keep the change details interleave pr appended to its summary.
		if i := strings.Index(string(old), "\n<details><summary>Change:"); i >= 0 {
			extra += string(old[i:])
		}
	}
	out := &report.Report{Findings: kept, Root: root, ToolVersion: rep.Tool.Version}
	summary := files.summary
	if in.Shard != "" {
		summary = ""
	}
	if err := prWriteOutputs(env, out, "json", files.report, files.sarif, summary, extra); err != nil {
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
		pdir := prAbs(dir, rest)
		if fileDir == pdir {
			return true
		}
		if rel, err := filepath.Rel(pdir, fileDir); recursive && err == nil && !strings.HasPrefix(rel, "..") {
			return true
		}
	}
	return false
}

// gitRoot is the top level of the repository holding dir: the report's
// file names are relative to it.
func gitRoot(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%s is not in a git repository", dir)
		}
	}
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
