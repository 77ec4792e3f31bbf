package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/report/github/ghtest"
)

// rebaseWithConfig remakes the fixture's pull request so that its base
// commit holds base as .interleave.yaml and its head commit changes it to
// head (with the counter's change), and points the fake GitHub at them.
func (f *fixture) rebaseWithConfig(base, head string) {
	f.t.Helper()
	dir := filepath.Join(f.gitRoot, owner, repoName)
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			f.t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			f.t.Fatal(err)
		}
	}
	git("checkout", "-q", "-b", "cfg-base", f.base)
	write(".interleave.yaml", base)
	git("add", ".interleave.yaml")
	git("commit", "-q", "-m", "config")
	f.base = git("rev-parse", "HEAD")
	git("checkout", "-q", f.head, "--", "counter.go")
	write(".interleave.yaml", head)
	git("commit", "-q", "-am", "faster counter, quieter review")
	f.head = git("rev-parse", "HEAD")
	f.gh.AddPull(ghtest.Pull{Owner: owner, Repo: repoName, Number: prNumber, HeadSHA: f.head, BaseSHA: f.base, Files: repoFiles})
}

// TestAppReadsConfigFromBase: the job runs under the base's
// .interleave.yaml (its budget 0: no search, though the server's default
// is 2s), not under the head's, which the pull request itself changes.
func TestAppReadsConfigFromBase(t *testing.T) {
	needBinary(t)
	f := newFixture(t, 0)
	f.rebaseWithConfig("budget: 0\n", "budget: 1m\nrules:\n  disable: [all]\n")
	f.close()
	f.cfg.Workers, f.cfg.KeepJobDirs = 1, true
	f.open()
	f.send("pull_request", "cfg-1", f.pullRequestPayload("synchronize"), nil)
	f.waitFor("the job to end", func() bool {
		jobs := f.jobs()
		return len(jobs) == 1 && (jobs[0].State == StateDone || jobs[0].State == StateFailed)
	})
	j := f.jobs()[0]
	if j.State != StateDone {
		t.Fatalf("job %+v, want done", j)
	}
	log, err := os.ReadFile(filepath.Join(f.cfg.WorkDir, "jobs", j.ID, "out", prLogFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"settings from " + f.base + ":.interleave.yaml", "dynamic search skipped (-budget 0)"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("pr.log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(string(log), f.head+":.interleave.yaml") {
		t.Errorf("pr.log names the head's file:\n%s", log)
	}
	if runs := f.gh.CheckRuns(owner, repoName); len(runs) != 1 || runs[0].GetHeadSHA() != f.head {
		t.Errorf("check runs %v, want one on the head", runs)
	}
}

// TestAppBadBaseConfig: a base whose .interleave.yaml is not valid gets a
// failed check run quoting the problem with its line; nothing runs.
func TestAppBadBaseConfig(t *testing.T) {
	f := newFixture(t, 0)
	f.rebaseWithConfig("budgte: 1m\n", "budget: 1m\n")
	f.close()
	f.cfg.Workers = 1
	f.open()
	f.send("pull_request", "cfg-2", f.pullRequestPayload("synchronize"), nil)
	f.waitFor("the job to fail", func() bool {
		jobs := f.jobs()
		return len(jobs) == 1 && jobs[0].State == StateFailed && !jobs[0].Posted.IsZero()
	})
	runs := f.gh.CheckRuns(owner, repoName)
	want := f.base + `:.interleave.yaml:1:1: unknown key "budgte"`
	if len(runs) != 1 || runs[0].GetConclusion() != "failure" || !strings.Contains(runs[0].GetOutput().GetSummary(), want) {
		t.Errorf("check runs %+v, want one failure quoting %q", runs, want)
	}
}
