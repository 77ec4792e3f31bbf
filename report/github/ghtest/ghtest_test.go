package ghtest

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bradleyfalzon/ghinstallation/v2"
	"github.com/golang-jwt/jwt/v4"
	"github.com/google/go-github/v60/github"
)

// recordingTB captures Errorf/Fatalf so tests can assert that the server
// reports a violation, without failing themselves.
type recordingTB struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recordingTB) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.TB.FailNow()
}

func (r *recordingTB) reported(sub string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.errs {
		if strings.Contains(e, sub) {
			return true
		}
	}
	return false
}

func (r *recordingTB) errors() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errs...)
}

var ctx = context.Background()

const (
	owner = "acme"
	repo  = "widgets"
	head  = "1111111111111111111111111111111111111111"
	base  = "2222222222222222222222222222222222222222"
)

// patch has one hunk covering new lines 10-15 (old 10-14).
const patch = `@@ -10,5 +10,6 @@ func run() {
 	a := 1
 	b := 2
-	c := 3
+	c := 4
+	d := 5
 	e := 6
 	f := 7`

func newServer(t testing.TB) (*Server, *github.Client) {
	s := New(t)
	s.AddToken("rw", true)
	s.AddPull(Pull{Owner: owner, Repo: repo, Number: 7, HeadSHA: head, BaseSHA: base,
		Files: []File{{Filename: "run.go", Patch: patch}, {Filename: "img.png", Status: "added"}}})
	return s, s.Client("rw")
}

func annotations(n int, level string) []*github.CheckRunAnnotation {
	var out []*github.CheckRunAnnotation
	for i := 0; i < n; i++ {
		out = append(out, &github.CheckRunAnnotation{
			Path: github.String("run.go"), StartLine: github.Int(i + 1), EndLine: github.Int(i + 1),
			AnnotationLevel: github.String(level), Message: github.String(fmt.Sprintf("finding %d", i)),
		})
	}
	return out
}

func TestSpecLoads(t *testing.T) {
	took, err := SpecLoadTime()
	if err != nil {
		t.Fatal(err)
	}
	sp, _ := loadSpec()
	if n := sp.doc.Paths.Len(); n != 15 {
		t.Errorf("spec has %d paths, want 15", n)
	}
	t.Logf("spec load + router build: %v", took)
}

