package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bradleyfalzon/ghinstallation/v2"
	gh "github.com/google/go-github/v60/github"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/internal/prjob"
	"github.com/interleave-dev/interleave/report"
	ghreport "github.com/interleave-dev/interleave/report/github"
)

var (
	errJobTimeout  = errors.New("job time limit exceeded")
	errPostTimeout = errors.New("post time limit exceeded")
)

// Output files of interleave pr in a job's out directory.
const (
	reportFile  = "report.json"
	sarifFile   = "report.sarif"
	prLogFile   = "pr.log"
	postLogFile = "post.log"
	gitLogFile  = "git.log"
	modLogFile  = "mod.log"
	schedDir    = "sched" // post's root: the schedules the job sent
)

// workerLoop runs pending jobs one after another until the server stops.
func (s *Server) workerLoop() {
	for s.stopCtx.Err() == nil {
		j, err := s.store.claim(time.Now())
		if err != nil {
			s.log.Error("claiming a job", "error", err.Error())
		}
		if j == nil || err != nil {
			select {
			case <-s.stopCtx.Done():
				return
			case <-s.jobWake:
			case <-time.After(time.Minute):
			}
			continue
		}
		s.notify(s.jobWake) // another worker may take the next one
		s.runJob(j)
	}
}

// runJob analyzes a claimed job (unless an earlier attempt did), posts its
// results (unless already posted) and records the outcome.
func (s *Server) runJob(j *Job) {
	log := s.log.With("job", j.ID, "repo", j.Owner+"/"+j.Repo, "pr", j.PR, "head", j.HeadSHA, "attempt", j.Attempts)
	log.Info("job started", "trigger", j.Trigger, "budget", j.Budget.String(), "seed", j.Seed)
	start := time.Now()
	jobDir := filepath.Join(s.cfg.WorkDir, "jobs", j.ID)
	outDir := filepath.Join(jobDir, "out")

	finish := func(state, reason string) {
		_, err := s.store.update(j.ID, func(j *Job) {
			j.State, j.Reason = state, reason
			if state == StatePending {
				j.Started = time.Time{}
			} else {
				j.Finished = time.Now()
			}
		})
		if err != nil {
			log.Error("recording the job's outcome", "error", err.Error())
		}
		switch state {
		case StatePending:
			log.Warn("job interrupted, re-queued", "reason", reason)
		case StateFailed:
			log.Error("job failed", "reason", reason, "seconds", time.Since(start).Seconds())
		default:
			log.Info("job done", "pr_exit", j.PRExit, "seconds", time.Since(start).Seconds())
		}
		if state != StatePending && !s.cfg.KeepJobDirs {
			if err := os.RemoveAll(jobDir); err != nil {
				log.Warn("removing the job directory", "error", err.Error())
			}
		}
	}
	// interrupted tells a shutdown apart from a failure of the job itself.
	interrupted := func() bool { return s.killCtx.Err() != nil }

	tr, err := s.installation(j.InstallationID)
	if err != nil {
		finish(StateFailed, "installation token: "+err.Error())
		return
	}

	if j.Analyzed.IsZero() || !exists(filepath.Join(outDir, reportFile)) {
		ctx, cancel := context.WithTimeoutCause(s.killCtx, s.cfg.JobTimeout, errJobTimeout)
		code, err := s.analyze(ctx, j, tr, jobDir)
		cause := context.Cause(ctx)
		cancel()
		var cnr *couldNotRun
		var oom *outOfMemory
		var lim *limitExceeded
		switch {
		case err != nil && errors.Is(cause, errJobTimeout):
			reason := fmt.Sprintf("exceeded the job time limit of %v; its processes were killed", s.cfg.JobTimeout)
			s.postFailure(j, "timed_out", "interleave ran out of time",
				fmt.Sprintf("The analysis of %s did not finish within the App's job time limit of %v and was stopped, so there are no results. A smaller search budget (`/retest-concurrency budget=…`) or a larger `-job-timeout` on the server helps.", j.HeadSHA, s.cfg.JobTimeout), log)
			finish(StateFailed, reason)
			return
		case err != nil && interrupted():
			finish(StatePending, "server shutting down")
			return
		case errors.As(err, &oom):
			s.postFailure(j, "failure", "interleave ran out of memory", oom.summary(j.HeadSHA), log)
			finish(StateFailed, err.Error())
			return
		case errors.As(err, &lim):
			s.postFailure(j, "failure", lim.title(), lim.summary(j.HeadSHA), log)
			finish(StateFailed, err.Error())
			return
		case errors.As(err, &cnr):
			s.postFailure(j, "failure", "interleave could not run", cnr.summary, log)
			finish(StateFailed, err.Error())
			return
		case err != nil:
			finish(StateFailed, err.Error())
			return
		}
		j, err = s.store.update(j.ID, func(j *Job) { j.Analyzed, j.PRExit = time.Now(), code })
		if err != nil {
			finish(StateFailed, "recording the analysis: "+err.Error())
			return
		}
		log.Info("analysis done", "pr_exit", code, "seconds", time.Since(start).Seconds())
	}

	if j.Posted.IsZero() {
		ctx, cancel := context.WithTimeoutCause(s.killCtx, s.cfg.PostTimeout, errPostTimeout)
		err := s.post(ctx, j, tr, outDir)
		cause := context.Cause(ctx)
		cancel()
		switch {
		case err != nil && errors.Is(cause, errPostTimeout):
			finish(StateFailed, fmt.Sprintf("posting exceeded its time limit of %v", s.cfg.PostTimeout))
			return
		case err != nil && interrupted():
			finish(StatePending, "server shutting down")
			return
		case err != nil:
			finish(StateFailed, err.Error())
			return
		}
		if s.cfg.crashAfterPost != nil && s.cfg.crashAfterPost(j) {
			return // a test's crash: the job stays running, as after a kill
		}
		// Recorded at once. A crash before this line is harmless too: the
		// resumed job posts with the same key, which finds its check run
		// completed and posts nothing.
		if j, err = s.store.update(j.ID, func(j *Job) { j.Posted = time.Now() }); err != nil {
			log.Error("recording the post", "error", err.Error())
		}
	}
	finish(StateDone, "")
}

