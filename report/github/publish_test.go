package github

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	gh "github.com/google/go-github/v60/github"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/report"
	"github.com/interleave-dev/interleave/report/github/ghtest"
)

const (
	testOwner = "octo"
	testRepo  = "demo"
	testPR    = 7
	testSHA   = "0123456789abcdef0123456789abcdef01234567"
	testToken = "ghs_test"
)

// counterPatch has two hunks in pkg/counter.go: new lines 10-18 and 43-46.
const counterPatch = `@@ -10,6 +10,9 @@ func (c *Counter) Inc() {
 	a := 1
 	b := 2
 	c := 3
+	c.n++
+	c.m++
+	c.k++
 	d := 4
 	e := 5
 	f := 6
@@ -40,3 +43,4 @@ func (c *Counter) Wait() {
 	c.mu.Lock()
+	c.ch <- 1
 	c.mu.Unlock()
 	return
`

func addCounterPull(s *ghtest.Server, files ...ghtest.File) {
	if files == nil {
		files = []ghtest.File{{Filename: "pkg/counter.go", Patch: counterPatch}}
	}
	s.AddPull(ghtest.Pull{Owner: testOwner, Repo: testRepo, Number: testPR, HeadSHA: testSHA,
		BaseSHA: strings.Repeat("b", 40), Files: files})
}

// env is one test's fake GitHub and a client of it whose throttle sleeps
// on a fake clock.
type env struct {
	srv   *ghtest.Server
	c     *gh.Client
	clock *ghtest.Clock
	root  string
	step  string // job summary file
	out   *bytes.Buffer
}

