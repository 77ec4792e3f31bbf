package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	gh "github.com/google/go-github/v60/github"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/report"
	"github.com/interleave-dev/interleave/report/github/ghtest"
)

const testKey = "job-42"

// writes returns the logged requests that change something.
func writes(reqs []ghtest.Request) []string {
	var out []string
	for _, r := range reqs {
		if r.Method != http.MethodGet {
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out
}

// manyOnBig is a pull request adding big.go and n findings on its lines.
func manyOnBig(t *testing.T, e *env, n int) *report.JSONReport {
	t.Helper()
	addCounterPull(e.srv, ghtest.File{Filename: "big.go", Status: "added", Patch: bigPatch(150)})
	var fs []checks.Finding
	for i := 1; i <= n; i++ {
		f := static(i, fmt.Sprintf("v%d++", i), checks.Warning)
		f.Pos.File = "big.go"
		fs = append(fs, f)
	}
	return makeReport(t, fs...)
}

func TestPublishTwiceWithSameKeyPostsOnce(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv)
	in := e.input(makeReport(t, static(13, "c.n++", checks.Warning), deadlock("")))
	in.ExternalID = testKey
	first := run(t, e, in)
	if first.AlreadyPosted || first.Resumed || first.CheckRunID == 0 || first.Conclusion != "failure" || first.Comments != 2 || first.SummaryCommentID == 0 {
		t.Fatalf("first post %+v, want a check run, 2 comments and a summary", first)
	}
	runs := e.srv.CheckRuns(testOwner, testRepo)
	if len(runs) != 1 || runs[0].GetExternalID() != testKey || runs[0].GetStatus() != "completed" {
		t.Fatalf("check runs %v, want one completed carrying the key", runs)
	}
	// Under a key the run is completed last, after the review and summary.
	w := writes(e.srv.Requests())
	if last := w[len(w)-1]; !strings.HasPrefix(last, "PATCH") || !strings.Contains(last, "/check-runs/") {
		t.Errorf("last write %q, want the check run's completion; writes %v", last, w)
	}
	reviews := e.srv.Reviews(testOwner, testRepo, testPR)
	if len(reviews) != 1 || !strings.HasSuffix(reviews[0].GetBody(), runMarker(testKey)) {
		t.Fatalf("reviews %v, want one ending in the run marker", reviews)
	}

	before := len(e.srv.Requests())
	second := run(t, e, in)
	after := e.srv.Requests()[before:]
	if w := writes(after); len(w) != 0 {
		t.Errorf("second post with the same key wrote %v, want nothing", w)
	}
	if !second.AlreadyPosted || second.CheckRunID != first.CheckRunID || second.Conclusion != "failure" {
		t.Errorf("second post %+v, want already posted by check run %d", second, first.CheckRunID)
	}
	if len(after) != 1 || !strings.HasSuffix(after[0].Path, "/commits/"+testSHA+"/check-runs") ||
		!strings.Contains(after[0].RawQuery, "check_name=interleave") || !strings.Contains(after[0].RawQuery, "filter=all") {
		t.Errorf("second post requests %v, want one lookup of the commit's interleave check runs", after)
	}

	// Another key is another post: the findings are already commented,
	// so it adds a check run and edits nothing else.
	in.ExternalID = "job-43"
	third := run(t, e, in)
	if third.AlreadyPosted || third.Duplicates != 2 || third.Comments != 0 || len(e.srv.CheckRuns(testOwner, testRepo)) != 2 {
		t.Errorf("post under a new key %+v, want a new check run and 2 duplicates", third)
	}
}

func TestPublishKeyNeedsCheckRun(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv)
	in := e.input(makeReport(t, static(13, "c.n++", checks.Warning)))
	in.ExternalID, in.CheckRun = testKey, false
	if _, err := Publish(context.Background(), e.c, in); err == nil || !strings.Contains(err.Error(), "needs the check run") {
		t.Errorf("err %v, want the key to need the check run", err)
	}
	in.CheckRun, in.ExternalID = true, "job --> <b>"
	if _, err := Publish(context.Background(), e.c, in); err == nil || !strings.Contains(err.Error(), "external id") {
		t.Errorf("err %v, want the malformed key refused", err)
	}
	if n := len(e.srv.Requests()); n != 0 {
		t.Errorf("%d requests sent for bad input", n)
	}
}