// analyze fetches the pinned commits into the job's src directory and
// runs interleave pr there through interleave serve-job, in the sandbox.
// The report comes back on a pipe only serve-job holds, is checked, and is
// written with the schedules it names into the out directory, which the
// job never sees. It returns pr's exit code (0 or 1).
func (s *Server) analyze(ctx context.Context, j *Job, tr *ghinstallation.Transport, jobDir string) (int, error) {
	srcDir, outDir := filepath.Join(jobDir, "src"), filepath.Join(jobDir, "out")
	if err := os.RemoveAll(jobDir); err != nil {
		return 0, err
	}
	if s.sbx != nil {
		if err := s.sbx.prepare(jobDir); err != nil {
			return 0, err
		}
	} else if err := os.MkdirAll(srcDir, 0o700); err != nil {
		return 0, err
	}
	if err := os.MkdirAll(outDir, 0o700); err != nil {
		return 0, err
	}
	token, err := tr.Token(ctx)
	if err != nil {
		return 0, fmt.Errorf("installation token: %w", err)
	}
	if err := s.fetch(ctx, j, token, srcDir, filepath.Join(outDir, gitLogFile)); err != nil {
		return 0, err
	}
	// The base's .interleave.yaml, read here to check it and to layer its
	// budget; interleave pr reads the same blob for the other settings.
	file, _, err := prjob.LoadFile(srcDir, j.BaseSHA)
	if err != nil {
		return 0, &couldNotRun{code: 2, log: err.Error(), summary: configSummary(j.BaseSHA, err)}
	}
	prLog := filepath.Join(outDir, prLogFile)
	if s.sbx != nil {
		s.sbx.warmSeed(ctx, func(dir string, env []string, name string, args ...string) error {
			_, err := s.runLogged(ctx, dir, env, filepath.Join(outDir, "warm.log"), name, args...)
			return err
		})
		// The only networked step, as the server: go mod download runs no
		// code of the pull request. A failure shows again in pr's build.
		if _, err := s.runLogged(ctx, srcDir, s.sbx.downloadEnv(), filepath.Join(outDir, modLogFile), "go", "mod", "download"); err != nil {
			return 0, fmt.Errorf("go mod download: %w", err)
		}
		if err := s.sbx.chown(srcDir); err != nil {
			return 0, err
		}
		if err := s.sbx.seedCache(filepath.Join(jobDir, "cache")); err != nil {
			s.log.Warn("seeding the job's build cache", "job", j.ID, "error", err.Error())
		}
	}
	cfg := prjob.DefaultConfig()
	cfg.Base, cfg.Head, cfg.Budget, cfg.Seed, cfg.Count = j.BaseSHA, j.HeadSHA, j.Budget, j.Seed, s.cfg.Count
	if !j.BudgetGiven && file != nil && file.Budget != nil {
		cfg.Budget = *file.Budget // the server's default < the file < budget=
	}
	if j.Run != "" && s.prSupportsRun() {
		run, err := rt.ParseRun(j.Run)
		if err != nil {
			return 0, fmt.Errorf("-run %q: %w", j.Run, err)
		}
		cfg.Run = run
	}
	if err := cfg.Validate(); err != nil {
		return 0, fmt.Errorf("the job's configuration: %w", err)
	}
	args := cfg.Args()
	if !slices.Contains(args, "-budget") {
		// Always given, so the file's budget does not replace the one
		// chosen here when it equals pr's default.
		args = append(args, "-budget", cfg.Budget.String())
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	defer pr.Close()
	// The watchdog stops the job through jctx.
	jctx, stopJob := context.WithCancelCause(ctx)
	defer stopJob(nil)
	var cmd *exec.Cmd
	if s.sbx != nil {
		cmd = s.sbx.command(jctx, jobDir, []*os.File{pw}, append(s.sbx.jobArgs(), args...)...)
	} else {
		// -insecure-no-sandbox: no token, no secret in its environment, and
		// nothing more.
		cmd = s.command(jctx, srcDir, scrubbedEnv(), s.cfg.Interleave, append([]string{"serve-job", "--"}, args...)...)
		cmd.ExtraFiles = []*os.File{pw}
	}
	type result struct {
		res *JobResult
		err error
	}
	got := make(chan result, 1)
	var start func(*exec.Cmd) error
	var cg *jobCgroup
	if s.sbx != nil && s.sbx.cg != nil {
		// The job and all it forks share one memory limit.
		if cg, err = s.sbx.cg.create(j.ID); err != nil {
			return 0, err
		}
		defer func() {
			if err := cg.remove(); err != nil {
				s.log.Warn("removing the job's cgroup", "job", j.ID, "error", err.Error())
			}
		}()
		start = cg.start
	}
	var px *jobProxy
	if s.sbx != nil && s.sbx.net != nil {
		if px, err = s.sbx.net.startProxy(filepath.Join(proxyDir(jobDir), "proxy.sock"), j.ID, s.log); err != nil {
			return 0, fmt.Errorf("the job's network proxy: %w", err)
		}
		defer px.close()
	}
	var wd *watchdog
	var wdDone chan struct{}
	if s.sbx != nil && s.sbx.watched() {
		wd = s.sbx.watchdog(jobDir)
	}
	code, err := s.runCmd(jctx, cmd, prLog, start, func() {
		pw.Close() // serve-job holds the only write end now
		go func() {
			res, err := readResult(pr)
			got <- result{res, err}
		}()
		if wd != nil {
			wdDone = make(chan struct{})
			go func() {
				defer close(wdDone)
				wd.run(jctx, cmd.Process.Pid, func(e *limitExceeded) { stopJob(e) })
			}()
		}
	})
	pw.Close()
	var netNote string
	if px != nil {
		if netNote = px.close(); netNote != "" {
			s.log.Info("job network", "job", j.ID, "note", netNote)
		}
	}
	var lim *limitExceeded
	errors.As(context.Cause(jctx), &lim)
	stopJob(nil)
	if wdDone != nil {
		<-wdDone
		s.log.Info("job resources", "job", j.ID, "peak_rss", wd.peakMem, "peak_disk", wd.peakDisk)
	}
	if lim != nil {
		lim.log = tail(prLog)
		return 0, lim
	}
	if cg != nil && cg.oomKills() > 0 && ctx.Err() == nil {
		// Whatever the job sent, it is missing what the killed process
		// would have found.
		return 0, &outOfMemory{limit: s.sbx.Memory, log: tail(prLog)}
	}
	if err != nil {
		return 0, fmt.Errorf("interleave pr: %w", err)
	}
	r := <-got
	if r.err != nil {
		return 0, &couldNotRun{code: code, log: tail(prLog), summary: failureSummary(code, r.err.Error(), tail(prLog))}
	}
	if r.res.Exit != 0 && r.res.Exit != 1 {
		return 0, &couldNotRun{code: r.res.Exit, log: tail(prLog), summary: failureSummary(r.res.Exit, "", tail(prLog))}
	}
	rep, err := checkResult(r.res)
	if err != nil {
		return 0, &couldNotRun{code: r.res.Exit, log: err.Error(), summary: failureSummary(r.res.Exit, err.Error(), "")}
	}
	if netNote != "" {
		if err := addNote(r.res, rep, netNote); err != nil {
			return 0, err
		}
	}
	if err := s.writeOutputs(outDir, r.res, rep); err != nil {
		return 0, err
	}
	return r.res.Exit, nil
}

// writeOutputs writes what post reads, all built by the server: the
// checked report, the SARIF rendered from its findings, and the schedules
// under sched/, post's root. They are report files (report.WriteFile,
// 0644); outDir itself is 0700, so the job's uid cannot read them.
func (s *Server) writeOutputs(outDir string, res *JobResult, rep *report.JSONReport) error {
	if err := report.WriteFileBytes(filepath.Join(outDir, reportFile), res.Report); err != nil {
		return err
	}
	r := &report.Report{ToolVersion: rep.Tool.Version, Notes: rep.Notes}
	for _, f := range rep.Findings {
		r.Findings = append(r.Findings, f.Finding)
	}
	var sarif bytes.Buffer
	if err := (report.SARIF{}).Write(&sarif, r); err != nil {
		return fmt.Errorf("rendering SARIF: %w", err)
	}
	if err := report.WriteFileBytes(filepath.Join(outDir, sarifFile), sarif.Bytes()); err != nil {
		return err
	}
	root := filepath.Join(outDir, schedDir)
	for name, text := range res.Schedules {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return err
		}
		if err := report.WriteFileBytes(path, []byte(text)); err != nil {
			return err
		}
	}
	return os.MkdirAll(root, 0o700)
}