func newEnv(t *testing.T, writable bool) *env {
	t.Helper()
	s := ghtest.New(t)
	s.AddToken(testToken, writable)
	clock := ghtest.NewClock()
	c, err := NewClient(ClientOptions{Token: testToken, APIURL: s.URL(), Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	return &env{srv: s, c: c, clock: clock, root: root, step: filepath.Join(root, "step-summary.md"), out: &bytes.Buffer{}}
}

func (e *env) input(rep *report.JSONReport) Input {
	return Input{
		Owner: testOwner, Repo: testRepo, Number: testPR, HeadSHA: testSHA,
		Report: rep, FailOn: checks.Warning,
		CheckRun: true, Review: true,
		ToolVersion: "test", Root: e.root, StepSummary: e.step, Stdout: e.out,
		Now: e.clock.Now,
	}
}

// makeReport encodes findings with report.JSON, as interleave pr -format
// json does, and decodes the envelope.
func makeReport(t *testing.T, fs ...checks.Finding) *report.JSONReport {
	t.Helper()
	var b bytes.Buffer
	if err := (report.JSON{}).Write(&b, &report.Report{Findings: fs, ToolVersion: "test"}); err != nil {
		t.Fatal(err)
	}
	var r report.JSONReport
	if err := json.Unmarshal(b.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func static(line int, snippet string, sev checks.Severity) checks.Finding {
	return checks.Finding{Rule: "IL1001", Severity: sev, Message: "field c.n written without holding c.mu",
		Pos: checks.Position{File: "pkg/counter.go", Line: line, Column: 2}, Evidence: checks.Static,
		Package: "example.com/pkg", Func: "Inc", Snippet: snippet}
}

func deadlock(schedule string) checks.Finding {
	return checks.Finding{Rule: checks.DynamicRuleID(checks.Deadlock), Severity: checks.Error,
		Message: "all goroutines are blocked", Pos: checks.Position{File: "pkg/counter.go", Line: 43, EndLine: 44},
		Evidence: checks.Dynamic, Package: "example.com/pkg", Func: "Wait", Snippet: "c.ch <- 1",
		Kind: checks.Deadlock, Test: "TestWait", Schedule: schedule,
		Goroutines: []checks.Goroutine{
			{ID: "g0", State: "chan send", Site: "pkg/counter.go:44", Stack: []checks.Frame{{Func: "example.com/pkg.(*Counter).Wait", File: "pkg/counter.go", Line: 44}}},
			{ID: "g1", State: "sync.Mutex.Lock", Site: "pkg/counter.go:43"},
		}}
}

func run(t *testing.T, e *env, in Input) *Result {
	t.Helper()
	res, err := Publish(context.Background(), e.c, in)
	if err != nil {
		t.Fatalf("Publish: %v", err)
	}
	return res
}

// requests returns the logged requests with method and path suffix.
func requests(s *ghtest.Server, method, suffix string) []ghtest.Request {
	var out []ghtest.Request
	for _, r := range s.Requests() {
		if r.Method == method && strings.HasSuffix(r.Path, suffix) {
			out = append(out, r)
		}
	}
	return out
}

func TestPublishFreshPullRequest(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv)
	schedule := ".interleave/schedules/TestWait-1.json"
	os.MkdirAll(filepath.Join(e.root, ".interleave/schedules"), 0o755)
	os.WriteFile(filepath.Join(e.root, schedule), []byte(`{"version":1,"decisions":[0,1,1]}`), 0o644)
	rep := makeReport(t,
		static(13, "c.n++", checks.Warning),
		deadlock(schedule),
		static(100, "x.y = 1", checks.Note), // outside the diff
	)
	in := e.input(rep)
	in.Summary = "## interleave\n\nthree findings\n"
	res := run(t, e, in)

	runs := e.srv.CheckRuns(testOwner, testRepo)
	if len(runs) != 1 {
		t.Fatalf("got %d check runs, want 1", len(runs))
	}
	cr := runs[0]
	if cr.GetName() != CheckRunName || cr.GetHeadSHA() != testSHA || cr.GetStatus() != "completed" || cr.GetConclusion() != "failure" {
		t.Errorf("check run: name %q sha %q status %q conclusion %q, want interleave %s completed failure", cr.GetName(), cr.GetHeadSHA(), cr.GetStatus(), cr.GetConclusion(), testSHA)
	}
	anns := e.srv.CheckRunAnnotations(testOwner, testRepo, cr.GetID())
	if len(anns) != 3 {
		t.Fatalf("got %d annotations, want 3", len(anns))
	}
	levels := map[string]int{}
	for _, a := range anns {
		levels[a.GetAnnotationLevel()]++
	}
	if levels["failure"] != 1 || levels["warning"] != 1 || levels["notice"] != 1 {
		t.Errorf("annotation levels %v, want one each of failure, warning, notice", levels)
	}
	create := requests(e.srv, "POST", "/check-runs")
	if len(create) != 1 || !bytes.Contains(create[0].Body, []byte(`"identifier":"search-10m"`)) {
		t.Errorf("check run create requests %d, want 1 carrying the %s action", len(create), ActionSearchMore)
	}

	reviews := e.srv.Reviews(testOwner, testRepo, testPR)
	if len(reviews) != 1 || reviews[0].GetState() != "COMMENTED" || reviews[0].GetCommitID() != testSHA {
		t.Fatalf("reviews %+v, want one COMMENTED on %s", reviews, testSHA)
	}
	if !strings.Contains(reviews[0].GetBody(), "Not on a line of this diff") || !strings.Contains(reviews[0].GetBody(), "pkg/counter.go:100") {
		t.Errorf("review body does not list the finding outside the diff:\n%s", reviews[0].GetBody())
	}
	comments := e.srv.ReviewComments(testOwner, testRepo, testPR)
	if len(comments) != 2 || res.Comments != 2 || res.OutsideDiff != 1 {
		t.Fatalf("got %d comments (result %d, outside %d), want 2 and 1 outside", len(comments), res.Comments, res.OutsideDiff)
	}
	for _, c := range comments {
		if c.Position != nil || c.OriginalPosition != nil {
			t.Errorf("comment on %s used position", c.GetPath())
		}
		if c.GetSide() != "RIGHT" {
			t.Errorf("comment side %q, want RIGHT", c.GetSide())
		}
		if _, ok := markedFingerprint(c.GetBody()); !ok {
			t.Errorf("comment has no fingerprint marker:\n%s", c.GetBody())
		}
	}
	var dyn *gh.PullRequestComment
	for _, c := range comments {
		if c.GetLine() == 44 {
			dyn = c
		}
	}
	if dyn == nil || dyn.GetStartLine() != 43 || dyn.GetStartSide() != "RIGHT" {
		t.Fatalf("want the deadlock as a range comment 43-44, got %+v", dyn)
	}
	for _, want := range []string{"deadlock", "`TestWait`", "`g0`", "`g1`", "<details><summary>Schedule", `"decisions":[0,1,1]`, "interleave replay " + schedule} {
		if !strings.Contains(dyn.GetBody(), want) {
			t.Errorf("dynamic comment lacks %q:\n%s", want, dyn.GetBody())
		}
	}
	for _, r := range requests(e.srv, "POST", "/reviews") {
		if bytes.Contains(r.Body, []byte(`"position"`)) {
			t.Errorf("review request sent position: %s", r.Body)
		}
	}

	ics := e.srv.IssueComments(testOwner, testRepo, testPR)
	if len(ics) != 1 || !strings.HasPrefix(ics[0].GetBody(), summaryMarker) || !strings.Contains(ics[0].GetBody(), "three findings") {
		t.Fatalf("want one sticky summary comment, got %d", len(ics))
	}
	step, err := os.ReadFile(e.step)
	if err != nil || !strings.Contains(string(step), "three findings") || !res.StepSummary {
		t.Errorf("job summary: %v, %q", err, step)
	}
	if res.Fallback || e.out.Len() != 0 {
		t.Errorf("fallback used with a writable token: %q", e.out)
	}
}

func TestPublishSecondPush(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv)
	kept, gone, stays := static(15, "c.k++", checks.Warning), static(14, "c.m++", checks.Warning), static(13, "c.n++", checks.Warning)
	in := e.input(makeReport(t, stays, gone, kept))
	in.Summary = "first push"
	run(t, e, in)
	first := e.srv.ReviewComments(testOwner, testRepo, testPR)
	if len(first) != 3 {
		t.Fatalf("first push: %d comments, want 3", len(first))
	}
	// A person replies to the comment on line 15.
	for _, c := range first {
		if c.GetLine() == 15 {
			e.srv.SeedReviewComment(testOwner, testRepo, testPR, gh.PullRequestComment{InReplyTo: c.ID, Body: gh.String("good catch, fixing")})
		}
	}

	fresh := deadlock("")
	in = e.input(makeReport(t, stays, fresh))
	in.Summary = "second push"
	res := run(t, e, in)
	if res.Duplicates != 1 || res.Deleted != 1 || res.KeptOutdated != 1 || res.Comments != 1 || !res.SummaryEdited {
		t.Errorf("result %+v, want 1 duplicate, 1 deleted, 1 kept, 1 new comment, summary edited", res)
	}
	byLine := map[int]int{}
	for _, c := range e.srv.ReviewComments(testOwner, testRepo, testPR) {
		if c.InReplyTo == nil {
			byLine[c.GetLine()]++
		}
	}
	if byLine[13] != 1 || byLine[14] != 0 || byLine[15] != 1 || byLine[44] != 1 {
		t.Errorf("top-level comments by line %v, want 13:1 14:0 15:1 44:1", byLine)
	}
	ics := e.srv.IssueComments(testOwner, testRepo, testPR)
	if len(ics) != 1 || !strings.Contains(ics[0].GetBody(), "second push") {
		t.Errorf("want the one summary comment edited to the second push, got %d comments", len(ics))
	}
	if n := len(requests(e.srv, "POST", fmt.Sprintf("/issues/%d/comments", testPR))); n != 1 {
		t.Errorf("summary comment created %d times, want 1", n)
	}
	if n := len(requests(e.srv, "PATCH", "")); n < 1 {
		t.Errorf("summary comment never edited")
	}
}

// bigPatch adds lines 1..n to a new file.
func bigPatch(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "@@ -0,0 +1,%d @@\n", n)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "+line %d\n", i)
	}
	return b.String()
}

