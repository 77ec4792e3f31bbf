package app

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gh "github.com/google/go-github/v60/github"

	"github.com/interleave-dev/interleave/internal/testctx"
	"github.com/interleave-dev/interleave/report/github/ghtest"
)

const (
	testAppID  = 4242
	testInstID = 77
	owner      = "octo-org"
	repoName   = "racy"
	prNumber   = 7
)

var secret = []byte("webhook secret for tests")

var (
	keyOnce sync.Once
	keyPEM  []byte
	keyPub  *rsa.PublicKey
)

// appKey returns one RSA key for all tests: generating one takes a while.
func appKey(t *testing.T) ([]byte, *rsa.PublicKey) {
	keyOnce.Do(func() {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		keyPEM = pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
		keyPub = &k.PublicKey
	})
	return keyPEM, keyPub
}

// fixture is a fake GitHub, a local git remote and a server under test.
type fixture struct {
	t       *testing.T
	gh      *ghtest.Server
	gitRoot string
	base    string // base commit SHA of the pull request
	head    string // head commit SHA
	cfg     Config
	srv     *Server
	http    *httptest.Server
	logs    *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newFixture(t *testing.T, workers int) *fixture {
	t.Helper()
	key, pub := appKey(t)
	f := &fixture{t: t, gh: ghtest.New(t), logs: &syncBuffer{}}
	f.gh.AddApp(testAppID, pub, testInstID)
	f.gitRoot = t.TempDir()
	f.base, f.head = makeRepoConfig(t, filepath.Join(f.gitRoot, owner, repoName), queueConfig)
	f.gh.AddPull(ghtest.Pull{Owner: owner, Repo: repoName, Number: prNumber, HeadSHA: f.head, BaseSHA: f.base, Files: repoFiles})
	dir := t.TempDir()
	f.cfg = Config{
		AppID: testAppID, PrivateKey: key, WebhookSecret: secret,
		DBPath: filepath.Join(dir, "interleave.db"), WorkDir: filepath.Join(dir, "work"),
		APIURL: f.gh.URL(), GitURL: f.gitRoot, Interleave: interleaveBin,
		// JobTimeout is only a watchdog here (a machine at load 45 took
		// over 4 min for a 2 s job); below waitFor's 9 min so a hung job
		// ends failed. The limit itself is tested with its own 1.5s.
		// Count ends each search at jobCount schedules per worker and
		// test; the budget only guards a loaded machine (at load 45 a 2s
		// budget ran out before the test binary's first schedule).
		Workers: workers, JobTimeout: 8 * time.Minute, DefaultBudget: 2 * time.Minute, Count: jobCount,
		Logger: slog.New(slog.NewJSONHandler(f.logs, nil)),
		// These tests are about the queue; TestAppUntrustedPullRequest
		// runs the sandbox.
		Sandbox: Sandbox{Insecure: true},
	}
	f.open()
	t.Cleanup(func() {
		f.close()
		if t.Failed() {
			t.Logf("server log:\n%s", f.logs.String())
		}
	})
	return f
}

// open starts a server on the fixture's database.
func (f *fixture) open() {
	f.t.Helper()
	srv, err := New(f.cfg)
	if err != nil {
		f.t.Fatal(err)
	}
	f.srv = srv
	f.http = httptest.NewServer(srv.Handler())
	srv.Start()
}

// close stops the server as interleave serve does: HTTP first, then the queue.
func (f *fixture) close() {
	if f.srv == nil {
		return
	}
	f.http.Close()
	ctx := testctx.New(f.t)
	if err := f.srv.Close(ctx); err != nil {
		f.t.Errorf("close: %v", err)
	}
	f.srv = nil
}

// send delivers a signed webhook and returns the status and body.
func (f *fixture) send(event, delivery string, body []byte, sign func([]byte) (string, string)) (int, string) {
	f.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, f.http.URL+"/webhook", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-GitHub-Event", event)
	req.Header.Set("X-GitHub-Delivery", delivery)
	if sign == nil {
		sign = func(b []byte) (string, string) { return "X-Hub-Signature-256", ghtest.Sign(secret, b) }
	}
	if h, v := sign(body); h != "" {
		req.Header.Set(h, v)
	}
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	// GitHub gives up after 10 s: that, not a figure a loaded machine
	// can miss, is the bound.
	if d := time.Since(start); d > 10*time.Second {
		f.t.Errorf("delivery answered after %v; GitHub gives up after 10 s", d)
	}
	return resp.StatusCode, string(b)
}

// payload is a real example payload of event.action retargeted at the
// fixture's repository and installation, with extra fields set (dotted
// paths).
func payload(t *testing.T, event, action string, set map[string]any) []byte {
	t.Helper()
	fields := map[string]any{
		"installation":           map[string]any{"id": testInstID},
		"repository.name":        repoName,
		"repository.full_name":   owner + "/" + repoName,
		"repository.owner.login": owner,
	}
	for k, v := range set {
		fields[k] = v
	}
	return ghtest.EditPayload(t, event, action, fields)
}

func (f *fixture) pullRequestPayload(action string) []byte {
	return payload(f.t, "pull_request", action, map[string]any{
		"number": prNumber, "pull_request.number": prNumber,
		"pull_request.head.sha": f.head, "pull_request.base.sha": f.base,
	})
}

// comment seeds a comment by login on the pull request and returns the
// issue_comment created payload announcing it.
func (f *fixture) comment(login, body string) (int64, []byte) {
	id := f.gh.SeedIssueComment(owner, repoName, prNumber, gh.IssueComment{Body: gh.String(body), User: &gh.User{Login: gh.String(login), Type: gh.String("User")}})
	return id, payload(f.t, "issue_comment", "created", map[string]any{
		"issue.number": prNumber, "issue.state": "open",
		"issue.pull_request": map[string]any{"url": "https://api.github.com/repos/" + owner + "/" + repoName + "/pulls/7"},
		"comment.id":         id, "comment.body": body, "comment.user.login": login, "comment.user.type": "User",
		"sender.login": login, "sender.type": "User",
	})
}

// waitFor polls cond until it holds or 9 minutes pass: a hang-catcher
// (go test's own timeout is the last one), long enough for a job's cold
// race build on a heavily loaded machine.
func (f *fixture) waitFor(what string, cond func() bool) {
	f.t.Helper()
	deadline := time.Now().Add(9 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			f.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// triaged waits until no delivery waits for triage.
func (f *fixture) triaged() {
	f.t.Helper()
	f.waitFor("triage", func() bool {
		_, _, d, err := f.srv.store.depth()
		return err == nil && d == 0
	})
}

func (f *fixture) jobs() []Job {
	f.t.Helper()
	jobs, err := f.srv.Jobs()
	if err != nil {
		f.t.Fatal(err)
	}
	return jobs
}

// jobsAfterClose reads the jobs from the database of a closed server.
func (f *fixture) jobsAfterClose() []Job {
	f.t.Helper()
	st, err := openStore(f.cfg.DBPath)
	if err != nil {
		f.t.Fatal(err)
	}
	defer st.Close()
	jobs, err := st.jobs()
	if err != nil {
		f.t.Fatal(err)
	}
	return jobs
}

func (f *fixture) health() map[string]any {
	f.t.Helper()
	resp, err := http.Get(f.http.URL + "/healthz")
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		f.t.Fatalf("healthz status %d", resp.StatusCode)
	}
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		f.t.Fatal(err)
	}
	return m
}

func TestForgedSignatureQueuesNothing(t *testing.T) {
	f := newFixture(t, 0)
	body := f.pullRequestPayload("opened")
	status, _ := f.send("pull_request", "forged-1", body, func(b []byte) (string, string) {
		return "X-Hub-Signature-256", ghtest.Sign([]byte("not the secret"), b)
	})
	if status != http.StatusUnauthorized {
		t.Errorf("forged signature: status %d, want 401", status)
	}
	// A valid SHA-1 signature alone is not enough.
	status, _ = f.send("pull_request", "sha1-only", body, func(b []byte) (string, string) {
		m := hmac.New(sha1.New, secret)
		m.Write(b)
		return "X-Hub-Signature", "sha1=" + hex.EncodeToString(m.Sum(nil))
	})
	if status != http.StatusUnauthorized {
		t.Errorf("SHA-1 signature only: status %d, want 401", status)
	}
	status, _ = f.send("pull_request", "unsigned", body, func([]byte) (string, string) { return "", "" })
	if status != http.StatusUnauthorized {
		t.Errorf("unsigned: status %d, want 401", status)
	}
	if h := f.health(); h["queue_depth"] != float64(0) {
		t.Errorf("queue depth %v after refused deliveries, want 0", h["queue_depth"])
	}
	if jobs := f.jobs(); len(jobs) != 0 {
		t.Errorf("jobs queued: %+v", jobs)
	}
	// The same body, signed, is accepted: the refusals were the signatures'.
	if status, _ := f.send("pull_request", "signed", body, nil); status != http.StatusAccepted {
		t.Errorf("signed delivery: status %d, want 202", status)
	}
}

func TestPingAndIgnoredEvents(t *testing.T) {
	f := newFixture(t, 0)
	if status, _ := f.send("ping", "p1", ghtest.Payload(t, "ping", ""), nil); status != http.StatusOK {
		t.Errorf("ping: status %d, want 200", status)
	}
	if status, body := f.send("pull_request", "c1", payload(t, "pull_request", "closed", nil), nil); status != http.StatusOK || !strings.Contains(body, "ignored") {
		t.Errorf("closed pull request: %d %s, want 200 ignored", status, body)
	}
	if status, _ := f.send("pull_request", "bad", []byte(`{"action":"opened","pull_request":`), nil); status != http.StatusBadRequest {
		t.Errorf("truncated payload: status %d, want 400", status)
	}
	if jobs := f.jobs(); len(jobs) != 0 {
		t.Errorf("jobs queued: %+v", jobs)
	}
}

func TestDuplicateDeliveryProcessedOnce(t *testing.T) {
	f := newFixture(t, 0)
	body := f.pullRequestPayload("synchronize")
	if status, _ := f.send("pull_request", "dup-1", body, nil); status != http.StatusAccepted {
		t.Fatalf("first delivery: status %d, want 202", status)
	}
	if status, body := f.send("pull_request", "dup-1", body, nil); status != http.StatusOK || !strings.Contains(body, "duplicate") {
		t.Fatalf("redelivery: %d %s, want 200 duplicate", status, body)
	}
	// A command redelivered under a new delivery id is deduped by comment.
	f.gh.SetPermission(owner, repoName, "alice", "write")
	_, cmd := f.comment("alice", "/retest-concurrency")
	if status, _ := f.send("issue_comment", "cmd-1", cmd, nil); status != http.StatusAccepted {
		t.Fatalf("command: status %d, want 202", status)
	}
	if status, _ := f.send("issue_comment", "cmd-2", cmd, nil); status != http.StatusOK {
		t.Fatalf("same comment again: status %d, want 200", status)
	}
	f.triaged()
	jobs := f.jobs()
	if len(jobs) != 2 {
		t.Fatalf("got %d jobs, want 2 (one per distinct request): %+v", len(jobs), jobs)
	}
	if jobs[0].HeadSHA != f.head || jobs[0].BaseSHA != f.base || jobs[0].Trigger != "pull_request synchronize" {
		t.Errorf("pull_request job %+v", jobs[0])
	}
}

func TestRetestByReaderIsRefused(t *testing.T) {
	f := newFixture(t, 0)
	f.gh.SetPermission(owner, repoName, "mallory", "read")
	id, body := f.comment("mallory", "/retest-concurrency budget=10m")
	if status, _ := f.send("issue_comment", "r1", body, nil); status != http.StatusAccepted {
		t.Fatalf("status %d, want 202", status)
	}
	f.triaged()
	if jobs := f.jobs(); len(jobs) != 0 {
		t.Errorf("a reader's command queued jobs: %+v", jobs)
	}
	var replies []string
	for _, c := range f.gh.IssueComments(owner, repoName, prNumber) {
		if c.GetID() != id {
			replies = append(replies, c.GetBody())
		}
	}
	if len(replies) != 1 || !strings.Contains(replies[0], "@mallory: /retest-concurrency needs write access to this repository") {
		t.Errorf("replies %q, want one refusal naming the required access", replies)
	}
	if r := f.gh.Reactions(owner, repoName, id); len(r) != 0 {
		t.Errorf("reactions %v on a refused command", r)
	}
}

func TestRetestByWriterPinsHead(t *testing.T) {
	f := newFixture(t, 0)
	f.gh.SetPermission(owner, repoName, "alice", "maintain")
	id, body := f.comment("alice", "/retest-concurrency budget=3m")
	if status, _ := f.send("issue_comment", "w1", body, nil); status != http.StatusAccepted {
		t.Fatalf("status %d, want 202", status)
	}
	f.triaged()
	if r := f.gh.Reactions(owner, repoName, id); len(r) != 1 || r[0] != "eyes" {
		t.Errorf("reactions %v, want [eyes]", r)
	}
	// A push after the authorization must not change what runs.
	newHead := strings.Repeat("ab", 20)
	f.gh.AddPull(ghtest.Pull{Owner: owner, Repo: repoName, Number: prNumber, HeadSHA: newHead, BaseSHA: f.base, Files: repoFiles})
	jobs := f.jobs()
	if len(jobs) != 1 {
		t.Fatalf("got %d jobs, want 1", len(jobs))
	}
	j := jobs[0]
	if j.HeadSHA != f.head || j.BaseSHA != f.base {
		t.Errorf("job head %s base %s, want the head read at authorization %s (base %s)", j.HeadSHA, j.BaseSHA, f.head, f.base)
	}
	if j.Budget != 3*time.Minute || j.State != StatePending || j.Seed == 0 || j.PR != prNumber || j.InstallationID != testInstID {
		t.Errorf("job %+v", j)
	}
	// Every request the server made was authenticated as the installation.
	for _, r := range f.gh.Requests() {
		if r.Status == http.StatusUnauthorized {
			t.Errorf("%s %s answered 401", r.Method, r.Path)
		}
	}
}

func TestMalformedCommandGetsUsage(t *testing.T) {
	f := newFixture(t, 0)
	f.gh.SetPermission(owner, repoName, "alice", "write")
	id, body := f.comment("alice", "/retest-concurrency seed=3")
	f.send("issue_comment", "m1", body, nil)
	f.triaged()
	if jobs := f.jobs(); len(jobs) != 0 {
		t.Errorf("a malformed command queued jobs: %+v", jobs)
	}
	var reply string
	for _, c := range f.gh.IssueComments(owner, repoName, prNumber) {
		if c.GetID() != id {
			reply = c.GetBody()
		}
	}
	if !strings.Contains(reply, "unknown option seed=") || !strings.Contains(reply, "budget=DURATION") {
		t.Errorf("reply %q, want the problem and the usage", reply)
	}
}

func TestSearchMoreButton(t *testing.T) {
	f := newFixture(t, 0)
	f.gh.SetPermission(owner, repoName, "alice", "admin")
	click := func(login, delivery string) {
		body := payload(t, "check_run", "requested_action", map[string]any{
			"requested_action.identifier": "search-10m",
			"check_run.head_sha":          f.head,
			"check_run.pull_requests":     []any{}, // as for a fork
			"sender.login":                login, "sender.type": "User",
		})
		if status, _ := f.send("check_run", delivery, body, nil); status != http.StatusAccepted {
			t.Fatalf("status %d, want 202", status)
		}
		f.triaged()
	}
	click("alice", "c1")
	jobs := f.jobs()
	if len(jobs) != 1 {
		t.Fatalf("got %d jobs, want 1", len(jobs))
	}
	if j := jobs[0]; j.Budget != 10*time.Minute || j.HeadSHA != f.head || j.BaseSHA != f.base || j.PR != prNumber || j.Seed == 0 {
		t.Errorf("job %+v, want budget 10m on the check run's head", j)
	}
	// The same permission check applies to the clicker.
	f.gh.SetPermission(owner, repoName, "bob", "triage")
	click("bob", "c2")
	if jobs := f.jobs(); len(jobs) != 1 {
		t.Errorf("a triager's click queued a job: %+v", jobs)
	}
	comments := f.gh.IssueComments(owner, repoName, prNumber)
	if len(comments) != 1 || !strings.Contains(comments[0].GetBody(), "@bob:") || !strings.Contains(comments[0].GetBody(), "needs write access") {
		t.Errorf("comments %v, want one refusal for bob", comments)
	}
}

// TestHealthzAndSupersede queues two pushes to one pull request: the newer
// job replaces the pending older one, and /healthz counts what is left.
func TestHealthzAndSupersede(t *testing.T) {
	f := newFixture(t, 0)
	if h := f.health(); h["status"] != "ok" || h["queue_depth"] != float64(0) {
		t.Errorf("healthz %v on an empty queue", h)
	}
	f.send("pull_request", "h1", f.pullRequestPayload("opened"), nil)
	f.send("pull_request", "h2", f.pullRequestPayload("synchronize"), nil)
	f.triaged()
	h := f.health()
	if h["queue_depth"] != float64(1) || h["pending"] != float64(1) {
		t.Errorf("healthz %v, want 1 pending job", h)
	}
	jobs := f.jobs()
	if len(jobs) != 2 || jobs[0].State != StateDone || !strings.Contains(jobs[0].Reason, "superseded by "+jobs[1].ID) || jobs[1].State != StatePending {
		t.Errorf("jobs %+v, want the first superseded by the second", jobs)
	}
}

// TestRestartRunsPendingJobOnce queues a job on a server without workers,
// stops it, and starts a new one on the same database: the job runs once and
// its results are posted once, also across a further restart.
func TestRestartRunsPendingJobOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs interleave pr and post for real")
	}
	needBinary(t)
	f := newFixture(t, 0)
	f.send("pull_request", "rs1", f.pullRequestPayload("opened"), nil)
	f.triaged()
	f.close()

	f.cfg.Workers = 1
	f.open()
	f.waitFor("the job to finish", func() bool {
		jobs := f.jobs()
		return len(jobs) == 1 && (jobs[0].State == StateDone || jobs[0].State == StateFailed)
	})
	j := f.jobs()[0]
	if j.State != StateDone || j.Posted.IsZero() || j.Attempts != 1 {
		t.Fatalf("job %+v, want done and posted after one attempt", j)
	}
	runs := f.gh.CheckRuns(owner, repoName)
	if len(runs) != 1 || runs[0].GetHeadSHA() != f.head {
		t.Fatalf("check runs %v, want one on %s", runs, f.head)
	}
	// The racy increment on the head is what was found and posted.
	anns := f.gh.CheckRunAnnotations(owner, repoName, runs[0].GetID())
	if runs[0].GetConclusion() != "failure" || len(anns) == 0 || anns[0].GetPath() != "counter.go" {
		t.Errorf("check run concluded %q with annotations %v, want failure on counter.go", runs[0].GetConclusion(), anns)
	}
	f.close()
	f.open()
	time.Sleep(300 * time.Millisecond) // a restarted worker would claim it now
	if runs := f.gh.CheckRuns(owner, repoName); len(runs) != 1 {
		t.Errorf("after another restart: %d check runs, want 1", len(runs))
	}
	if j2 := f.jobs()[0]; j2.Attempts != 1 || j2.State != StateDone {
		t.Errorf("job after restart %+v", j2)
	}
	if _, err := os.Stat(filepath.Join(f.cfg.WorkDir, "jobs", j.ID)); !os.IsNotExist(err) {
		t.Errorf("job directory left behind: %v", err)
	}
}