// failureSummary is the check run's text when pr gave no report: the
// server's words, and the end of pr's log in a code block.
func failureSummary(code int, why, log string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "interleave pr exited with status %d without a report", code)
	if why != "" {
		b.WriteString(" (" + oneLine(why) + ")")
	}
	b.WriteString(".\n")
	if log != "" {
		fence := ghreport.CodeFence(log)
		b.WriteString("\n" + fence + "\n" + log + "\n" + fence + "\n")
	}
	return b.String()
}

// configSummary is the check run's text when the base's .interleave.yaml
// is not valid.
func configSummary(base string, err error) string {
	msg := err.Error()
	fence := ghreport.CodeFence(msg)
	return fmt.Sprintf("The `%s` of the base commit %s is not valid, so nothing was analyzed. A pull request is reviewed under its base's settings: fix the file on the base branch (docs/config.md lists the keys).\n\n%s\n%s\n%s\n", prjob.FileName, base, fence, msg, fence)
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return strings.ReplaceAll(s, "`", "'")
}

// couldNotRun is interleave pr ending without a report: the head does not
// compile, or the change could not be read.
type couldNotRun struct {
	code    int
	log     string // the end of its output
	summary string // markdown for the check run
}

func (e *couldNotRun) Error() string {
	return fmt.Sprintf("interleave pr could not run (exit %d): %s", e.code, e.log)
}

