//go:build linux && heavy

package app

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	gh "github.com/google/go-github/v60/github"

	"github.com/interleave-dev/interleave/report/github/ghtest"
)

// memHogTest is a pull request's test file whose binary touches 2 GiB as it
// starts.
const memHogTest = `package racy

func init() {
	var keep [][]byte
	for range 2048 {
		b := make([]byte, 1<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		keep = append(keep, b)
	}
	println("touched", len(keep), "MiB")
}
`

// A job that uses more memory than -sandbox-memory is killed; its check
// run says so, and the next job runs. Behind -tags heavy: it runs the real
// server end to end (five minutes here), beside TestAppUntrustedPullRequest,
// and would push the package past go test's default timeout;
// TestJobCgroupKillsAtLimit checks the cgroup's kill in the default run.
func TestAppJobOutOfMemory(t *testing.T) {
	needBinary(t)
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bubblewrap (bwrap) is not installed, so the job sandbox does not exist here; Debian: apt-get install bubblewrap")
	}
	const limit = 512 << 20
	cg := needCgroups(t, limit)

	key, pub := appKey(t)
	github := ghtest.New(t)
	github.AddApp(testAppID, pub, testInstID)
	root := t.TempDir()
	keyFile, secretFile := filepath.Join(root, "app.pem"), filepath.Join(root, "webhook-secret")
	os.WriteFile(keyFile, key, 0o600)
	os.WriteFile(secretFile, secret, 0o600)
	state := filepath.Join(root, "state")
	for _, d := range []string{filepath.Dir(root), root, state} {
		os.MkdirAll(d, 0o711)
		os.Chmod(d, 0o711)
	}
	cmd := exec.Command(interleaveBin, "serve", "-app-id", strconv.Itoa(testAppID), "-private-key", keyFile,
		"-webhook-secret-file", secretFile, "-db", filepath.Join(state, "queue.db"), "-workdir", filepath.Join(state, "work"), "-addr", "127.0.0.1:0",
		"-api-url", github.URL(), "-git-url", filepath.Join(root, "git"), "-budget", "2s", "-job-timeout", "6m",
		"-gocache-seed", testSeed(t, filepath.Join(root, "seed")), "-grace", "0s", "-require-approval=false",
		"-sandbox-memory", "512MiB", "-sandbox-cgroup", cg.parent)
	server, logs, exited, stop := startServe(t, cmd)
	defer stop()

	push := func(repo string, files map[string]string) (head string) {
		t.Helper()
		dir := filepath.Join(root, "git", owner, repo)
		base, head := "", ""
		if files == nil {
			base, head = makeRepo(t, dir)
		} else {
			base, head = makeRepoWith(t, dir, files)
		}
		github.AddPull(ghtest.Pull{Owner: owner, Repo: repo, Number: 1, HeadSHA: head, BaseSHA: base, Files: repoFiles})
		body := payload(t, "pull_request", "synchronize", map[string]any{
			"repository.name": repo, "repository.full_name": owner + "/" + repo,
			"number": 1, "pull_request.number": 1, "pull_request.head.sha": head, "pull_request.base.sha": base,
			"pull_request.head.repo.full_name": owner + "/" + repo, "pull_request.user.login": "maint", "sender.login": "maint",
		})
		req, _ := http.NewRequest(http.MethodPost, server+"/webhook", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-GitHub-Event", "pull_request")
		req.Header.Set("X-GitHub-Delivery", repo)
		req.Header.Set("X-Hub-Signature-256", ghtest.Sign(secret, body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted {
			t.Fatalf("delivery %s: status %d", repo, resp.StatusCode)
		}
		return head
	}
	completed := func(repo, sha string) *gh.CheckRun {
		t.Helper()
		deadline := time.Now().Add(10 * time.Minute)
		for {
			for _, r := range github.CheckRuns(owner, repo) {
				if r.GetHeadSHA() == sha && r.GetStatus() == "completed" {
					return r
				}
			}
			select {
			case <-exited:
				t.Fatalf("the server exited while waiting for %s's check run", repo)
			default:
			}
			if strings.Contains(logs.String(), `"msg":"job failed"`) && !strings.Contains(logs.String(), `"msg":"failure posted"`) {
				t.Fatalf("a job failed without posting while waiting for %s's check run", repo)
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s's check run", repo)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	// 1. The hog is killed at the limit and the check run says so.
	hogHead := push("hog", map[string]string{"hog_test.go": memHogTest})
	run := completed("hog", hogHead)
	want := "the job ran out of its memory limit (512 MiB)"
	if run.GetConclusion() != "failure" || run.GetOutput().GetTitle() != "interleave ran out of memory" || !strings.Contains(run.GetOutput().GetSummary(), want) {
		t.Errorf("the hog's check run: %s %q %.2000q, want a failure saying %q", run.GetConclusion(), run.GetOutput().GetTitle(), run.GetOutput().GetSummary(), want)
	}

	// 2. The server still serves: the next job runs under the same limit.
	okHead := push("benign", nil)
	if r := completed("benign", okHead); r.GetConclusion() != "failure" || !strings.Contains(r.GetOutput().GetSummary(), "counter.go") {
		t.Errorf("the next pull request's check run: %s %q %.2000q, want a failure naming counter.go", r.GetConclusion(), r.GetOutput().GetTitle(), r.GetOutput().GetSummary())
	}
	if resp, err := http.Get(server + "/healthz"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("healthz: %v %v", resp, err)
	}
	// 3. The jobs' cgroups are gone.
	if left, _ := filepath.Glob(filepath.Join(cg.parent, cgroupPrefix+"*")); len(left) > 0 {
		t.Errorf("cgroups left after the jobs: %v", left)
	}
}