// TestCrashAfterPostPostsOnce kills the worker (through its test hook)
// after interleave post succeeded and before the job was recorded as
// posted. The restarted server resumes the job, and interleave post, given
// the same key, finds the completed check run and posts nothing again.
func TestCrashAfterPostPostsOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs interleave pr and post for real")
	}
	needBinary(t)
	f := newFixture(t, 0)
	f.send("pull_request", "crash1", f.pullRequestPayload("opened"), nil)
	f.triaged()
	f.close()

	var mu sync.Mutex
	var crashedJob *Job
	f.cfg.Workers = 1
	f.cfg.crashAfterPost = func(j *Job) bool {
		mu.Lock()
		defer mu.Unlock()
		crashedJob = j
		return true
	}
	f.open()
	// A failed job never gets to the post: the wait ends there too.
	f.waitFor("the post before the crash", func() bool {
		mu.Lock()
		crashed := crashedJob != nil
		mu.Unlock()
		jobs := f.jobs()
		return crashed || len(jobs) == 1 && jobs[0].State == StateFailed
	})
	mu.Lock()
	crashed := crashedJob != nil
	mu.Unlock()
	if !crashed {
		j := f.jobs()[0]
		t.Fatalf("the job ended %s before its post: %s", j.State, j.Reason)
	}
	f.close()
	j := f.jobsAfterClose()[0]
	if j.State != StateRunning || !j.Posted.IsZero() {
		t.Fatalf("job after the crash %+v, want running and not recorded as posted", j)
	}
	runs := f.gh.CheckRuns(owner, repoName)
	if len(runs) != 1 || runs[0].GetExternalID() != j.postKey() || runs[0].GetStatus() != "completed" {
		t.Fatalf("check runs after the crash %v, want one completed carrying %s", runs, j.postKey())
	}
	reviews, comments := len(f.gh.Reviews(owner, repoName, prNumber)), len(f.gh.ReviewComments(owner, repoName, prNumber))
	if reviews != 1 || comments == 0 || len(f.gh.IssueComments(owner, repoName, prNumber)) != 1 {
		t.Fatalf("after the crash: %d reviews, %d review comments, %d issue comments; want the post's 1, some, 1",
			reviews, comments, len(f.gh.IssueComments(owner, repoName, prNumber)))
	}
	before := len(f.gh.Requests())

	f.cfg.crashAfterPost = nil
	f.open()
	// The job's record is saved before its "job done" line is logged: wait
	// for both.
	f.waitFor("the resumed job to finish", func() bool {
		jobs := f.jobs()
		return len(jobs) == 1 && (jobs[0].State == StateDone || jobs[0].State == StateFailed) &&
			strings.Contains(f.logs.String(), `"job done"`)
	})
	if j := f.jobs()[0]; j.State != StateDone || j.Posted.IsZero() || j.Attempts != 2 {
		t.Errorf("job %+v, want done and posted on its second attempt", j)
	}
	for _, r := range f.gh.Requests()[before:] {
		if r.Method != http.MethodGet && !strings.HasSuffix(r.Path, "/access_tokens") {
			t.Errorf("the resumed job wrote %s %s", r.Method, r.Path)
		}
	}
	if n := len(f.gh.CheckRuns(owner, repoName)); n != 1 {
		t.Errorf("%d check runs, want 1", n)
	}
	if r, c, ic := len(f.gh.Reviews(owner, repoName, prNumber)), len(f.gh.ReviewComments(owner, repoName, prNumber)), len(f.gh.IssueComments(owner, repoName, prNumber)); r != reviews || c != comments || ic != 1 {
		t.Errorf("after the restart: %d reviews, %d review comments, %d issue comments; want %d, %d, 1", r, c, ic, reviews, comments)
	}
	if !strings.Contains(f.logs.String(), `"job done"`) {
		t.Errorf("no job done log")
	}
}