func TestPublishLookupFailureStopsPosting(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv)
	e.srv.Fail(ghtest.Fault{Method: "GET", Path: "/check-runs$", Status: 500, Body: `{"message":"Server Error"}`})
	in := e.input(makeReport(t, static(13, "c.n++", checks.Warning)))
	in.ExternalID = testKey
	_, err := Publish(context.Background(), e.c, in)
	if err == nil || !strings.Contains(err.Error(), "list check runs") {
		t.Fatalf("err %v, want the failed lookup", err)
	}
	if w := writes(e.srv.Requests()); len(w) != 0 {
		t.Errorf("posted %v without knowing whether it was posted before", w)
	}
}

// crashingTransport cancels the post's context once a request matching
// crashAt has succeeded, as if the process died right after it: every
// later request fails before reaching the server.
type crashingTransport struct {
	base    http.RoundTripper
	crashAt func(*http.Request) bool
	cancel  context.CancelFunc
	mu      sync.Mutex
	crashed bool
}

func (c *crashingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	crashed := c.crashed
	c.mu.Unlock()
	if crashed {
		return nil, errors.New("crashed")
	}
	resp, err := c.base.RoundTrip(r)
	if err == nil && resp.StatusCode < 300 && c.crashAt(r) {
		c.mu.Lock()
		c.crashed = true
		c.mu.Unlock()
		c.cancel()
	}
	return resp, err
}

// crashPublish runs Publish until the request matching crashAt succeeded.
func crashPublish(t *testing.T, e *env, in Input, crashAt func(*http.Request) bool) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr := &crashingTransport{base: http.DefaultTransport, crashAt: crashAt, cancel: cancel}
	c, err := NewClient(ClientOptions{Token: testToken, APIURL: e.srv.URL(), Clock: e.clock, Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Publish(ctx, c, in); err == nil {
		t.Fatal("Publish after the crash point succeeded; the test crashed nothing")
	}
	if !tr.crashed {
		t.Fatal("the crash point was never reached")
	}
}

func TestPublishResumesAfterCrash(t *testing.T) {
	for _, tc := range []struct {
		name    string
		crashAt func(*http.Request) bool
		resent  int // annotations the rerun sends
	}{
		{"after the first annotation update", func(r *http.Request) bool {
			return r.Method == http.MethodPatch && strings.Contains(r.URL.Path, "/check-runs/")
		}, 20},
		{"after the review", func(r *http.Request) bool {
			return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/reviews")
		}, 0},
		{"after the summary comment", func(r *http.Request) bool {
			return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/comments")
		}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, true)
			in := e.input(manyOnBig(t, e, 120))
			in.ExternalID = testKey
			crashPublish(t, e, in, tc.crashAt)
			runs := e.srv.CheckRuns(testOwner, testRepo)
			if len(runs) != 1 || runs[0].GetStatus() != "in_progress" || runs[0].GetExternalID() != testKey {
				t.Fatalf("after the crash: check runs %v, want one in progress with the key", runs)
			}
			reviewsBefore := len(e.srv.Reviews(testOwner, testRepo, testPR))
			commentsBefore := len(e.srv.ReviewComments(testOwner, testRepo, testPR))
			summariesBefore := len(e.srv.IssueComments(testOwner, testRepo, testPR))
			before := len(e.srv.Requests())

			res := run(t, e, in)
			if !res.Resumed || res.AlreadyPosted || res.CheckRunID != runs[0].GetID() || res.Annotations != 120 || res.Conclusion != "failure" {
				t.Errorf("rerun %+v, want check run %d resumed to 120 annotations", res, runs[0].GetID())
			}
			runs = e.srv.CheckRuns(testOwner, testRepo)
			if len(runs) != 1 || runs[0].GetStatus() != "completed" || runs[0].GetConclusion() != "failure" {
				t.Fatalf("after the rerun: check runs %v, want the one run completed", runs)
			}
			anns := e.srv.CheckRunAnnotations(testOwner, testRepo, runs[0].GetID())
			seen := map[int]bool{}
			for _, a := range anns {
				if seen[a.GetStartLine()] {
					t.Errorf("annotation on line %d sent twice", a.GetStartLine())
				}
				seen[a.GetStartLine()] = true
			}
			if len(anns) != 120 {
				t.Errorf("%d annotations, want 120", len(anns))
			}
			resent := 0
			for _, r := range e.srv.Requests()[before:] {
				resent += strings.Count(string(r.Body), `"annotation_level"`)
			}
			if resent != tc.resent {
				t.Errorf("rerun sent %d annotations, want %d", resent, tc.resent)
			}
			reviews := e.srv.Reviews(testOwner, testRepo, testPR)
			if len(reviews) != 1 || (reviewsBefore == 1 && res.ReviewID != reviews[0].GetID()) {
				t.Errorf("%d reviews (review %d), want the one review", len(reviews), res.ReviewID)
			}
			if reviewsBefore == 1 {
				// The result is the first run's: its review and comments.
				if n := len(e.srv.ReviewComments(testOwner, testRepo, testPR)); n != commentsBefore || res.Comments != commentsBefore || res.Folded != 90 {
					t.Errorf("review comments %d -> %d (result: %d comments, %d folded), want none added and the first run's counts", commentsBefore, n, res.Comments, res.Folded)
				}
			}
			if ics := e.srv.IssueComments(testOwner, testRepo, testPR); len(ics) != 1 {
				t.Errorf("%d summary comments (%d before the rerun), want 1", len(ics), summariesBefore)
			}
			if summariesBefore == 1 {
				// Everything but the completion was posted: the rerun
				// only completes the run.
				if w := writes(e.srv.Requests()[before:]); len(w) != 1 || !strings.HasPrefix(w[0], "PATCH") || !strings.Contains(w[0], "/check-runs/") {
					t.Errorf("rerun wrote %v, want only the check run's completion", w)
				}
			}
			// And a third run posts nothing.
			before = len(e.srv.Requests())
			if res := run(t, e, in); !res.AlreadyPosted {
				t.Errorf("third run %+v, want already posted", res)
			}
			if w := writes(e.srv.Requests()[before:]); len(w) != 0 {
				t.Errorf("third run wrote %v", w)
			}
		})
	}
}

