// The GitHub Action: inputs → the job's config → the job → publish → outputs.

package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/internal/prjob"
	"github.com/interleave-dev/interleave/report/github/cienv"
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
			return (&actionRunner{job: actionJob, command: func(name string) *command { return commands[name] }}).run(ctx, env)
		},
	})
}

// Files the action writes in the working directory, next to the SARIF file.
const (
	actionReportFile  = "interleave-report.json"
	actionSummaryFile = "interleave-summary.md"
)

// actionSecretEnv are removed from the process environment before the
// user's code is built and run, so a test under review cannot read them.
var actionSecretEnv = []string{
	"GITHUB_TOKEN", "GH_TOKEN", "INPUT_GITHUB_TOKEN",
	"ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_URL",
}

// actionRunner runs the action; tests substitute the job and the post
// command.
type actionRunner struct {
	// job runs the PR job of cfg in env.dir and returns how many findings
	// it reported (-1: it wrote no report) and interleave pr's exit code.
	job     func(ctx context.Context, env *cliEnv, cfg prjob.Config) (count, code int)
	command func(name string) *command // looks up post
}

// actionFiles are the paths the action writes, absolute.
type actionFiles struct {
	report, sarif, summary string
}

func (a *actionRunner) run(ctx context.Context, env *cliEnv) int {
	logf := func(format string, args ...any) { fmt.Fprintf(env.stderr, "interleave action: "+format+"\n", args...) }
	in, ok := actionReadInputs(env)
	if !ok {
		return exitError
	}
	dir, err := actionWorkDir(env.dir, in.WorkDir)
	if err != nil {
		logf("input working-directory: %v", err)
		return exitError
	}
	wenv := &cliEnv{stdout: env.stdout, stderr: env.stderr, dir: dir}
	files := newActionFiles(dir, in)

	// The job (or, with the report input, the merge of earlier ones).
	var count, code int
	if len(in.Reports) > 0 {
		count, code = a.merge(wenv, in, files)
	} else {
		os.Remove(files.report) // never post a report left by an earlier run
		count, code = a.analyze(ctx, wenv, in, files)
	}
	if count < 0 {
		// Nothing to post: show why in the job summary.
		if in.Shard == "" {
			if err := actionAppendStepSummary(files.summary); err != nil && !errors.Is(err, os.ErrNotExist) {
				logf("job summary: %v", err)
			}
		}
		a.writeOutputs(env, files, -1)
		return exitError
	}
	// A run that failed part-way (the dynamic search) still posts what it found.
	if !a.publish(ctx, wenv, in, files, count) {
		a.writeOutputs(env, files, count)
		return exitError
	}
	if err := a.writeOutputs(env, files, count); err != nil {
		logf("outputs: %v", err)
		return exitError
	}
	return code
}

// actionReadInputs reads the inputs and takes the secrets out of the
// environment; a bad input is an error annotation.
func actionReadInputs(env *cliEnv) (*actionInputs, bool) {
	in, err := parseActionInputs(os.Getenv)
	// The token leaves the environment before anything else runs; post gets
	// it back explicitly.
	for _, name := range actionSecretEnv {
		os.Unsetenv(name)
	}
	if err != nil {
		for _, e := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(env.stderr, "::error title=interleave: bad input::%s\n", cienv.Escape(e))
		}
		fmt.Fprintln(env.stderr, "interleave action: see the inputs of action.yml; nothing was analyzed")
		return nil, false
	}
	return in, true
}