// TestFailurePostedOnce: a job re-run after a crash that followed its
// failure post (its record still says not posted) does not post it again.
func TestFailurePostedOnce(t *testing.T) {
	f := newFixture(t, 0)
	f.send("pull_request", "fail1", f.pullRequestPayload("opened"), nil)
	f.triaged()
	j := f.jobs()[0]
	for range 2 {
		stale := j // as read before the crash: Posted unset
		f.srv.postFailure(&stale, "failure", "interleave could not run", "it did not compile", f.srv.log)
	}
	runs := f.gh.CheckRuns(owner, repoName)
	if len(runs) != 1 || runs[0].GetExternalID() != j.postKey() || runs[0].GetConclusion() != "failure" {
		t.Errorf("check runs %v, want one failure carrying %s", runs, j.postKey())
	}
	if j := f.jobs()[0]; j.Posted.IsZero() {
		t.Errorf("job %+v not recorded as posted", j)
	}
}

// TestJobTimeLimit runs a job whose search budget outlasts its time limit:
// the subprocesses are killed and the job fails saying so.
func TestJobTimeLimit(t *testing.T) {
	needBinary(t)
	f := newFixture(t, 0)
	f.close()
	f.cfg.Workers, f.cfg.JobTimeout, f.cfg.DefaultBudget, f.cfg.Count = 1, 1500*time.Millisecond, time.Minute, 0
	f.open()
	start := time.Now()
	f.send("pull_request", "tl1", f.pullRequestPayload("opened"), nil)
	f.waitFor("the job to fail", func() bool {
		jobs := f.jobs()
		return len(jobs) == 1 && jobs[0].State == StateFailed
	})
	if d := time.Since(start); d > time.Minute {
		t.Errorf("job failed after %v; the 1.5s limit did not stop it (the budget is a minute)", d)
	}
	j := f.jobs()[0]
	if !strings.Contains(j.Reason, "exceeded the job time limit of 1.5s") {
		t.Errorf("job %+v, want failed for its time limit", j)
	}
	// Nothing the job started is left running in its directory.
	f.waitFor("the job's processes to end", func() bool { return len(processesUnder(f.cfg.WorkDir)) == 0 })
	// The pull request learns why no results come.
	f.waitFor("the timed-out check run", func() bool { return !f.jobs()[0].Posted.IsZero() })
	runs := f.gh.CheckRuns(owner, repoName)
	if len(runs) != 1 || runs[0].GetConclusion() != "timed_out" || runs[0].GetHeadSHA() != f.head {
		t.Errorf("check runs %v, want one timed_out run on the head", runs)
	}
}