// TestPublishResumeSkipsPostedReview: a review some of whose comments
// GitHub rejected was posted before the crash; the rejected findings have
// no marked comment, yet the rerun must not post a second review for them.
func TestPublishResumeSkipsPostedReview(t *testing.T) {
	e := newEnv(t, true)
	addCounterPull(e.srv)
	in := e.input(makeReport(t, static(13, "c.n++", checks.Warning), static(14, "c.m++", checks.Warning)))
	in.ExternalID = testKey
	e.srv.Fail(ghtest.ValidationFailed("POST", "/reviews$", "Line could not be resolved"))
	crashPublish(t, e, in, func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/reviews")
	})
	if n := len(e.srv.Reviews(testOwner, testRepo, testPR)); n != 1 {
		t.Fatalf("%d reviews before the rerun, want 1", n)
	}
	commentsBefore := len(e.srv.ReviewComments(testOwner, testRepo, testPR))
	if commentsBefore != 1 {
		t.Fatalf("%d review comments before the rerun, want 1 (one left out)", commentsBefore)
	}
	res := run(t, e, in)
	if n := len(e.srv.Reviews(testOwner, testRepo, testPR)); n != 1 || !res.Resumed {
		t.Errorf("%d reviews after the rerun (result %+v), want the one review", n, res)
	}
	if res.Comments != 1 || len(res.Dropped) != 1 || !strings.HasPrefix(res.Dropped[0], "pkg/counter.go:13 ") {
		t.Errorf("result: %d comments, dropped %q; want the first run's 1 comment and line 13 dropped", res.Comments, res.Dropped)
	}
	if n := len(e.srv.ReviewComments(testOwner, testRepo, testPR)); n != commentsBefore {
		t.Errorf("review comments %d -> %d, want none added", commentsBefore, n)
	}
	if len(requests(e.srv, "GET", "/reviews")) != 1 {
		t.Errorf("reviews were not looked up on resume")
	}
}

func human(login string) *gh.User {
	return &gh.User{Login: gh.String(login), ID: gh.Int64(7), Type: gh.String("User")}
}

func bot(login string) *gh.User {
	return &gh.User{Login: gh.String(login), ID: gh.Int64(8), Type: gh.String("Bot")}
}