// outOfMemory is a job the kernel killed a process of for going over its
// memory limit.
type outOfMemory struct {
	limit uint64
	log   string // the end of pr's output
}

func (e *outOfMemory) Error() string {
	return fmt.Sprintf("the job ran out of its memory limit (%s)", formatBytes(e.limit))
}

// summary is the check run's text.
func (e *outOfMemory) summary(sha string) string {
	fence := ghreport.CodeFence(e.log)
	return fmt.Sprintf("The analysis of %s was stopped: the job ran out of its memory limit (%s), so the kernel killed its largest process and there are no results. "+
		"Tests that use less memory, or a larger `-sandbox-memory` on the server, help.\n\n%s\n%s\n%s\n", sha, formatBytes(e.limit), fence, e.log, fence)
}

// maxCheckRunSummary is GitHub's limit on a check run's output.summary.
const maxCheckRunSummary = 65535

// postFailure completes a check run on the job's head saying why there are
// no results, so the pull request does not wait for a check that never
// comes. It records the job as posted; errors are only logged.
func (s *Server) postFailure(j *Job, conclusion, title, summary string, log *slog.Logger) {
	if !j.Posted.IsZero() {
		return
	}
	ctx, cancel := context.WithTimeout(s.killCtx, s.cfg.PostTimeout)
	defer cancel()
	c, err := s.client(j.InstallationID)
	if err != nil {
		log.Error("posting the failure", "error", err.Error())
		return
	}
	// An attempt that posted it and then crashed must not post it twice.
	earlier, err := ghreport.FindCheckRun(ctx, c, j.Owner, j.Repo, j.HeadSHA, j.postKey())
	if err != nil {
		log.Error("looking for an earlier failure post", "error", err.Error())
		return
	}
	if earlier != nil {
		if _, err := s.store.update(j.ID, func(j *Job) { j.Posted = time.Now() }); err != nil {
			log.Error("recording the post", "error", err.Error())
		}
		log.Info("failure already posted", "check_run", earlier.GetID())
		return
	}
	if len(summary) > maxCheckRunSummary {
		summary = summary[:maxCheckRunSummary-len("\n…")] + "\n…"
	}
	summary = strings.ToValidUTF8(summary, "")
	now := gh.Timestamp{Time: time.Now()}
	_, _, err = c.Checks.CreateCheckRun(ctx, j.Owner, j.Repo, gh.CreateCheckRunOptions{
		Name: ghreport.CheckRunName, HeadSHA: j.HeadSHA, ExternalID: gh.String(j.postKey()),
		Status: gh.String("completed"), Conclusion: gh.String(conclusion), CompletedAt: &now,
		Output: &gh.CheckRunOutput{Title: gh.String(title), Summary: gh.String(summary)},
	})
	if err != nil {
		log.Error("posting the failure", "error", err.Error())
		return
	}
	if _, err := s.store.update(j.ID, func(j *Job) { j.Posted = time.Now() }); err != nil {
		log.Error("recording the post", "error", err.Error())
	}
	log.Info("failure posted", "conclusion", conclusion)
}

