package github

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	gh "github.com/google/go-github/v60/github"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/report/github/cienv"
	"github.com/interleave-dev/interleave/report/github/ghtest"
)

func TestActionContract(t *testing.T) {
	if ActionSearchMore != SearchMoreIdentifier {
		t.Errorf("the check run button %q and the App's identifier %q differ", ActionSearchMore, SearchMoreIdentifier)
	}
	for _, c := range []struct {
		name, s string
		max     int
	}{
		{"label", actionSearchMoreLabel, 20},
		{"identifier", ActionSearchMore, 20},
		{"description", actionSearchMoreDescription, 40},
	} {
		if n := utf8.RuneCountInString(c.s); n > c.max {
			t.Errorf("%s %q has %d characters, GitHub allows %d", c.name, c.s, n, c.max)
		}
	}
	if actionSearchMoreLabel != "Search 10 more min" {
		t.Errorf("label %q", actionSearchMoreLabel)
	}
}

func TestThrottlePacing(t *testing.T) {
	clock := ghtest.NewClock()
	th := &Throttle{Clock: clock}
	start := clock.Now()
	var starts []time.Time
	for i := 0; i < maxWritesPerHour+1; i++ {
		if err := th.pace(context.Background()); err != nil {
			t.Fatal(err)
		}
		starts = append(starts, clock.Now())
	}
	for i := 1; i < len(starts); i++ {
		if d := starts[i].Sub(starts[i-1]); d < minWriteInterval {
			t.Fatalf("writes %d and %d are %v apart, want at least %v", i-1, i, d, minWriteInterval)
		}
	}
	for i := maxWritesPerMinute; i < len(starts); i++ {
		if d := starts[i].Sub(starts[i-maxWritesPerMinute]); d < time.Minute {
			t.Fatalf("%d writes within %v", maxWritesPerMinute+1, d)
		}
	}
	if d := starts[maxWritesPerHour].Sub(start); d < time.Hour {
		t.Errorf("write %d started %v after the first, want at least an hour", maxWritesPerHour+1, d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := th.pace(ctx); err == nil {
		t.Errorf("pace with a cancelled context and a wait ahead returned nil")
	}
}

// Writes to an API that is not GitHub's hosted one go without the
// minimum interval, within the same limits per minute and per hour; the
// client NewClient makes decides by the API's host.
func TestThrottleNoInterval(t *testing.T) {
	clock := ghtest.NewClock()
	th := &Throttle{Clock: clock, NoInterval: true}
	start := clock.Now()
	var starts []time.Time
	for i := 0; i < maxWritesPerMinute+1; i++ {
		if err := th.pace(context.Background()); err != nil {
			t.Fatal(err)
		}
		starts = append(starts, clock.Now())
	}
	if d := starts[maxWritesPerMinute-1].Sub(start); d != 0 {
		t.Errorf("%d writes took %v, want no wait", maxWritesPerMinute, d)
	}
	if d := starts[maxWritesPerMinute].Sub(start); d < time.Minute {
		t.Errorf("write %d started %v after the first, want at least a minute", maxWritesPerMinute+1, d)
	}
	for _, c := range []struct {
		api, server string
		interval    bool
	}{
		{"", "", true},
		{"https://api.github.com", "https://github.com", true},
		{"https://api.octo.ghe.com", "https://octo.ghe.com", true},
		{"", "https://ghe.example.com", false},
		{"http://127.0.0.1:8080/", "", false},
	} {
		clock := ghtest.NewClock()
		ok := fakeTransport(func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: http.StatusCreated, Body: io.NopCloser(strings.NewReader("{}")), Request: r}, nil
		})
		c1, err := NewClient(ClientOptions{Token: "t", APIURL: c.api, ServerURL: c.server, Clock: clock, Transport: ok})
		if err != nil {
			t.Fatal(err)
		}
		start := clock.Now()
		for range 3 {
			req, _ := c1.NewRequest(http.MethodPost, "repos/o/r/check-runs", map[string]string{"name": "x"})
			if _, err := c1.Do(context.Background(), req, nil); err != nil {
				t.Fatal(err)
			}
		}
		if waited := clock.Now().Sub(start); (waited >= 2*minWriteInterval) != c.interval {
			t.Errorf("API %q, server %q: three writes waited %v, want the interval %v", c.api, c.server, waited, c.interval)
		}
	}
}