func TestCheckRunLifecycle(t *testing.T) {
	s, gh := newServer(t)
	run, _, err := gh.Checks.CreateCheckRun(ctx, owner, repo, github.CreateCheckRunOptions{
		Name: "interleave", HeadSHA: head, Status: github.String("in_progress"),
		Output: &github.CheckRunOutput{Title: github.String("running"), Summary: github.String("…"), Annotations: annotations(50, "warning")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if run.GetStatus() != "in_progress" || run.GetOutput().GetAnnotationsCount() != 50 || len(run.PullRequests) != 1 {
		t.Errorf("created run = %v", run)
	}
	_, _, err = gh.Checks.UpdateCheckRun(ctx, owner, repo, run.GetID(), github.UpdateCheckRunOptions{
		Name: "interleave", Conclusion: github.String("failure"),
		Output: &github.CheckRunOutput{Title: github.String("2 findings"), Summary: github.String("done"), Annotations: annotations(3, "failure")},
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := gh.Checks.GetCheckRun(ctx, owner, repo, run.GetID())
	if err != nil {
		t.Fatal(err)
	}
	if got.GetStatus() != "completed" || got.GetConclusion() != "failure" || got.GetOutput().GetTitle() != "2 findings" ||
		got.GetOutput().GetAnnotationsCount() != 53 || got.CompletedAt == nil {
		t.Errorf("updated run = %v", got)
	}
	if n := len(s.CheckRunAnnotations(owner, repo, run.GetID())); n != 53 {
		t.Errorf("stored %d annotations, want 53", n)
	}
	if runs := s.CheckRuns(owner, repo); len(runs) != 1 || runs[0].GetName() != "interleave" {
		t.Errorf("CheckRuns = %v", runs)
	}
	// A completed status needs a conclusion.
	_, resp, err := gh.Checks.CreateCheckRun(ctx, owner, repo, github.CreateCheckRunOptions{Name: "x", HeadSHA: head, Status: github.String("completed")})
	if err == nil || resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("completed without conclusion: err = %v", err)
	}
}

func TestSpecViolationsFailTheTest(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  github.CreateCheckRunOptions
		want string
	}{
		{"51 annotations", github.CreateCheckRunOptions{Name: "x", HeadSHA: head,
			Output: &github.CheckRunOutput{Title: github.String("t"), Summary: github.String("s"), Annotations: annotations(51, "warning")}},
			"maximum number of items is 50"},
		{"level error", github.CreateCheckRunOptions{Name: "x", HeadSHA: head,
			Output: &github.CheckRunOutput{Title: github.String("t"), Summary: github.String("s"), Annotations: annotations(1, "error")}},
			"annotation_level"},
		{"no summary", github.CreateCheckRunOptions{Name: "x", HeadSHA: head,
			Output: &github.CheckRunOutput{Title: github.String("t")}},
			"summary"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recordingTB{TB: t}
			s, gh := newServer(rec)
			_, resp, err := gh.Checks.CreateCheckRun(ctx, owner, repo, tc.opt)
			if err == nil || resp.StatusCode != http.StatusUnprocessableEntity {
				t.Errorf("err = %v, want a 422", err)
			}
			if !rec.reported(tc.want) {
				t.Errorf("server reported %q, want a violation mentioning %q", rec.errors(), tc.want)
			}
			if len(s.CheckRuns(owner, repo)) != 0 {
				t.Error("invalid check run was stored")
			}
		})
	}
	t.Run("unknown operation", func(t *testing.T) {
		rec := &recordingTB{TB: t}
		_, gh := newServer(rec)
		_, resp, err := gh.Repositories.Get(ctx, owner, repo)
		if err == nil || resp.StatusCode != http.StatusNotFound {
			t.Errorf("err = %v, want a 404", err)
		}
		if !rec.reported("no operation GET /repos/acme/widgets") {
			t.Errorf("server reported %q", rec.errors())
		}
	})
}

func TestResponsesAreValidated(t *testing.T) {
	sp, err := loadSpec()
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", "http://127.0.0.1/repos/acme/widgets/check-runs/5", nil)
	in, err := sp.validateRequest(req, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{"Content-Type": {"application/json"}}
	if err := sp.validateResponse(in, 200, h, []byte(`{"id":5}`)); err == nil || !strings.Contains(err.Error(), "head_sha") {
		t.Errorf("incomplete check run accepted: %v", err)
	}
	full, _ := json.Marshal(fill(responseSchema(in, 200), map[string]any{"id": 5, "status": "completed", "conclusion": "success"}))
	if err := sp.validateResponse(in, 200, h, full); err != nil {
		t.Errorf("filled check run rejected: %v", err)
	}
	bad, _ := json.Marshal(fill(responseSchema(in, 200), map[string]any{"id": 5, "status": "done"}))
	if err := sp.validateResponse(in, 200, h, bad); err == nil {
		t.Error("check run with status \"done\" accepted")
	}
}

func TestConcurrentRequests(t *testing.T) {
	s, gh := newServer(t)
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := gh.Issues.CreateComment(ctx, owner, repo, 7, &github.IssueComment{Body: github.String(fmt.Sprint(i))}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := len(s.IssueComments(owner, repo, 7)); n != 20 {
		t.Errorf("%d comments, want 20", n)
	}
	if n := len(s.Requests()); n != 20 {
		t.Errorf("%d requests logged, want 20", n)
	}
}

func TestEnterpriseBaseURL(t *testing.T) {
	s, _ := newServer(t)
	gh, err := github.NewClient(nil).WithAuthToken("rw").WithEnterpriseURLs(s.URL(), s.URL())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := gh.PullRequests.Get(ctx, owner, repo, 7); err != nil {
		t.Fatal(err)
	}
	if reqs := s.Requests(); reqs[0].Path != "/repos/acme/widgets/pulls/7" {
		t.Errorf("logged path %q", reqs[0].Path)
	}
}

func TestReviewCommentOutsideHunkFailsWholeReview(t *testing.T) {
	s, gh := newServer(t)
	inside := &github.DraftReviewComment{Path: github.String("run.go"), Line: github.Int(12), Side: github.String("RIGHT"), Body: github.String("ok")}
	outside := &github.DraftReviewComment{Path: github.String("run.go"), Line: github.Int(40), Side: github.String("RIGHT"), Body: github.String("bad")}
	_, resp, err := gh.PullRequests.CreateReview(ctx, owner, repo, 7, &github.PullRequestReviewRequest{
		CommitID: github.String(head), Event: github.String("COMMENT"), Body: github.String("review"),
		Comments: []*github.DraftReviewComment{inside, outside},
	})
	var ghErr *github.ErrorResponse
	if !errors.As(err, &ghErr) || resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("err = %v, want a 422", err)
	}
	if !strings.Contains(fmt.Sprint(ghErr.Errors), "Pull request review thread line must be part of the diff") &&
		!strings.Contains(err.Error(), "Pull request review thread line must be part of the diff") {
		t.Errorf("422 body = %v", err)
	}
	if len(s.Reviews(owner, repo, 7)) != 0 || len(s.ReviewComments(owner, repo, 7)) != 0 {
		t.Error("a failed review left state behind")
	}

	// LEFT side line 12 is the removed "c := 3"; a range inside the hunk.
	left := &github.DraftReviewComment{Path: github.String("run.go"), Line: github.Int(12), Side: github.String("LEFT"), Body: github.String("old")}
	ranged := &github.DraftReviewComment{Path: github.String("run.go"), StartLine: github.Int(10), Line: github.Int(13), Side: github.String("RIGHT"), Body: github.String("range")}
	review, _, err := gh.PullRequests.CreateReview(ctx, owner, repo, 7, &github.PullRequestReviewRequest{
		CommitID: github.String(head), Event: github.String("COMMENT"), Comments: []*github.DraftReviewComment{inside, left, ranged},
	})
	if err != nil {
		t.Fatal(err)
	}
	if review.GetState() != "COMMENTED" || review.GetCommitID() != head {
		t.Errorf("review = %v", review)
	}
	comments := s.ReviewComments(owner, repo, 7)
	if len(comments) != 3 {
		t.Fatalf("%d review comments, want 3", len(comments))
	}
	for _, c := range comments {
		if c.Position != nil {
			t.Errorf("comment %d used position", c.GetID())
		}
		if c.GetPullRequestReviewID() != review.GetID() {
			t.Errorf("comment %d not attached to the review", c.GetID())
		}
	}
	if want := "@@ -10,5 +10,6 @@ func run() {\n \ta := 1\n \tb := 2\n-\tc := 3\n+\tc := 4"; comments[0].GetDiffHunk() != want {
		t.Errorf("diff_hunk = %q, want %q", comments[0].GetDiffHunk(), want)
	}

	// A range crossing hunks and a path outside the pull also fail.
	for _, bad := range []*github.DraftReviewComment{
		{Path: github.String("run.go"), StartLine: github.Int(2), Line: github.Int(12), Body: github.String("x")},
		{Path: github.String("other.go"), Line: github.Int(12), Body: github.String("x")},
	} {
		if _, _, err := gh.PullRequests.CreateReview(ctx, owner, repo, 7, &github.PullRequestReviewRequest{
			Event: github.String("COMMENT"), Comments: []*github.DraftReviewComment{bad},
		}); err == nil {
			t.Errorf("comment %v accepted", bad)
		}
	}

	// position is accepted, as by GitHub, and recorded.
	if _, _, err := gh.PullRequests.CreateReview(ctx, owner, repo, 7, &github.PullRequestReviewRequest{
		Event: github.String("COMMENT"), Comments: []*github.DraftReviewComment{{Path: github.String("run.go"), Position: github.Int(3), Body: github.String("p")}},
	}); err != nil {
		t.Fatal(err)
	}
	comments = s.ReviewComments(owner, repo, 7)
	if last := comments[len(comments)-1]; last.GetPosition() != 3 {
		t.Errorf("position not recorded: %v", last)
	}

	// commit_id must be a head the pull had; after a push the old one stays valid.
	stale := strings.Repeat("3", 40)
	if _, _, err := gh.PullRequests.CreateReview(ctx, owner, repo, 7, &github.PullRequestReviewRequest{
		CommitID: github.String(stale), Event: github.String("COMMENT"), Body: github.String("b"),
	}); err == nil || !strings.Contains(err.Error(), "No commit found for SHA") {
		t.Errorf("unknown commit_id: %v", err)
	}
	s.AddPull(Pull{Owner: owner, Repo: repo, Number: 7, HeadSHA: stale, BaseSHA: base, Files: []File{{Filename: "run.go", Patch: patch}}})
	if _, _, err := gh.PullRequests.CreateReview(ctx, owner, repo, 7, &github.PullRequestReviewRequest{
		CommitID: github.String(head), Event: github.String("COMMENT"), Body: github.String("b"),
	}); err != nil {
		t.Errorf("review on the previous head: %v", err)
	}

	// One pending review per user.
	for i, wantErr := range []bool{false, true} {
		_, _, err := gh.PullRequests.CreateReview(ctx, owner, repo, 7, &github.PullRequestReviewRequest{Body: github.String("draft")})
		if (err != nil) != wantErr {
			t.Errorf("pending review %d: err = %v", i, err)
		}
	}
}

func TestReadOnlyToken(t *testing.T) {
	s, _ := newServer(t)
	s.AddToken("ro", false)
	gh := s.Client("ro")
	_, resp, err := gh.Checks.CreateCheckRun(ctx, owner, repo, github.CreateCheckRunOptions{Name: "x", HeadSHA: head})
	if err == nil || resp.StatusCode != http.StatusForbidden || !strings.Contains(err.Error(), "Resource not accessible by integration") {
		t.Fatalf("err = %v, want 403 Resource not accessible by integration", err)
	}
	if got := resp.Header.Get("X-Accepted-Github-Permissions"); got != "checks=write" {
		t.Errorf("x-accepted-github-permissions = %q", got)
	}
	// Reads work.
	if _, _, err := gh.PullRequests.Get(ctx, owner, repo, 7); err != nil {
		t.Errorf("read with read-only token: %v", err)
	}
	for _, token := range []string{"", "nope"} {
		_, resp, err := s.Client(token).PullRequests.Get(ctx, owner, repo, 7)
		if err == nil || resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("token %q: err = %v, want 401", token, err)
		}
	}
}

func TestFaults(t *testing.T) {
	s, gh := newServer(t)
	s.Fail(SecondaryRateLimit("POST", `/issues/7/comments$`, time.Second))
	_, _, err := gh.Issues.CreateComment(ctx, owner, repo, 7, &github.IssueComment{Body: github.String("hi")})
	var abuse *github.AbuseRateLimitError
	if !errors.As(err, &abuse) || abuse.GetRetryAfter() != time.Second {
		t.Fatalf("err = %#v, want an AbuseRateLimitError with Retry-After 1s", err)
	}
	// Times: 1 — the next call goes through. go-github itself refuses
	// calls until Retry-After has passed, so use a fresh client.
	gh = s.Client("rw")
	if _, _, err := gh.Issues.CreateComment(ctx, owner, repo, 7, &github.IssueComment{Body: github.String("hi")}); err != nil {
		t.Fatal(err)
	}
	s.Fail(ValidationFailed("PATCH", `/issues/comments/\d+$`, "Body is too long"))
	_, resp, err := gh.Issues.EditComment(ctx, owner, repo, s.IssueComments(owner, repo, 7)[0].GetID(), &github.IssueComment{Body: github.String("x")})
	var ghErr *github.ErrorResponse
	if !errors.As(err, &ghErr) || resp.StatusCode != 422 || ghErr.Message != "Validation Failed" || len(ghErr.Errors) != 1 || ghErr.Errors[0].Message != "Body is too long" {
		t.Errorf("err = %v, want 422 Validation Failed", err)
	}
	s.Fail(Fault{Path: "/pulls/7$", Times: 2, Status: 502, Body: "bad gateway"})
	for i, want := range []int{502, 502, 200} {
		_, resp, _ := gh.PullRequests.Get(ctx, owner, repo, 7)
		if resp.StatusCode != want {
			t.Errorf("call %d: status %d, want %d", i, resp.StatusCode, want)
		}
	}
	reqs := s.Requests()
	if last := reqs[len(reqs)-1]; last.Method != "GET" || last.Path != "/repos/acme/widgets/pulls/7" || last.Status != 200 {
		t.Errorf("last request = %+v", last)
	}
	if first := reqs[0]; first.Status != 403 || !strings.Contains(string(first.Body), `"hi"`) {
		t.Errorf("first request = %+v", first)
	}
}

func TestPagination(t *testing.T) {
	s, gh := newServer(t)
	var files []File
	for i := 0; i < 75; i++ {
		files = append(files, File{Filename: fmt.Sprintf("f%02d.go", i), Patch: "@@ -1 +1 @@\n-a\n+b"})
	}
	s.AddPull(Pull{Owner: owner, Repo: repo, Number: 8, HeadSHA: head, Files: files})
	var got []string
	opt := &github.ListOptions{PerPage: 30}
	pages := 0
	for {
		page, resp, err := gh.PullRequests.ListFiles(ctx, owner, repo, 8, opt)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, f := range page {
			got = append(got, f.GetFilename())
			if f.GetAdditions() != 1 || f.GetDeletions() != 1 || f.GetPatch() == "" {
				t.Errorf("file %v", f)
			}
		}
		if pages == 1 && resp.LastPage != 3 {
			t.Errorf("LastPage = %d, want 3 (Link: %s)", resp.LastPage, resp.Header.Get("Link"))
		}
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	if pages != 3 || len(got) != 75 || got[74] != "f74.go" {
		t.Errorf("%d pages, %d files", pages, len(got))
	}
	// Default page size is 30; binary files have no patch.
	page, _, err := gh.PullRequests.ListFiles(ctx, owner, repo, 7, nil)
	if err != nil || len(page) != 2 || page[1].Patch != nil {
		t.Errorf("files of #7 = %v, %v", page, err)
	}
}

func TestDiffAndTooLarge(t *testing.T) {
	s, gh := newServer(t)
	diff, _, err := gh.PullRequests.GetRaw(ctx, owner, repo, 7, github.RawOptions{Type: github.Diff})
	if err != nil {
		t.Fatal(err)
	}
	want := "diff --git a/run.go b/run.go\n--- a/run.go\n+++ b/run.go\n" + patch + "\n" +
		"diff --git a/img.png b/img.png\nnew file mode 100644\nBinary files /dev/null and b/img.png differ\n"
	if diff != want {
		t.Errorf("diff =\n%s\nwant\n%s", diff, want)
	}
	s.AddPull(Pull{Owner: owner, Repo: repo, Number: 9, HeadSHA: head, TooLarge: true})
	_, resp, err := gh.PullRequests.GetRaw(ctx, owner, repo, 9, github.RawOptions{Type: github.Diff})
	var ghErr *github.ErrorResponse
	if !errors.As(err, &ghErr) || resp.StatusCode != http.StatusNotAcceptable || len(ghErr.Errors) != 1 || ghErr.Errors[0].Code != "too_large" {
		t.Errorf("err = %v, want 406 too_large", err)
	}
	pr, _, err := gh.PullRequests.Get(ctx, owner, repo, 7)
	if err != nil || pr.GetHead().GetSHA() != head || pr.GetChangedFiles() != 2 || pr.GetState() != "open" {
		t.Errorf("pull = %v, %v", pr, err)
	}
	if _, resp, _ := gh.PullRequests.Get(ctx, owner, repo, 99); resp.StatusCode != 404 {
		t.Errorf("missing pull: status %d", resp.StatusCode)
	}
	pulls, _, err := gh.PullRequests.ListPullRequestsWithCommit(ctx, owner, repo, head, nil)
	if err != nil || len(pulls) != 2 || pulls[0].GetNumber() != 9 || pulls[1].GetNumber() != 7 {
		t.Errorf("pulls of head = %v, %v", pulls, err)
	}
}

func TestCommentsReactionsPermissions(t *testing.T) {
	s, gh := newServer(t)
	human := s.SeedReviewComment(owner, repo, 7, github.PullRequestComment{Path: github.String("run.go"), Line: github.Int(12), Body: github.String("why?")})
	reply := s.SeedReviewComment(owner, repo, 7, github.PullRequestComment{InReplyTo: github.Int64(human), Body: github.String("because")})
	list, _, err := gh.PullRequests.ListComments(ctx, owner, repo, 7, nil)
	if err != nil || len(list) != 2 || list[1].GetInReplyTo() != human || list[1].GetPath() != "run.go" {
		t.Fatalf("review comments = %v, %v", list, err)
	}
	if list[0].GetDiffHunk() == "" || list[0].GetCommitID() != head {
		t.Errorf("seeded comment lacks diff_hunk or commit_id: %v", list[0])
	}
	if _, err := gh.PullRequests.DeleteComment(ctx, owner, repo, reply); err != nil {
		t.Fatal(err)
	}
	if _, err := gh.PullRequests.DeleteComment(ctx, owner, repo, reply); err == nil {
		t.Error("deleting twice succeeded")
	}
	if n := len(s.ReviewComments(owner, repo, 7)); n != 1 {
		t.Errorf("%d review comments after delete", n)
	}

	cmd := s.SeedIssueComment(owner, repo, 7, github.IssueComment{Body: github.String("/retest-concurrency")})
	for i, want := range []int{201, 200} {
		r, resp, err := gh.Reactions.CreateIssueCommentReaction(ctx, owner, repo, cmd, "eyes")
		if err != nil || resp.StatusCode != want || r.GetContent() != "eyes" {
			t.Errorf("reaction %d: status %d, %v", i, resp.StatusCode, err)
		}
	}
	if got := s.Reactions(owner, repo, cmd); len(got) != 1 || got[0] != "eyes" {
		t.Errorf("reactions = %v", got)
	}
	c, _, err := gh.Issues.CreateComment(ctx, owner, repo, 7, &github.IssueComment{Body: github.String("summary v1")})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := gh.Issues.EditComment(ctx, owner, repo, c.GetID(), &github.IssueComment{Body: github.String("summary v2")}); err != nil {
		t.Fatal(err)
	}
	ics, _, err := gh.Issues.ListComments(ctx, owner, repo, 7, nil)
	if err != nil || len(ics) != 2 || ics[1].GetBody() != "summary v2" || ics[1].GetUser().GetType() != "Bot" {
		t.Errorf("issue comments = %v, %v", ics, err)
	}
	if _, resp, _ := gh.Issues.CreateComment(ctx, owner, repo, 7, &github.IssueComment{Body: github.String(strings.Repeat("x", 65537))}); resp.StatusCode != 422 {
		t.Errorf("oversized comment: status %d", resp.StatusCode)
	}

	s.SetPermission(owner, repo, "maint", "maintain")
	s.SetPermission(owner, repo, "tri", "triage")
	s.SetPermission(owner, repo, "boss", "admin")
	for login, want := range map[string]string{"maint": "write", "tri": "read", "boss": "admin", "stranger": "read"} {
		p, _, err := gh.Repositories.GetPermissionLevel(ctx, owner, repo, login)
		if err != nil || p.GetPermission() != want {
			t.Errorf("%s: permission %q, %v; want %q", login, p.GetPermission(), err, want)
		}
	}
}

func TestSARIFUpload(t *testing.T) {
	s, gh := newServer(t)
	doc := []byte(`{"version":"2.1.0","$schema":"https://json.schemastore.org/sarif-2.1.0.json","runs":[]}`)
	encode := func(b []byte) string {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(b)
		zw.Close()
		return base64.StdEncoding.EncodeToString(buf.Bytes())
	}
	id, _, err := gh.CodeScanning.UploadSarif(ctx, owner, repo, &github.SarifAnalysis{
		CommitSHA: github.String(head), Ref: github.String("refs/pull/7/head"), Sarif: github.String(encode(doc)),
	})
	if err != nil || id.GetID() == "" || !strings.HasSuffix(id.GetURL(), "/code-scanning/sarifs/"+id.GetID()) {
		t.Fatalf("upload: %v, %v", id, err)
	}
	if got := s.SARIFUploads(owner, repo); len(got) != 1 || !bytes.Equal(got[0], doc) {
		t.Errorf("uploads = %q", got)
	}
	for _, bad := range []string{"not base64!", encode([]byte(`{"version":"2.0.0","runs":[]}`)), base64.StdEncoding.EncodeToString([]byte("plain"))} {
		_, resp, err := gh.CodeScanning.UploadSarif(ctx, owner, repo, &github.SarifAnalysis{
			CommitSHA: github.String(head), Ref: github.String("refs/pull/7/head"), Sarif: github.String(bad),
		})
		if err == nil || resp.StatusCode != http.StatusBadRequest {
			t.Errorf("bad sarif %.20q: err %v", bad, err)
		}
	}
}

func TestAppTokenExchange(t *testing.T) {
	s, _ := newServer(t)
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	s.AddApp(42, &key.PublicKey, 4242)
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	tr, err := ghinstallation.New(http.DefaultTransport, 42, 4242, pemKey)
	if err != nil {
		t.Fatal(err)
	}
	tr.BaseURL = strings.TrimSuffix(s.URL(), "/")
	gh := github.NewClient(&http.Client{Transport: tr})
	gh.BaseURL = mustParseURL(s.URL())
	c, _, err := gh.Issues.CreateComment(ctx, owner, repo, 7, &github.IssueComment{Body: github.String("from the app")})
	if err != nil {
		t.Fatal(err)
	}
	if c.GetUser().GetLogin() != "app-42[bot]" {
		t.Errorf("comment author %q", c.GetUser().GetLogin())
	}
	// Only the App that created a check run may update it.
	run, _, err := gh.Checks.CreateCheckRun(ctx, owner, repo, github.CreateCheckRunOptions{Name: "app", HeadSHA: head})
	if err != nil || run.GetApp().GetID() != 42 {
		t.Fatalf("app check run: %v, %v", run, err)
	}
	_, resp, err := s.Client("rw").Checks.UpdateCheckRun(ctx, owner, repo, run.GetID(), github.UpdateCheckRunOptions{Name: "app", Status: github.String("in_progress")})
	if err == nil || resp.StatusCode != http.StatusForbidden || !strings.Contains(err.Error(), "can only be modified by the GitHub App that created it") {
		t.Errorf("update by another App: %v", err)
	}

	// A JWT from another key, or for an unknown installation, is refused.
	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	for _, tc := range []struct {
		key          *rsa.PrivateKey
		installation int64
		want         int
	}{{other, 4242, 401}, {key, 999, 404}} {
		jwtTok, _ := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.RegisteredClaims{
			Issuer: "42", IssuedAt: jwt.NewNumericDate(time.Now()), ExpiresAt: jwt.NewNumericDate(time.Now().Add(5 * time.Minute)),
		}).SignedString(tc.key)
		req, _ := http.NewRequest("POST", fmt.Sprintf("%sapp/installations/%d/access_tokens", s.URL(), tc.installation), nil)
		req.Header.Set("Authorization", "Bearer "+jwtTok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("installation %d: status %d, want %d", tc.installation, resp.StatusCode, tc.want)
		}
	}
}

func TestPayloadsParse(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testdataDir(), "webhooks", "*.json"))
	if err != nil || len(files) < 9 {
		t.Fatalf("webhook payloads: %v, %v", files, err)
	}
	for _, f := range files {
		event, action, _ := strings.Cut(strings.TrimSuffix(filepath.Base(f), ".json"), ".")
		body := Payload(t, event, action)
		ev, err := github.ParseWebHook(event, body)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		switch e := ev.(type) {
		case *github.IssueCommentEvent:
			if e.GetAction() != action || !e.GetIssue().IsPullRequest() {
				t.Errorf("%s: action %q, on a pull request: %v", f, e.GetAction(), e.GetIssue().IsPullRequest())
			}
		case *github.PullRequestEvent:
			if e.GetAction() != action || e.GetPullRequest().GetHead().GetSHA() == "" {
				t.Errorf("%s: %v", f, e)
			}
		case *github.CheckRunEvent:
			if e.GetAction() != action || (action == "requested_action" && e.GetRequestedAction().Identifier == "") {
				t.Errorf("%s: %v", f, e)
			}
		case *github.PingEvent:
			if e.GetZen() == "" {
				t.Errorf("%s: %v", f, e)
			}
		default:
			t.Errorf("%s parsed as %T", f, ev)
		}
	}

	// Sign matches go-github's verification.
	secret := []byte("s3cret")
	body := Payload(t, "issue_comment", "created")
	req, _ := http.NewRequest("POST", "/hook", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(github.SHA256SignatureHeader, Sign(secret, body))
	if _, err := github.ValidatePayload(req, secret); err != nil {
		t.Errorf("ValidatePayload: %v", err)
	}
	if _, err := os.Stat(filepath.Join(testdataDir(), "openapi.json")); err != nil {
		t.Error(err)
	}
}

func TestListCheckRunsForRef(t *testing.T) {
	s, gh := newServer(t)
	s.AddToken("app", true)
	create := func(name, key, status string) int64 {
		opt := github.CreateCheckRunOptions{Name: name, HeadSHA: head, ExternalID: github.String(key), Status: github.String(status)}
		if status == "completed" {
			opt.Conclusion = github.String("success")
		}
		run, _, err := gh.Checks.CreateCheckRun(ctx, owner, repo, opt)
		if err != nil {
			t.Fatal(err)
		}
		return run.GetID()
	}
	old := create("interleave", "k1", "completed")
	open := create("interleave", "k2", "in_progress")
	create("lint", "k3", "completed")
	if _, _, err := gh.Checks.CreateCheckRun(ctx, owner, repo, github.CreateCheckRunOptions{Name: "interleave", HeadSHA: base}); err != nil {
		t.Fatal(err)
	}
	list := func(ref string, opt *github.ListCheckRunsOptions) []int64 {
		t.Helper()
		res, _, err := gh.Checks.ListCheckRunsForRef(ctx, owner, repo, ref, opt)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, r := range res.CheckRuns {
			ids = append(ids, r.GetID())
		}
		if res.GetTotal() != len(ids) {
			t.Errorf("total_count %d for %d runs", res.GetTotal(), len(ids))
		}
		return ids
	}
	name := github.String("interleave")
	if got := list(head, &github.ListCheckRunsOptions{CheckName: name, Filter: github.String("all")}); fmt.Sprint(got) != fmt.Sprint([]int64{open, old}) {
		t.Errorf("all interleave runs on head: %v, want [%d %d]", got, open, old)
	}
	if got := list(head, &github.ListCheckRunsOptions{CheckName: name}); fmt.Sprint(got) != fmt.Sprint([]int64{open}) {
		t.Errorf("latest interleave run on head: %v, want [%d]", got, open)
	}
	if got := list(head, &github.ListCheckRunsOptions{Filter: github.String("all"), Status: github.String("completed")}); len(got) != 2 {
		t.Errorf("completed runs on head: %v, want 2", got)
	}
	if got := list("feature", &github.ListCheckRunsOptions{CheckName: name, Filter: github.String("all")}); len(got) != 2 {
		t.Errorf("runs on the pull's head branch: %v, want 2", got)
	}
	if got := list(head, &github.ListCheckRunsOptions{AppID: github.Int64(1), Filter: github.String("all")}); len(got) != 0 {
		t.Errorf("runs of another App: %v, want none", got)
	}
	res, _, err := gh.Checks.ListCheckRunsForRef(ctx, owner, repo, head, &github.ListCheckRunsOptions{CheckName: name, Filter: github.String("all")})
	if err != nil || res.CheckRuns[0].GetExternalID() != "k2" || res.CheckRuns[0].GetApp().GetSlug() != "github-actions" {
		t.Errorf("listed run %v, err %v: want external id k2 and the github-actions App", res.CheckRuns[0], err)
	}
	// The query is validated like everything else.
	rec := &recordingTB{TB: t}
	bad := New(rec)
	bad.AddToken("rw", true)
	bad.Client("rw").Checks.ListCheckRunsForRef(ctx, owner, repo, head, &github.ListCheckRunsOptions{Filter: github.String("newest")})
	if !rec.reported("does not match GitHub's API") {
		t.Errorf("filter=newest was not reported: %v", rec.errors())
	}
}

func TestListReviews(t *testing.T) {
	s, gh := newServer(t)
	for _, body := range []string{"first", "second"} {
		if _, _, err := gh.PullRequests.CreateReview(ctx, owner, repo, 7, &github.PullRequestReviewRequest{Event: github.String("COMMENT"), Body: github.String(body)}); err != nil {
			t.Fatal(err)
		}
	}
	rs, _, err := gh.PullRequests.ListReviews(ctx, owner, repo, 7, &github.ListOptions{PerPage: 1, Page: 2})
	if err != nil || len(rs) != 1 || rs[0].GetBody() != "second" || rs[0].GetUser().GetType() != "Bot" {
		t.Errorf("page 2 of reviews: %v, err %v; want the second, by a bot", rs, err)
	}
	if _, resp, err := gh.PullRequests.ListReviews(ctx, owner, repo, 99, nil); err == nil || resp.StatusCode != 404 {
		t.Errorf("reviews of a missing pull: err %v", err)
	}
	if n := len(s.Reviews(owner, repo, 7)); n != 2 {
		t.Errorf("%d reviews stored, want 2", n)
	}
}

func TestFaultDelay(t *testing.T) {
	s, gh := newServer(t)
	s.Fail(Fault{Method: "GET", Path: "/pulls/7$", Times: 1, Delay: 100 * time.Millisecond})
	start := time.Now()
	if _, _, err := gh.PullRequests.Get(ctx, owner, repo, 7); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < 100*time.Millisecond {
		t.Errorf("delayed request answered in %v", took)
	}
	// A client that gives up during the delay changes nothing.
	s.Fail(Fault{Method: "POST", Path: "/issues/7/comments$", Times: 1, Delay: time.Minute})
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, _, err := gh.Issues.CreateComment(short, owner, repo, 7, &github.IssueComment{Body: github.String("hi")}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err %v, want the deadline", err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		reqs := s.Requests()
		if last := reqs[len(reqs)-1]; last.Method == "POST" {
			if last.Status != StatusClientGone {
				t.Errorf("abandoned request logged with status %d, want %d", last.Status, StatusClientGone)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the abandoned request was never logged")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := len(s.IssueComments(owner, repo, 7)); n != 0 {
		t.Errorf("%d comments stored from an abandoned request", n)
	}
}

// TestEditPayload: a dotted path replaces a field of the example payload,
// or makes it and the objects above it; the rest is the example's.
func TestEditPayload(t *testing.T) {
	b := EditPayload(t, "pull_request", "opened", map[string]any{
		"repository.name": "other",
		"extra.deep.key":  7,
	})
	var got struct {
		Action     string `json:"action"`
		Repository struct {
			Name     string `json:"name"`
			FullName string `json:"full_name"`
		} `json:"repository"`
		Extra struct {
			Deep struct {
				Key int `json:"key"`
			} `json:"deep"`
		} `json:"extra"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Action != "opened" || got.Repository.Name != "other" || got.Repository.FullName == "" || got.Extra.Deep.Key != 7 {
		t.Errorf("edited payload %+v", got)
	}
}