// TestHumanSummaryMarkerIsNeverEdited: a person's comment starting with
// the summary marker is not the sticky summary. With the check run posted
// first, our login is known and another bot's copy is not ours either;
// without it, the author's type alone tells.
func TestHumanSummaryMarkerIsNeverEdited(t *testing.T) {
	for _, checkRun := range []bool{true, false} {
		t.Run(fmt.Sprintf("check run %v", checkRun), func(t *testing.T) {
			e := newEnv(t, true)
			addCounterPull(e.srv)
			quote := summaryMarker + "\nI copied interleave's comment here to discuss it."
			humanID := e.srv.SeedIssueComment(testOwner, testRepo, testPR, gh.IssueComment{User: human("alice"), Body: gh.String(quote)})
			seeded := []int64{humanID}
			otherBot := summaryMarker + "\nanother bot quoting us"
			if checkRun {
				seeded = append(seeded, e.srv.SeedIssueComment(testOwner, testRepo, testPR, gh.IssueComment{User: bot("other-app[bot]"), Body: gh.String(otherBot)}))
			}

			in := e.input(makeReport(t)) // no findings: no review teaches our login
			in.CheckRun = checkRun
			in.Summary = "first"
			res := run(t, e, in)
			for _, id := range seeded {
				if res.SummaryCommentID == id || res.SummaryEdited {
					t.Errorf("summary %d (edited %v) is a comment interleave did not write", res.SummaryCommentID, res.SummaryEdited)
				}
			}
			in.Summary = "second"
			res2 := run(t, e, in)
			if res2.SummaryCommentID != res.SummaryCommentID || !res2.SummaryEdited {
				t.Errorf("second run summary %d edited %v, want its own %d edited", res2.SummaryCommentID, res2.SummaryEdited, res.SummaryCommentID)
			}
			bodies := map[int64]string{}
			for _, c := range e.srv.IssueComments(testOwner, testRepo, testPR) {
				bodies[c.GetID()] = c.GetBody()
			}
			if len(bodies) != len(seeded)+1 || bodies[humanID] != quote || (checkRun && bodies[seeded[1]] != otherBot) || !strings.Contains(bodies[res.SummaryCommentID], "second") {
				t.Errorf("comments %v, want the seeded ones untouched and ours edited", bodies)
			}
			for _, r := range requests(e.srv, "PATCH", "") {
				for _, id := range seeded {
					if strings.HasSuffix(r.Path, fmt.Sprintf("/comments/%d", id)) {
						t.Errorf("edited %s", r.Path)
					}
				}
			}
		})
	}
}

// TestHumanReviewCommentWithMarkerIsNeverDeleted: a person's review comment
// ending in a fingerprint marker is neither deleted as outdated nor taken
// for interleave's comment on that finding.
func TestHumanReviewCommentWithMarkerIsNeverDeleted(t *testing.T) {
	for _, checkRun := range []bool{true, false} {
		t.Run(fmt.Sprintf("check run %v", checkRun), func(t *testing.T) {
			e := newEnv(t, true)
			addCounterPull(e.srv)
			rep := makeReport(t, static(13, "c.n++", checks.Warning))
			line := func(n int) *int { return &n }
			seed := func(u *gh.User, l int, body string) int64 {
				return e.srv.SeedReviewComment(testOwner, testRepo, testPR, gh.PullRequestComment{User: u, Path: gh.String("pkg/counter.go"), Line: line(l), Side: gh.String("RIGHT"), Body: gh.String(body)})
			}
			goneBody := "old bot text, pasted\n" + fingerprintMarker("gone0fingerprint")
			seeded := []int64{
				seed(human("alice"), 14, goneBody), // a finding that is gone
				seed(human("alice"), 13, "is this right?\n"+fingerprintMarker(fingerprintOf(&rep.Findings[0]))), // the current one
			}
			if checkRun {
				seeded = append(seeded, seed(bot("other-app[bot]"), 15, goneBody))
			}
			in := e.input(rep)
			in.CheckRun = checkRun
			res := run(t, e, in)
			if res.Deleted != 0 || len(requests(e.srv, "DELETE", "")) != 0 {
				t.Errorf("deleted %d comments; none is interleave's", res.Deleted)
			}
			if res.Duplicates != 0 || res.Comments != 1 {
				t.Errorf("result %+v: a person's marker must not stand in for interleave's comment", res)
			}

			// With no findings left and no review to post, our login may
			// be unknown: still only our own comment goes.
			in = e.input(makeReport(t))
			in.CheckRun = checkRun
			if res = run(t, e, in); res.Deleted != 1 {
				t.Errorf("next push deleted %d, want our 1 comment", res.Deleted)
			}
			ids := map[int64]bool{}
			for _, c := range e.srv.ReviewComments(testOwner, testRepo, testPR) {
				ids[c.GetID()] = true
			}
			for _, id := range seeded {
				if !ids[id] {
					t.Errorf("seeded comment %d was deleted", id)
				}
			}
			if len(ids) != len(seeded) {
				t.Errorf("%d review comments left, want the %d seeded", len(ids), len(seeded))
			}
		})
	}
}