// fakeTransport answers every request itself.
type fakeTransport func(*http.Request) (*http.Response, error)

func (f fakeTransport) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestEndpoints(t *testing.T) {
	for _, c := range []struct {
		name, api, server, wantAPI, wantUpload, wantErr string
	}{
		{"dotcom default", "", "", "https://api.github.com/", "https://uploads.github.com/", ""},
		{"dotcom from Actions", "https://api.github.com", "https://github.com", "https://api.github.com/", "https://uploads.github.com/", ""},
		{"GHES from Actions", "https://ghe.example.com/api/v3", "https://ghe.example.com", "https://ghe.example.com/api/v3/", "https://ghe.example.com/api/uploads/", ""},
		{"GHES server only", "", "https://ghe.example.com/", "https://ghe.example.com/api/v3/", "https://ghe.example.com/api/uploads/", ""},
		{"bad API URL", "ftp://x", "", "", "", "GITHUB_API_URL"},
		{"bad server URL", "", "not a url", "", "", "GITHUB_SERVER_URL"},
	} {
		t.Run(c.name, func(t *testing.T) {
			api, upload, err := endpoints(c.api, c.server)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("got err %v, want one naming %s", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if api.String() != c.wantAPI || upload.String() != c.wantUpload {
				t.Errorf("got %s %s, want %s %s", api, upload, c.wantAPI, c.wantUpload)
			}
		})
	}
	if _, err := NewClient(ClientOptions{}); err == nil {
		t.Errorf("NewClient without a token succeeded")
	}
}

func TestTruncate(t *testing.T) {
	s := strings.Repeat("é", 40000) // 80,000 bytes
	got := truncate(s, maxCommentBody, "summary")
	if len(got) > maxCommentBody || !utf8.ValidString(got) || !strings.Contains(got, "summary truncated") {
		t.Errorf("got %d bytes (valid UTF-8 %v), want at most %d with a note", len(got), utf8.ValidString(got), maxCommentBody)
	}
	if truncate("short", 10, "x") != "short" {
		t.Errorf("short text changed")
	}
	body := fitBody(strings.Repeat("x", 2*maxCommentBody), fingerprintMarker("abc"))
	if len(body) > maxCommentBody {
		t.Errorf("fitBody: %d bytes", len(body))
	}
	if fp, ok := markedFingerprint(body); !ok || fp != "abc" {
		t.Errorf("marker lost in a cut body: %q %v", fp, ok)
	}
}

func TestWorkflowCommandEscaping(t *testing.T) {
	rep := makeReport(t, checks.Finding{Rule: "IL1001", Severity: checks.Note, Message: "a%b\r\nc::d",
		Pos: checks.Position{File: "dir,x/a:b.go", Line: 3, EndLine: 5}, Evidence: checks.Static})
	got := workflowCommand(&rep.Findings[0], DefaultReplayCommand)
	want := "::notice file=dir%2Cx/a%3Ab.go,line=3,endLine=5,title=IL1001::a%25b%0D%0Ac::d"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestStepSummaryCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.md")
	os.WriteFile(path, bytes.Repeat([]byte("x"), cienv.MaxStepSummary-100_000), 0o644)
	p := &publisher{in: Input{StepSummary: path, Summary: strings.Repeat("line of summary\n", 20000)}, res: &Result{}}
	if err := p.writeStepSummary(); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	b, _ := os.ReadFile(path)
	if st.Size() > cienv.MaxStepSummary || !strings.Contains(string(b), "job summary truncated") {
		t.Errorf("job summary is %d bytes, want at most %d with a truncation note", st.Size(), cienv.MaxStepSummary)
	}
}

func TestParseHunksAndDiff(t *testing.T) {
	hs, err := parseHunks(counterPatch)
	if err != nil || fmt.Sprint(hs) != "[{10 18} {43 46}]" {
		t.Errorf("parseHunks: %v %v", hs, err)
	}
	if _, err := parseHunks("@@ -1 +x @@\n+a\n"); err == nil {
		t.Errorf("bad header accepted")
	}
	diff := "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -1,2 +1,3 @@\n a\n+++ not a header\n b\n" +
		"diff --git a/gone.go b/gone.go\ndeleted file mode 100644\n--- a/gone.go\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n" +
		"diff --git a/n.go b/n.go\nnew file mode 100644\n--- /dev/null\n+++ b/n.go\n@@ -0,0 +1 @@\n+y\n"
	got := parseUnifiedDiff(diff)
	if fmt.Sprint(got) != "map[a.go:[{1 3}] n.go:[{1 1}]]" {
		t.Errorf("parseUnifiedDiff: %v", got)
	}
}

func TestReviewPlansBounded(t *testing.T) {
	var ds []draft
	for i := 0; i < maxReviewComments; i++ {
		ds = append(ds, draft{comment: placeholderComment(i)})
	}
	plans := reviewPlans(ds)
	if len(plans[0].keep) != maxReviewComments || len(plans[0].dropped) != 0 {
		t.Errorf("first plan does not post everything")
	}
	if len(plans[1].dropped) != 1 {
		t.Errorf("second plan drops %d, want 1", len(plans[1].dropped))
	}
	for _, p := range plans {
		if len(p.keep)+len(p.dropped) != maxReviewComments {
			t.Errorf("plan loses comments: %d kept + %d dropped", len(p.keep), len(p.dropped))
		}
	}
}

func placeholderComment(i int) *gh.DraftReviewComment {
	return &gh.DraftReviewComment{Path: gh.String("a.go"), Line: gh.Int(i + 1), Side: gh.String("RIGHT")}
}

func TestReadScheduleOnlyPastesSafeFiles(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "secret.json")
	os.WriteFile(secret, []byte(`{"token":"x"}`), 0o644)
	os.WriteFile(filepath.Join(root, "ok.json"), []byte(`{"decisions":[1]}`), 0o644)
	os.WriteFile(filepath.Join(root, "text.txt"), []byte("not json"), 0o644)
	os.WriteFile(filepath.Join(root, "big.json"), []byte(`"`+strings.Repeat("x", maxScheduleBytes)+`"`), 0o644)
	if err := os.Symlink(secret, filepath.Join(root, "link.json")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	p := &publisher{in: Input{Root: root}}
	for name, want := range map[string]bool{"ok.json": true, "text.txt": false, "big.json": false, "link.json": false, "../" + filepath.Base(outside) + "/secret.json": false, "missing.json": false} {
		if _, got := p.readSchedule(name); got != want {
			t.Errorf("readSchedule(%s) = %v, want %v", name, got, want)
		}
	}
	if !p.scheduleUnsafe("link.json") || p.scheduleUnsafe("missing.json") || p.scheduleUnsafe("ok.json") {
		t.Errorf("scheduleUnsafe: link %v missing %v ok %v, want true false false", p.scheduleUnsafe("link.json"), p.scheduleUnsafe("missing.json"), p.scheduleUnsafe("ok.json"))
	}
}

// A finding that stands for several failures of one cause lists them in
// its review comment and its annotation.
func TestCommentListsSameCause(t *testing.T) {
	f := deadlock("")
	f.SameCause = []checks.Occurrence{
		{Test: "TestWaitTwice", Message: "TestWaitTwice: all goroutines are blocked @octocat", Pos: checks.Position{File: "pkg/counter.go", Line: 43}},
	}
	rep := makeReport(t, f)
	p := &publisher{in: Input{Root: t.TempDir()}}
	body := p.commentBody(&rep.Findings[0])
	for _, want := range []string{"**Same cause**: 1 more failure of the same cause (tests TestWait, TestWaitTwice)", "- `pkg/counter.go:43`: TestWaitTwice: all goroutines are blocked @\u200boctocat"} {
		if !strings.Contains(body, want) {
			t.Errorf("comment lacks %q:\n%s", want, body)
		}
	}
	if d := p.annotation(&rep.Findings[0]).GetRawDetails(); !strings.Contains(d, "1 more failure of the same cause (tests TestWait, TestWaitTwice):\n  pkg/counter.go:43: TestWaitTwice") {
		t.Errorf("annotation details lack the other failure:\n%s", d)
	}
}
