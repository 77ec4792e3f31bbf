package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The server does not start when the sandbox is missing, unless told to.
func TestSandboxRequired(t *testing.T) {
	key, _ := appKey(t)
	cfg := Config{AppID: 1, PrivateKey: key, WebhookSecret: secret, DBPath: filepath.Join(t.TempDir(), "db"), WorkDir: t.TempDir(),
		APIURL: "https://api.github.com/", GitURL: "https://github.com", Interleave: "interleave", Workers: 1, JobTimeout: time.Minute, DefaultBudget: time.Second,
		Sandbox: Sandbox{Bwrap: "/nonexistent/bwrap"}}
	if s, err := New(cfg); err == nil {
		s.Close(context.Background())
		t.Fatal("New started without its sandbox")
	} else if !strings.Contains(err.Error(), "sandbox is unavailable") || !strings.Contains(err.Error(), "-insecure-no-sandbox") {
		t.Errorf("error %q, want one naming the sandbox and -insecure-no-sandbox", err)
	}
	cfg.Sandbox.Insecure = true
	s, err := New(cfg)
	if err != nil {
		t.Fatalf("New with Sandbox.Insecure: %v", err)
	}
	s.Close(context.Background())
}

// A fork's push, or one by an author without write access, waits for a
// writer's label; the check run says so.
func TestForkWaitsForApproval(t *testing.T) {
	f := newFixture(t, 0)
	f.close()
	f.cfg.ForksNeedApproval = true
	f.open()
	f.gh.SetPermission(owner, repoName, "maint", "write")
	f.gh.SetPermission(owner, repoName, "mallory", "read")
	pr := func(action string, set map[string]any) []byte {
		m := map[string]any{"number": prNumber, "pull_request.number": prNumber, "pull_request.head.sha": f.head, "pull_request.base.sha": f.base,
			"pull_request.head.repo.full_name": owner + "/" + repoName}
		for k, v := range set {
			m[k] = v
		}
		if action == "labeled" { // no example payload: a push's, relabeled
			m["action"], action = "labeled", "synchronize"
		}
		return payload(t, "pull_request", action, m)
	}
	steps := []struct {
		name string
		body []byte
		jobs int
	}{
		{"fork", pr("opened", map[string]any{"pull_request.head.repo.full_name": "mallory/" + repoName, "pull_request.user.login": "maint"}), 0},
		{"reader's branch", pr("synchronize", map[string]any{"pull_request.user.login": "mallory"}), 0},
		{"label by a reader", pr("labeled", map[string]any{"label.name": DefaultApproveLabel, "sender.login": "mallory", "pull_request.user.login": "mallory"}), 0},
		{"another label by a writer", pr("labeled", map[string]any{"label.name": "bug", "sender.login": "maint", "pull_request.user.login": "mallory"}), 0},
		{"label by a writer", pr("labeled", map[string]any{"label.name": DefaultApproveLabel, "sender.login": "maint", "pull_request.user.login": "mallory"}), 1},
		{"writer's branch", pr("synchronize", map[string]any{"pull_request.user.login": "maint"}), 2},
	}
	for i, st := range steps {
		f.send("pull_request", "a"+string(rune('0'+i)), st.body, nil)
		f.triaged()
		if n := len(f.jobs()); n != st.jobs {
			t.Fatalf("after %s: %d jobs, want %d", st.name, n, st.jobs)
		}
	}
	runs := f.gh.CheckRuns(owner, repoName)
	if len(runs) != 2 {
		t.Fatalf("%d check runs, want 2 waiting ones (fork, reader's branch)", len(runs))
	}
	for i, want := range []string{"comes from a fork", "is by @\u200bmallory, who has read access"} {
		sum := runs[i].GetOutput().GetSummary()
		if runs[i].GetStatus() != "queued" || !strings.Contains(sum, want) || !strings.Contains(sum, "`"+DefaultApproveLabel+"`") {
			t.Errorf("check run %d: %s %q, want queued, %q and the label", i, runs[i].GetStatus(), sum, want)
		}
	}
}

// The failure text is the server's: the job's log cannot close its code
// block and add markdown of its own.
func TestFailureSummaryFencesTheLog(t *testing.T) {
	log := "compile error\n```\n# Approved by the maintainers\n[click](https://evil.example)\n````"
	got := failureSummary(2, "", log)
	if !strings.Contains(got, "\n`````\n"+log+"\n`````\n") {
		t.Errorf("summary %q does not fence the log with more backquotes than it holds", got)
	}
	if !strings.HasPrefix(got, "interleave pr exited with status 2 without a report.") {
		t.Errorf("summary %q does not start with the server's words", got)
	}
}

// A job's result is checked before anything of it is posted.
func TestCheckResult(t *testing.T) {
	good := `{"version":1,"tool":{"name":"interleave"},"findings":[{"rule":"IL0001","message":"m","pos":{"file":"a.go","line":3},"schedule":"s/1.json"}]}`
	res := &JobResult{Report: json.RawMessage(good), Schedules: map[string]string{
		"s/1.json": `{"ok":1}`, "../etc/x.json": `{}`, "s/2.json": "not json", "/abs.json": `{}`,
	}}
	if _, err := checkResult(res); err != nil {
		t.Fatalf("checkResult: %v", err)
	}
	if len(res.Schedules) != 1 || res.Schedules["s/1.json"] == "" {
		t.Errorf("schedules kept %v, want only s/1.json", res.Schedules)
	}
	for _, bad := range []string{`{"version":1,"findings":[{"rule":"IL0001","pos":{"file":"/etc/passwd","line":1}}]}`, `not json`, `{"version":99}`} {
		if _, err := checkResult(&JobResult{Report: json.RawMessage(bad)}); err == nil {
			t.Errorf("checkResult accepted %s", bad)
		}
	}
	if _, err := readResult(strings.NewReader("")); err == nil {
		t.Error("readResult accepted an empty pipe")
	}
}

// TestWriteOutputsKeepsNotes: the SARIF the server renders from a job's
// checked report carries the search's notes, as the report does.
func TestWriteOutputsKeepsNotes(t *testing.T) {
	res := &JobResult{Report: json.RawMessage(`{"version":2,"tool":{"name":"interleave"},"findings":[],"notes":["TestX: not reported: it failed once"]}`)}
	rep, err := checkResult(res)
	if err != nil {
		t.Fatalf("checkResult: %v", err)
	}
	out := t.TempDir()
	if err := (&Server{}).writeOutputs(out, res, rep); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, sarifFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "toolExecutionNotifications") || !strings.Contains(string(b), "TestX: not reported: it failed once") {
		t.Errorf("SARIF without the job's note:\n%s", b)
	}
}