func TestPublishManyFindings(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv, ghtest.File{Filename: "big.go", Status: "added", Patch: bigPatch(150)})
	var fs []checks.Finding
	for i := 1; i <= 120; i++ {
		f := static(i, fmt.Sprintf("v%d++", i), checks.Warning)
		f.Pos.File = "big.go"
		fs = append(fs, f)
	}
	in := e.input(makeReport(t, fs...))
	in.Summary = strings.Repeat("a long summary line\n", 5000) // 100,000 bytes
	res := run(t, e, in)

	if res.Annotations != 120 {
		t.Errorf("annotations %d, want 120", res.Annotations)
	}
	var chunks []int
	for _, r := range e.srv.Requests() {
		if strings.Contains(r.Path, "/check-runs") && (r.Method == "POST" || r.Method == "PATCH") {
			var body struct {
				Output struct {
					Summary     string            `json:"summary"`
					Annotations []json.RawMessage `json:"annotations"`
				} `json:"output"`
			}
			json.Unmarshal(r.Body, &body)
			chunks = append(chunks, len(body.Output.Annotations))
			if n := len([]rune(body.Output.Summary)); n > maxCheckRunText || !strings.Contains(body.Output.Summary, "summary truncated") {
				t.Errorf("check run summary has %d characters, want at most %d with a truncation note", n, maxCheckRunText)
			}
		}
	}
	if fmt.Sprint(chunks) != "[50 50 20]" {
		t.Errorf("annotation chunks %v, want [50 50 20]", chunks)
	}
	if got := len(e.srv.CheckRunAnnotations(testOwner, testRepo, res.CheckRunID)); got != 120 {
		t.Errorf("server holds %d annotations, want 120", got)
	}
	if res.Comments != maxReviewComments || res.Folded != 90 {
		t.Errorf("comments %d folded %d, want %d and 90", res.Comments, res.Folded, maxReviewComments)
	}
	reviews := e.srv.Reviews(testOwner, testRepo, testPR)
	if len(reviews) != 1 || !strings.Contains(reviews[0].GetBody(), "(90)") || !strings.Contains(reviews[0].GetBody(), "big.go:120") {
		t.Errorf("review body does not fold the 90 other findings")
	}
	ics := e.srv.IssueComments(testOwner, testRepo, testPR)
	if len(ics) != 1 || !strings.Contains(ics[0].GetBody(), "summary truncated") {
		t.Errorf("summary comment is not cut with a note")
	}
}