// TestHeadThatDoesNotCompile posts a failed check run carrying interleave
// pr's explanation.
func TestHeadThatDoesNotCompile(t *testing.T) {
	needBinary(t)
	f := newFixture(t, 0)
	dir := filepath.Join(f.gitRoot, owner, repoName)
	os.WriteFile(filepath.Join(dir, "broken.go"), []byte("package racy\n\nfunc broken() int { return \"x\" }\n"), 0o644)
	for _, args := range [][]string{{"add", "broken.go"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "broken"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	out, _ := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	f.head = strings.TrimSpace(string(out))
	f.close()
	f.cfg.Workers = 1
	f.open()
	f.send("pull_request", "broken-1", f.pullRequestPayload("synchronize"), nil)
	f.waitFor("the job to fail", func() bool {
		jobs := f.jobs()
		return len(jobs) == 1 && jobs[0].State == StateFailed
	})
	if j := f.jobs()[0]; !strings.Contains(j.Reason, "could not run") || j.Posted.IsZero() {
		t.Errorf("job %+v, want failed, could not run, posted", j)
	}
	runs := f.gh.CheckRuns(owner, repoName)
	if len(runs) != 1 || runs[0].GetConclusion() != "failure" || !strings.Contains(runs[0].GetOutput().GetSummary(), "broken.go") {
		t.Errorf("check runs %+v, want one failure naming broken.go", runs)
	}
}

// TestShutdownRequeuesRunningJob stops the server while a job runs with no
// grace period: the job goes back to pending for the next server.
func TestShutdownRequeuesRunningJob(t *testing.T) {
	needBinary(t)
	f := newFixture(t, 0)
	f.close()
	f.cfg.Workers, f.cfg.DefaultBudget, f.cfg.Count = 1, time.Minute, 0
	f.open()
	f.send("pull_request", "sd1", f.pullRequestPayload("opened"), nil)
	f.waitFor("the job to start", func() bool {
		jobs := f.jobs()
		return len(jobs) == 1 && jobs[0].State == StateRunning
	})
	f.http.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // no grace
	if err := f.srv.Close(ctx); err != nil {
		t.Fatal(err)
	}
	f.srv = nil
	st, err := openStore(f.cfg.DBPath)
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := st.jobs()
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 1 || jobs[0].State != StatePending || jobs[0].Reason != "server shutting down" {
		t.Errorf("jobs %+v, want the job pending again", jobs)
	}
}

func TestConfigErrors(t *testing.T) {
	key, _ := appKey(t)
	good := Config{AppID: 1, PrivateKey: key, WebhookSecret: secret, DBPath: filepath.Join(t.TempDir(), "db"), WorkDir: t.TempDir(),
		APIURL: "https://api.github.com/", GitURL: "https://github.com", Interleave: "interleave", Workers: 1, JobTimeout: time.Minute, DefaultBudget: time.Second}
	for name, tc := range map[string]struct {
		edit func(*Config)
		want string
	}{
		"no secret":   {func(c *Config) { c.WebhookSecret = nil }, "no webhook secret"},
		"no key":      {func(c *Config) { c.PrivateKey = nil }, "no App private key"},
		"bad key":     {func(c *Config) { c.PrivateKey = []byte("not a key") }, "private key"},
		"bad api url": {func(c *Config) { c.APIURL = "ftp://x" }, "not an http(s) URL"},
		"no app id":   {func(c *Config) { c.AppID = 0 }, "app id"},
	} {
		t.Run(name, func(t *testing.T) {
			cfg := good
			tc.edit(&cfg)
			s, err := New(cfg)
			if err == nil {
				s.Close(context.Background())
				t.Fatalf("New accepted the config")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want %q", err, tc.want)
			}
		})
	}
}

// The repository the tests clone: a counter whose head commit drops the
// lock around an increment that two goroutines run.
var repoFiles = []ghtest.File{{Filename: "counter.go", Patch: "@@ -10,7 +10,5 @@ type Counter struct {\n \n // Inc adds one.\n func (c *Counter) Inc() {\n-\tc.mu.Lock()\n-\tc.n++\n-\tc.mu.Unlock()\n+\tc.n = c.n + 1 // no lock: faster\n }\n"}}

const counterBase = `package racy

import "sync"

// Counter counts; safe for concurrent use.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Inc adds one.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// N returns the count.
func (c *Counter) N() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
`

const counterTest = `package racy

import (
	"sync"
	"testing"
)

func TestInc(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc()
		}()
	}
	wg.Wait()
	if c.N() != 2 {
		t.Fatalf("N = %d, want 2", c.N())
	}
}
`

// queueConfig is the .interleave.yaml of the queue tests' repository: their
// jobs are about the queue, not about generated tests (internal/prjob and
// cmd/interleave test those), whose build would double each job's.
const queueConfig = "gen-budget: 0\n"

// makeRepo creates the git repository at dir and returns its base and head
// commits.
func makeRepo(t *testing.T, dir string) (base, head string) {
	t.Helper()
	return makeRepoConfig(t, dir, "")
}

// makeRepoConfig is makeRepo whose base commit holds config (if not empty)
// as .interleave.yaml.
func makeRepoConfig(t *testing.T, dir, config string) (base, head string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	write("go.mod", "module example.com/racy\n\ngo 1.26\n")
	write("counter.go", counterBase)
	write("counter_test.go", counterTest)
	if config != "" {
		write(".interleave.yaml", config)
	}
	git("add", ".")
	git("commit", "-q", "-m", "counter")
	base = git("rev-parse", "HEAD")
	write("counter.go", strings.Replace(counterBase, "\tc.mu.Lock()\n\tc.n++\n\tc.mu.Unlock()\n", "\tc.n = c.n + 1 // no lock: faster\n", 1))
	git("commit", "-q", "-am", "faster counter")
	head = git("rev-parse", "HEAD")
	return base, head
}

// interleaveBin is the interleave binary built by TestMain ("" if the build
// failed; buildErr says why).
var interleaveBin, buildErr = "", ""

func needBinary(t *testing.T) {
	t.Helper()
	if interleaveBin == "" || buildErr != "" {
		t.Fatalf("building interleave failed:\n%s", buildErr)
	}
}

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "netjob" {
		os.Exit(netJob(os.Args[2:])) // TestSandboxNetworkPolicy's job, in the sandbox
	}
	if mib, err := strconv.Atoi(os.Getenv("INTERLEAVE_TEST_HOG")); err == nil {
		hog(mib) // TestJobCgroupKillsAtLimit's child
		os.Exit(0)
	}
	if mib, err := strconv.Atoi(os.Getenv("INTERLEAVE_TEST_HOLD")); err == nil {
		hold(mib) // the watchdog tests' child
	}
	dir, err := os.MkdirTemp("", "interleave-app-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	interleaveBin = filepath.Join(dir, "interleave")
	out, err := exec.Command("go", "build", "-o", interleaveBin, "github.com/interleave-dev/interleave/cmd/interleave").CombinedOutput()
	if err != nil {
		buildErr = fmt.Sprintf("%v\n%s", err, out)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestFetchSendsTokenInHeader fetches over smart HTTP (git http-backend
// behind a server that demands the installation token) and checks that the
// token travelled only in the Authorization header.
func TestFetchSendsTokenInHeader(t *testing.T) {
	execPath, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	base, head := makeRepo(t, filepath.Join(root, owner, repoName))
	const token = "ghs_installationtoken123"
	var sawAuth, sawTokenElsewhere bool
	backend := &cgi.Handler{
		Path: filepath.Join(strings.TrimSpace(string(execPath)), "git-http-backend"),
		Env:  []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.String(), token) {
			sawTokenElsewhere = true
		}
		user, pass, ok := r.BasicAuth()
		if !ok || user != "x-access-token" || pass != token {
			w.Header().Set("WWW-Authenticate", `Basic realm="GitHub"`)
			http.Error(w, "token required", http.StatusUnauthorized)
			return
		}
		sawAuth = true
		backend.ServeHTTP(w, r)
	}))
	defer srv.Close()

	s := &Server{cfg: Config{GitURL: srv.URL}}
	dir := filepath.Join(t.TempDir(), "src")
	logFile := filepath.Join(t.TempDir(), "git.log")
	j := &Job{Owner: owner, Repo: repoName, HeadSHA: head, BaseSHA: base}
	if err := s.fetch(context.Background(), j, token, dir, logFile); err != nil {
		t.Fatal(err)
	}
	if !sawAuth || sawTokenElsewhere {
		t.Errorf("token in header: %v, token elsewhere in the URL: %v", sawAuth, sawTokenElsewhere)
	}
	got, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil || strings.TrimSpace(string(got)) != head {
		t.Errorf("checked out %q (%v), want %s", got, err, head)
	}
	for _, f := range []string{filepath.Join(dir, ".git", "config"), logFile} {
		data, _ := os.ReadFile(f)
		if strings.Contains(string(data), token) {
			t.Errorf("%s holds the token", f)
		}
	}
	// A wrong token fails with git's words, not a hang.
	err = s.fetch(context.Background(), j, "wrong", filepath.Join(t.TempDir(), "src2"), logFile)
	if err == nil || !strings.Contains(err.Error(), "fetching "+owner+"/"+repoName) {
		t.Errorf("fetch with a wrong token: %v", err)
	}
}

// TestRunFilter records run= in the job; while interleave pr has no -run
// flag, the commenter is told the filter is ignored.
func TestRunFilter(t *testing.T) {
	needBinary(t)
	f := newFixture(t, 0)
	f.gh.SetPermission(owner, repoName, "alice", "write")
	id, body := f.comment("alice", "/retest-concurrency run=^TestInc$")
	f.send("issue_comment", "run-1", body, nil)
	f.triaged()
	jobs := f.jobs()
	if len(jobs) != 1 || jobs[0].Run != "^TestInc$" {
		t.Fatalf("jobs %+v, want one with run=^TestInc$", jobs)
	}
	help, _ := exec.Command(interleaveBin, "pr", "-h").CombinedOutput()
	supported := strings.Contains(string(help), "\n  -run ")
	var replies []string
	for _, c := range f.gh.IssueComments(owner, repoName, prNumber) {
		if c.GetID() != id {
			replies = append(replies, c.GetBody())
		}
	}
	switch {
	case supported && len(replies) != 0:
		t.Errorf("interleave pr takes -run, yet the server replied %q", replies)
	case !supported && (len(replies) != 1 || !strings.Contains(replies[0], "run=^TestInc$ is ignored")):
		t.Errorf("replies %q, want one saying the filter is ignored", replies)
	}
}

// processesUnder lists the processes whose working directory is under dir
// (Linux; elsewhere none are found).
func processesUnder(dir string) []string {
	var found []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if err == nil && strings.HasPrefix(cwd, dir) {
			found = append(found, e.Name()+" in "+cwd)
		}
	}
	return found
}

// TestWatchdogKillsProcessGroup checks the subprocess plumbing directly:
// a time limit kills the command and everything it started, and so does a
// command's normal end for what it left behind in the background.
func TestWatchdogKillsProcessGroup(t *testing.T) {
	s := &Server{}
	for _, tc := range []struct {
		name, script string
		limit        time.Duration
	}{
		{"time limit", "sleep 30 & sleep 30 & wait", 300 * time.Millisecond},
		{"leftovers after exit", "sleep 30 & exit 0", time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithTimeoutCause(context.Background(), tc.limit, errJobTimeout)
			defer cancel()
			start := time.Now()
			_, err := s.runLogged(ctx, dir, scrubbedEnv(), filepath.Join(dir, "log"), "sh", "-c", tc.script)
			if d := time.Since(start); d > 25*time.Second {
				t.Errorf("returned after %v (the script sleeps 30 s)", d)
			}
			if tc.limit < time.Second && err != errJobTimeout {
				t.Errorf("err = %v, want the time limit", err)
			}
			deadline := time.Now().Add(20 * time.Second)
			for len(processesUnder(dir)) > 0 {
				if time.Now().After(deadline) {
					t.Fatalf("processes left running: %v", processesUnder(dir))
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

// hog touches mib MiB; the test binary runs it, not its tests, when
// $INTERLEAVE_TEST_HOG is set.
func hog(mib int) {
	var keep [][]byte
	for range mib {
		b := make([]byte, 1<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		keep = append(keep, b)
	}
	println("allocated", len(keep), "MiB")
}