// fetch puts the job's head commit, checked out, and its base into dir. The
// token travels in an http.extraheader set through GIT_CONFIG_* variables:
// never in the URL, argv or .git/config.
func (s *Server) fetch(ctx context.Context, j *Job, token, dir, logFile string) error {
	root := strings.TrimRight(s.cfg.GitURL, "/")
	remote := root + "/" + j.Owner + "/" + j.Repo
	env := append(scrubbedEnv(), "GIT_TERMINAL_PROMPT=0")
	if strings.HasPrefix(root, "https://") || strings.HasPrefix(root, "http://") {
		basic := base64.StdEncoding.EncodeToString([]byte("x-access-token:" + token))
		env = append(env, "GIT_CONFIG_COUNT=1",
			"GIT_CONFIG_KEY_0=http."+root+"/.extraheader",
			"GIT_CONFIG_VALUE_0=AUTHORIZATION: basic "+basic)
	}
	steps := [][]string{
		{"init", "--quiet", dir},
		{"-C", dir, "fetch", "--quiet", "--no-tags", "--no-recurse-submodules", remote, j.HeadSHA, j.BaseSHA},
		{"-C", dir, "-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", j.HeadSHA},
	}
	for _, args := range steps {
		code, err := s.runLogged(ctx, "", env, logFile, "git", args...)
		if err != nil {
			return fmt.Errorf("git %s: %w", args[len(args)-1], err)
		}
		if code != 0 {
			return fmt.Errorf("fetching %s/%s at %s failed: %s", j.Owner, j.Repo, j.HeadSHA, tail(logFile))
		}
	}
	return nil
}