func TestPublishOutsideDiff(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv,
		ghtest.File{Filename: "pkg/counter.go", Patch: counterPatch},
		ghtest.File{Filename: "pkg/huge.go"}, // GitHub sent no patch
	)
	far := static(30, "x := y", checks.Warning) // between the hunks
	noPatch := static(5, "h := 1", checks.Error)
	noPatch.Pos.File = "pkg/huge.go"
	res := run(t, e, e.input(makeReport(t, far, noPatch)))

	if res.OutsideDiff != 2 || res.Comments != 0 {
		t.Errorf("outside %d comments %d, want 2 and 0", res.OutsideDiff, res.Comments)
	}
	if n := len(e.srv.Reviews(testOwner, testRepo, testPR)); n != 0 {
		t.Errorf("%d reviews posted with nothing to comment, want 0", n)
	}
	ics := e.srv.IssueComments(testOwner, testRepo, testPR)
	if len(ics) != 1 || !strings.Contains(ics[0].GetBody(), "pkg/counter.go:30") || !strings.Contains(ics[0].GetBody(), "pkg/huge.go:5") {
		t.Fatalf("summary comment does not list both findings")
	}
	if !strings.Contains(ics[0].GetBody(), "pkg/huge.go: GitHub sent no patch") {
		t.Errorf("summary does not say the file had no patch:\n%s", ics[0].GetBody())
	}
	if len(requests(e.srv, "GET", fmt.Sprintf("/pulls/%d", testPR))) != 1 {
		t.Errorf("the whole diff was not fetched for the file without a patch")
	}
}

func TestPublishDiffTooLarge(t *testing.T) {
	e := newEnv(t, true)
	e.srv.AddPull(ghtest.Pull{Owner: testOwner, Repo: testRepo, Number: testPR, HeadSHA: testSHA, BaseSHA: strings.Repeat("b", 40),
		TooLarge: true, Files: []ghtest.File{{Filename: "pkg/counter.go", Patch: counterPatch}, {Filename: "pkg/huge.go"}}})
	inDiff := static(13, "c.n++", checks.Warning)
	noPatch := static(5, "h := 1", checks.Error)
	noPatch.Pos.File = "pkg/huge.go"
	res, err := Publish(context.Background(), e.c, e.input(makeReport(t, inDiff, noPatch)))
	if err != nil {
		t.Fatal(err)
	}
	if res.Comments != 1 || res.OutsideDiff != 1 {
		t.Errorf("comments %d outside %d, want 1 and 1", res.Comments, res.OutsideDiff)
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "too large") {
		t.Errorf("notes %q do not mention the 406", res.Notes)
	}
}