// actionWorkDir is the working-directory input, absolute (relative to
// $GITHUB_WORKSPACE when set), made the process's directory.
func actionWorkDir(cwd, workDir string) (string, error) {
	dir := prjob.AbsIn(cwd, workDir)
	if ws := os.Getenv("GITHUB_WORKSPACE"); ws != "" && !filepath.IsAbs(workDir) {
		dir = prjob.AbsIn(ws, workDir)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("%q is not a directory", workDir)
	}
	if err := os.Chdir(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// newActionFiles are the files the action writes in dir: a shard writes
// its JSON report alone.
func newActionFiles(dir string, in *actionInputs) actionFiles {
	if in.Shard != "" {
		i, n, _ := prjob.ParseShard(in.Shard)
		return actionFiles{report: filepath.Join(dir, fmt.Sprintf("interleave-shard-%d-of-%d.json", i, n))}
	}
	files := actionFiles{report: filepath.Join(dir, actionReportFile), summary: filepath.Join(dir, actionSummaryFile)}
	if in.SARIFFile != "" {
		files.sarif = prjob.AbsIn(dir, in.SARIFFile)
	}
	return files
}

// publish posts the results (comment: true), or puts the summary in the
// job summary; a shard only says where its report is. It reports whether
// that worked.
func (a *actionRunner) publish(ctx context.Context, env *cliEnv, in *actionInputs, files actionFiles, count int) bool {
	switch {
	case in.Shard != "":
		fmt.Fprintf(env.stderr, "interleave action: shard %s: %d %s in %s; combine the shards with the report input\n", in.Shard, count, checkPlural(count, "finding"), files.report)
	case in.Comment:
		if pc := a.post(ctx, env, in, files); pc != exitOK {
			fmt.Fprintf(env.stderr, "interleave action: posting the results failed (exit %d)\n", pc)
			return false
		}
	default:
		if err := actionAppendStepSummary(files.summary); err != nil {
			fmt.Fprintf(env.stderr, "interleave action: job summary: %v\n", err)
		}
	}
	return true
}

// analyze runs the job the inputs ask for; what the code under review
// prints is shown with workflow commands off.
func (a *actionRunner) analyze(ctx context.Context, env *cliEnv, in *actionInputs, files actionFiles) (count, code int) {
	cfg := in.config(files)
	if err := cfg.Validate(); err != nil {
		fmt.Fprintf(env.stderr, "interleave action: %v\n", err)
		return -1, exitError
	}
	code = actionUntrusted(env, func(e *cliEnv) int {
		count, code = a.job(ctx, e, cfg)
		return code
	})
	return count, code
}

// actionJob runs the job as interleave pr does on cfg.Args(): the race
// detector off where cgo does not work, base and head from the event.
func actionJob(ctx context.Context, env *cliEnv, cfg prjob.Config) (count, code int) {
	opts := &prjob.Options{Config: cfg}
	if opts.Race && !cgoEnabled() {
		opts.Race = false
		raceOffNote(env, "pr")
	}
	if err := prChange(opts, os.Getenv); err != nil {
		fmt.Fprintf(env.stderr, "interleave pr: %v\n", err)
		return -1, exitError
	}
	src, err := prApplyFile(env, opts, actionGiven(os.Getenv))
	if err != nil {
		configError(env, "action", err)
		return -1, exitError
	}
	prjob.PrintSettings(env.stderr, &opts.Config, src) // where each came from: default, file, input
	res, code := runPRJob(ctx, env, opts)
	if res == nil {
		return -1, code
	}
	return len(res.Report.Findings), code
}

// merge combines earlier JSON reports (one, or the shards of a run), keeps
// the findings in the packages input, and writes the outputs.
func (a *actionRunner) merge(env *cliEnv, in *actionInputs, files actionFiles) (count, code int) {
	var reports []string
	for _, pat := range in.Reports {
		matches, err := filepath.Glob(prjob.AbsIn(env.dir, pat))
		if err != nil || len(matches) == 0 {
			fmt.Fprintf(env.stderr, "interleave action: input report: no file matches %q in %s\n", pat, env.dir)
			return -1, exitError
		}
		reports = append(reports, matches...)
	}
	root, ok := affected.RepoRoot(env.dir)
	if !ok {
		// Reports posted without their checkout: take their names as
		// relative to the working directory.
		root = env.dir
	}
	rep, n, err := prjob.MergeShards(reports, root, toolVersion())
	if err != nil {
		fmt.Fprintf(env.stderr, "interleave action: %v\n", err)
		return -1, exitError
	}
	fmt.Fprintf(env.stderr, "interleave action: %d %s, %d findings, %d after dedupe\n", len(reports), checkPlural(len(reports), "report"), n, len(rep.Findings))
	var note string
	if rep.Findings, note = prjob.FilterPackages(rep.Findings, env.dir, root, in.Packages); note != "" {
		note = "\n- note: " + note + "\n"
	}
	out := prjob.Outputs{Dir: env.dir, Stdout: env.stdout, Format: "json", Output: files.report, SARIF: files.sarif, Summary: files.summary, Extra: note}
	if err := prjob.WriteOutputs(rep, out); err != nil {
		fmt.Fprintf(env.stderr, "interleave action: %v\n", err)
		return -1, exitError
	}
	sev, _ := checks.ParseSeverity(in.FailOn)
	return len(rep.Findings), prExitCode(rep.Findings, sev)
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

// actionAppendStepSummary adds the markdown summary to the job summary.
func actionAppendStepSummary(summary string) error {
	dst := os.Getenv("GITHUB_STEP_SUMMARY")
	if dst == "" {
		return nil
	}
	md, err := os.ReadFile(summary)
	if err != nil {
		return err
	}
	return cienv.AppendStepSummary(dst, string(md))
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
	var kv [][2]string
	if count >= 0 {
		kv = append(kv, [2]string{"findings", strconv.Itoa(count)})
	}
	kv = append(kv, [2]string{"sarif-file", rel(files.sarif)}, [2]string{"summary-file", rel(files.summary)}, [2]string{"report-file", rel(files.report)})
	return cienv.WriteOutputs(name, kv)
}