// post runs interleave post with the installation token on what the
// server wrote into outDir: nothing of the job's directory is read.
func (s *Server) post(ctx context.Context, j *Job, tr *ghinstallation.Transport, outDir string) error {
	token, err := tr.Token(ctx)
	if err != nil {
		return fmt.Errorf("installation token: %w", err)
	}
	args := []string{"post", "-report", filepath.Join(outDir, reportFile),
		"-repo", j.Owner + "/" + j.Repo, "-pr", strconv.Itoa(j.PR), "-sha", j.HeadSHA, "-fail-on", s.cfg.FailOn,
		"-external-id", j.postKey()}
	if exists(filepath.Join(outDir, sarifFile)) {
		// A repository without code scanning refuses the upload; post
		// reports that and posts the rest.
		args = append(args, "-sarif", filepath.Join(outDir, sarifFile), "-upload-sarif")
	}
	// Schedules are read relative to post's directory.
	dir := filepath.Join(outDir, schedDir)
	if !exists(dir) {
		dir = outDir
	}
	env := append(scrubbedEnv(), "GITHUB_TOKEN="+token, "GITHUB_API_URL="+strings.TrimRight(s.apiBase.String(), "/"))
	logFile := filepath.Join(outDir, postLogFile)
	code, err := s.runLogged(ctx, dir, env, logFile, s.cfg.Interleave, args...)
	if err != nil {
		return fmt.Errorf("interleave post: %w", err)
	}
	if code != 0 {
		return fmt.Errorf("interleave post failed (exit %d): %s", code, tail(logFile))
	}
	return nil
}

// runLogged runs a command in its own process group, appending its output
// to logFile. A cancelled ctx kills the whole group; so does the command's
// end, so nothing it started outlives it. err is set when the command could
// not start or was killed; otherwise code is its exit code.
func (s *Server) runLogged(ctx context.Context, dir string, env []string, logFile, name string, args ...string) (code int, err error) {
	return s.runCmd(ctx, s.command(ctx, dir, env, name, args...), logFile, nil, nil)
}

// runCmd is runLogged for a prepared command; start, when not nil, starts
// it instead of cmd.Start; started, when not nil, runs once the command
// has started.
func (s *Server) runCmd(ctx context.Context, cmd *exec.Cmd, logFile string, start func(*exec.Cmd) error, started func()) (code int, err error) {
	// Logs are the server's own, not reports: 0600 deliberately, since they
	// may quote the repository's code and the git remote's errors.
	f, err := os.OpenFile(logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	cmd.Stdout, cmd.Stderr = f, f
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = 5 * time.Second
	}
	if start == nil {
		start = (*exec.Cmd).Start
	}
	if err = start(cmd); err == nil {
		if started != nil {
			started()
		}
		err = cmd.Wait()
	}
	killGroup(cmd)
	if ctx.Err() != nil {
		return 0, context.Cause(ctx)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.Exited() {
		return ee.ExitCode(), nil
	}
	return 0, err
}

// command returns a command that runs in its own process group and whose
// cancellation kills that group.
func (s *Server) command(ctx context.Context, dir string, env []string, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	setProcessGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// scrubbedEnv is the environment of subprocesses: what the go command needs,
// nothing else. No token and no secret of the server leaks into the pull
// request's code.
func scrubbedEnv() []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "GOPATH", "GOCACHE", "GOMODCACHE", "GOTOOLCHAIN", "GOFLAGS"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// tail returns the last lines of a log file for an error message.
func tail(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "(no output)"
	}
	const max = 1500
	s := strings.TrimSpace(string(data))
	if len(s) > max {
		s = "…" + s[len(s)-max:]
	}
	if s == "" {
		return "(no output)"
	}
	return s
}