func TestPublishForkReadOnlyToken(t *testing.T) {
	e := newEnv(t, false)
	addCounterPull(e.srv)
	odd := static(13, "c.n++", checks.Warning)
	odd.Message = "50% of writes\nlack the lock"
	in := e.input(makeReport(t, odd, deadlock("sched/a,b.json")))
	in.UploadSARIF = true
	in.SARIF = []byte(`{"version":"2.1.0","runs":[]}`)
	res, err := Publish(context.Background(), e.c, in)
	if err != nil {
		t.Fatalf("Publish with a read-only token: %v", err)
	}
	if !res.Fallback || res.WorkflowCommands != 2 {
		t.Errorf("fallback %v with %d commands, want true and 2", res.Fallback, res.WorkflowCommands)
	}
	out := e.out.String()
	for _, want := range []string{
		"::error file=pkg/counter.go,line=43,endLine=44,title=IL9003 deadlock::all goroutines are blocked%0Areplay: interleave replay sched/a,b.json\n",
		"::warning file=pkg/counter.go,line=13,col=2,title=IL1001::50%25 of writes%0Alack the lock\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if n := len(e.srv.CheckRuns(testOwner, testRepo)) + len(e.srv.Reviews(testOwner, testRepo, testPR)) + len(e.srv.IssueComments(testOwner, testRepo, testPR)); n != 0 {
		t.Errorf("%d objects created with a read-only token", n)
	}
	if b, err := os.ReadFile(e.step); err != nil || !strings.Contains(string(b), "workflow commands") {
		t.Errorf("job summary missing or without the note: %v %q", err, b)
	}
}

func TestPublishWithoutToken(t *testing.T) {
	e := newEnv(t, true)
	var fs []checks.Finding
	for i := 1; i <= 12; i++ {
		fs = append(fs, static(i, fmt.Sprint(i), checks.Error))
	}
	in := e.input(makeReport(t, fs...))
	res, err := Publish(context.Background(), nil, in)
	if err != nil || !res.Fallback || !res.StepSummary {
		t.Fatalf("Publish without a client: %v, %+v", err, res)
	}
	if !strings.Contains(e.out.String(), "GitHub shows only 10 per level") {
		t.Errorf("stdout does not warn about the 10-per-level cap:\n%s", e.out)
	}
	if len(e.srv.Requests()) != 0 {
		t.Errorf("requests sent without a client")
	}
}

func TestPublishReviewRejected(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv)
	e.srv.Fail(ghtest.ValidationFailed("POST", fmt.Sprintf("/pulls/%d/reviews$", testPR), "Pull request review thread line must be part of the diff"))
	a, b, c := static(13, "c.n++", checks.Error), static(14, "c.m++", checks.Warning), static(15, "c.k++", checks.Warning)
	res := run(t, e, e.input(makeReport(t, a, b, c)))
	if len(res.Dropped) != 1 || res.Comments != 2 {
		t.Fatalf("dropped %v, comments %d; want 1 dropped and 2 posted", res.Dropped, res.Comments)
	}
	reviews := e.srv.Reviews(testOwner, testRepo, testPR)
	if len(reviews) != 1 {
		t.Fatalf("got %d reviews, want 1", len(reviews))
	}
	if !strings.Contains(reviews[0].GetBody(), "GitHub rejected these as comments") || !strings.Contains(reviews[0].GetBody(), "pkg/counter.go:13") {
		t.Errorf("review body does not list the rejected comment:\n%s", reviews[0].GetBody())
	}
	if n := len(e.srv.ReviewComments(testOwner, testRepo, testPR)); n != 2 {
		t.Errorf("%d comments on the server, want 2", n)
	}
}

func TestPublishSecondaryRateLimit(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv)
	e.srv.Fail(ghtest.SecondaryRateLimit("POST", "/check-runs$", 42*time.Second))
	res := run(t, e, e.input(makeReport(t, static(13, "c.n++", checks.Warning))))
	if res.CheckRunID == 0 || len(e.srv.CheckRuns(testOwner, testRepo)) != 1 {
		t.Fatalf("check run not created after the rate limit")
	}
	posts := requests(e.srv, "POST", "/check-runs")
	if len(posts) != 2 || posts[0].Status != 403 || posts[1].Status != 201 {
		t.Errorf("check run POSTs %d, want a 403 then a 201", len(posts))
	}
	waited := false
	for _, d := range e.clock.Slept() {
		waited = waited || d == 42*time.Second
	}
	if !waited {
		t.Errorf("slept %v, want a wait of 42s", e.clock.Slept())
	}
}

func TestPublishRateLimitGivesUp(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv)
	f := ghtest.SecondaryRateLimit("POST", "/check-runs$", time.Second)
	f.Times = 0 // forever
	e.srv.Fail(f)
	in := e.input(makeReport(t, static(13, "c.n++", checks.Warning)))
	in.Review = false
	_, err := Publish(context.Background(), e.c, in)
	if err == nil || !strings.Contains(err.Error(), "check run") {
		t.Fatalf("Publish under a permanent rate limit: err %v, want a check run error", err)
	}
	if n := len(requests(e.srv, "POST", "/check-runs")); n != defaultMaxRetries+1 {
		t.Errorf("%d attempts, want %d", n, defaultMaxRetries+1)
	}
}

func TestPublishEnterpriseServer(t *testing.T) {
	s := ghtest.New(t)
	s.AddToken(testToken, true)
	addCounterPull(s)
	getenv := func(k string) string {
		return map[string]string{"GITHUB_API_URL": s.URL(), "GITHUB_SERVER_URL": "https://ghe.example.com"}[k]
	}
	opts := ClientOptionsFromEnv(testToken, getenv)
	opts.Clock = ghtest.NewClock()
	c, err := NewClient(opts)
	if err != nil {
		t.Fatal(err)
	}
	if c.UploadURL.String() != "https://ghe.example.com/api/uploads/" {
		t.Errorf("upload URL %s, want the server's /api/uploads/", c.UploadURL)
	}
	in := Input{Owner: testOwner, Repo: testRepo, Number: testPR, HeadSHA: testSHA, Report: makeReport(t, static(13, "c.n++", checks.Note)),
		FailOn: checks.Warning, CheckRun: true, Stdout: &bytes.Buffer{}}
	res, err := Publish(context.Background(), c, in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Conclusion != "neutral" || len(s.CheckRuns(testOwner, testRepo)) != 1 {
		t.Errorf("conclusion %q with %d runs, want neutral and 1", res.Conclusion, len(s.CheckRuns(testOwner, testRepo)))
	}
}

func TestPublishSARIF(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv)
	var sarif bytes.Buffer
	fs := []checks.Finding{static(13, "c.n++", checks.Warning)}
	if err := (report.SARIF{}).Write(&sarif, &report.Report{Findings: fs}); err != nil {
		t.Fatal(err)
	}
	in := e.input(makeReport(t, fs...))
	in.CheckRun, in.Review, in.UploadSARIF, in.SARIF = false, false, true, sarif.Bytes()
	res := run(t, e, in)
	ups := e.srv.SARIFUploads(testOwner, testRepo)
	if res.SARIFID == "" || len(ups) != 1 || !bytes.Equal(ups[0], sarif.Bytes()) {
		t.Fatalf("SARIF id %q, %d uploads; want the file uploaded once", res.SARIFID, len(ups))
	}
	posts := requests(e.srv, "POST", "/code-scanning/sarifs")
	if len(posts) != 1 || !bytes.Contains(posts[0].Body, []byte(`"ref":"refs/pull/7/head"`)) || !bytes.Contains(posts[0].Body, []byte(testSHA)) {
		t.Errorf("upload request lacks the pull ref or commit: %.300s", posts[0].Body)
	}
}

func TestPublishRejectsUnsafeReport(t *testing.T) {
	for _, file := range []string{"../etc/passwd", "/etc/passwd", "a/../../b", `a\b`} {
		rep := makeReport(t, static(1, "x", checks.Warning))
		rep.Findings[0].Pos.File = file
		if _, err := Publish(context.Background(), nil, Input{Report: rep, Stdout: &bytes.Buffer{}}); err == nil {
			t.Errorf("file %q accepted", file)
		}
	}
	rep := makeReport(t)
	rep.Version = report.JSONVersion + 1
	if _, err := Publish(context.Background(), nil, Input{Report: rep}); err == nil || !strings.Contains(err.Error(), "version") {
		t.Errorf("future envelope version: err %v", err)
	}
}

func TestPublishPrimaryRateLimit(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv)
	h := http.Header{}
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-RateLimit-Limit", "5000")
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset", strconv.FormatInt(e.clock.Now().Add(90*time.Second).Unix(), 10))
	e.srv.Fail(ghtest.Fault{Method: "GET", Path: "/pulls/7/files$", Times: 1, Status: 403, Header: h,
		Body: `{"message":"API rate limit exceeded for installation ID 1.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"}`})
	in := e.input(makeReport(t, static(13, "c.n++", checks.Warning)))
	in.CheckRun = false
	res := run(t, e, in)
	if res.Comments != 1 {
		t.Errorf("comments %d after waiting for the reset, want 1", res.Comments)
	}
	if got := e.clock.Total(); got < 90*time.Second || got > 2*time.Minute {
		t.Errorf("waited %v in all, want the 90s until the reset (plus pacing)", got)
	}
}

func TestPublishCancelledWhileWaiting(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv)
	e.srv.Fail(ghtest.SecondaryRateLimit("POST", "/check-runs$", 5*time.Minute))
	c, err := NewClient(ClientOptions{Token: testToken, APIURL: e.srv.URL()}) // the real clock
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	in := e.input(makeReport(t, static(13, "c.n++", checks.Warning)))
	in.Review = false
	start := time.Now()
	_, err = Publish(ctx, c, in)
	if err == nil || time.Since(start) > 10*time.Second {
		t.Errorf("Publish returned %v after %v, want a context error promptly", err, time.Since(start))
	}
}

func TestPublishNoFindings(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv)
	in := e.input(makeReport(t))
	in.Summary = "## interleave\n\nNo concurrency findings. cc @octocat\n"
	res := run(t, e, in)
	if res.Conclusion != "success" || res.ReviewID != 0 || res.SummaryCommentID == 0 {
		t.Errorf("result %+v, want success, no review, a summary comment", res)
	}
	ics := e.srv.IssueComments(testOwner, testRepo, testPR)
	if len(ics) != 1 || strings.Contains(ics[0].GetBody(), "@octocat") || !strings.Contains(ics[0].GetBody(), "@\u200boctocat") {
		t.Errorf("summary comment mentions someone: %q", ics[0].GetBody())
	}
}

func TestPublishSARIFRefusedAlone(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv)
	h := http.Header{}
	h.Set("Content-Type", "application/json; charset=utf-8")
	e.srv.Fail(ghtest.Fault{Method: "POST", Path: "/code-scanning/sarifs$", Times: 1, Status: 403, Header: h,
		Body: `{"message":"Advanced Security must be enabled for this repository to use code scanning.","documentation_url":"https://docs.github.com/rest"}`})
	in := e.input(makeReport(t, static(13, "c.n++", checks.Warning)))
	in.CheckRun, in.UploadSARIF, in.SARIF = false, true, []byte(`{"version":"2.1.0","runs":[]}`)
	res := run(t, e, in)
	if res.Fallback || res.Comments != 1 {
		t.Errorf("fallback %v comments %d, want no fallback when only the SARIF upload is refused", res.Fallback, res.Comments)
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "SARIF upload was not posted: 403 Advanced Security") {
		t.Errorf("notes %q do not explain the refused upload", res.Notes)
	}
}

func TestPublishRetriesGatewayErrorOnReads(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv)
	e.srv.Fail(ghtest.Fault{Method: "GET", Path: "/pulls/7/files$", Times: 2, Status: 502, Body: `{"message":"Server Error"}`})
	in := e.input(makeReport(t, static(13, "c.n++", checks.Warning)))
	in.CheckRun = false
	if res := run(t, e, in); res.Comments != 1 {
		t.Errorf("comments %d after two 502s, want 1", res.Comments)
	}
}

func TestPublishCheckRunCompletedAfterFailedUpdate(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv, ghtest.File{Filename: "big.go", Status: "added", Patch: bigPatch(150)})
	var fs []checks.Finding
	for i := 1; i <= 120; i++ {
		f := static(i, fmt.Sprintf("v%d++", i), checks.Warning)
		f.Pos.File = "big.go"
		fs = append(fs, f)
	}
	e.srv.Fail(ghtest.Fault{Method: "PATCH", Path: "/check-runs/", Times: 1, Status: 500, Body: `{"message":"Server Error"}`})
	in := e.input(makeReport(t, fs...))
	in.Review = false
	_, err := Publish(context.Background(), e.c, in)
	if err == nil || !strings.Contains(err.Error(), "after 50 annotations") {
		t.Fatalf("err %v, want the failed update reported", err)
	}
	runs := e.srv.CheckRuns(testOwner, testRepo)
	if len(runs) != 1 || runs[0].GetStatus() != "completed" || runs[0].GetConclusion() != "failure" {
		t.Errorf("check run left %s/%s, want completed/failure", runs[0].GetStatus(), runs[0].GetConclusion())
	}
}

// TestPublishAttemptTimeout: a request GitHub never answers is cut off by
// the per-attempt timeout. A hung read is retried; a hung write is not (it
// may have been done), its step fails, and the other steps are posted.
func TestPublishAttemptTimeout(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv)
	// The attempt timeout also bounds the requests that are answered: 2 s
	// leaves a loaded machine room to answer them.
	c, err := NewClient(ClientOptions{Token: testToken, APIURL: e.srv.URL(), Clock: e.clock, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	e.srv.Fail(ghtest.Fault{Method: "GET", Path: "/pulls/7/comments$", Times: 1, Delay: time.Minute})
	e.srv.Fail(ghtest.Fault{Method: "POST", Path: "/check-runs$", Times: 1, Delay: time.Minute})
	start := time.Now()
	res, err := Publish(context.Background(), c, e.input(makeReport(t, static(13, "c.n++", checks.Warning))))
	if took := time.Since(start); took > 50*time.Second {
		t.Errorf("Publish took %v with a 2s attempt timeout; the faults delay a minute", took)
	}
	if err == nil || !strings.Contains(err.Error(), "create check run") || !strings.Contains(err.Error(), "no response within 2s") {
		t.Fatalf("err %v, want the check run's attempt timeout", err)
	}
	// The server logs an abandoned request once it notices; wait for that.
	statuses := func(method, suffix string, want int) []int {
		var got []int
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			got = nil
			for _, r := range requests(e.srv, method, suffix) {
				got = append(got, r.Status)
			}
			if len(got) >= want || time.Now().After(deadline) {
				sort.Ints(got)
				return got
			}
		}
	}
	if got := statuses("POST", "/check-runs", 1); fmt.Sprint(got) != "[499]" || len(e.srv.CheckRuns(testOwner, testRepo)) != 0 {
		t.Errorf("check run POST statuses %v, stored %d; want one abandoned attempt and no retry", got, len(e.srv.CheckRuns(testOwner, testRepo)))
	}
	if got := statuses("GET", "/pulls/7/comments", 2); fmt.Sprint(got) != "[200 499]" {
		t.Errorf("review comment listing statuses %v, want a timed-out attempt and a 200", got)
	}
	if res.Comments != 1 || res.SummaryCommentID == 0 {
		t.Errorf("result %+v, want the review and summary posted despite the check run", res)
	}
	waited := false
	for _, d := range e.clock.Slept() {
		waited = waited || d == time.Second
	}
	if !waited {
		t.Errorf("slept %v, want a 1s wait before repeating the read", e.clock.Slept())
	}
}

// TestPublishReportNotesInCheckRun: with no summary of the caller's (the
// App posts from the report alone), the report's notes, such as a host the
// job's network policy refused, are in the check run's text, escaped.
func TestPublishReportNotesInCheckRun(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv)
	rep := makeReport(t, static(13, "c.n++", checks.Warning))
	rep.Notes = []string{"network: the job's connection to evil.example:443 was refused <b>", "TestSlow: not searched: its unperturbed run did not finish"}
	in := e.input(rep)
	run(t, e, in)
	runs := e.srv.CheckRuns(testOwner, testRepo)
	if len(runs) != 1 {
		t.Fatalf("got %d check runs, want 1", len(runs))
	}
	text := runs[0].GetOutput().GetSummary()
	for _, want := range []string{"Notes (2)", "evil.example:443 was refused &lt;b&gt;", "TestSlow: not searched"} {
		if !strings.Contains(text, want) {
			t.Errorf("check run summary lacks %q:\n%s", want, text)
		}
	}
}
