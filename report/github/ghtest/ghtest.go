// Package ghtest is an in-process fake of the parts of the GitHub REST API
// that interleave uses. Every request and every response is validated
// against GitHub's official OpenAPI description (trimmed copy in
// testdata/openapi.json); a request that does not match fails the test.
//
// State is kept in memory: check runs, reviews, review and issue comments,
// reactions, SARIF uploads. Tests seed pulls, permissions and tokens, inject
// faults, and inspect the request log and the state afterwards.
package ghtest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"
)

// Server is a fake GitHub API server bound to one test.
type Server struct {
	t   testing.TB
	srv *httptest.Server

	mu    sync.Mutex
	state *state
}

// Pull is a pull request the server knows about. Review comments must lie
// inside the hunks of its files' patches.
type Pull struct {
	Owner, Repo string
	Number      int
	State       string // open|closed; default open
	HeadSHA     string
	BaseSHA     string
	HeadRef     string // default "feature"
	BaseRef     string // default "main"
	Fork        bool   // head repo is "<Owner>-fork/<Repo>"; check runs list no pull_requests for it
	Files       []File // GET .../files pages through these; an empty Patch is sent as no patch
	TooLarge    bool   // GET as diff answers 406 too_large
}

// File is one changed file of a pull request.
type File struct {
	Filename string
	Status   string // added|removed|modified|renamed|...
	Patch    string // unified hunks as in the API's patch field
}

// Fault makes the next Times requests matching Method and Path fail with
// Status, Header and Body instead of being served. Times <= 0 means forever.
// Delay holds the response back that long first; with Status 0 the request
// is then served as usual. A client that gives up during the delay gets
// nothing: its request is not served and is logged with status 499.
type Fault struct {
	Method string // empty matches any method
	Path   string // regexp on the URL path, e.g. "/check-runs$"
	Times  int
	Status int // 0: serve the request (after Delay)
	Header http.Header
	Body   string
	Delay  time.Duration
}

// StatusClientGone is the logged status of a request whose client gave up
// during a Fault's Delay (nginx's "client closed request").
const StatusClientGone = 499

// Request is one entry of the request log, for every request served,
// refused or faulted. At is when the response was written.
type Request struct {
	Method   string
	Path     string
	RawQuery string
	Body     []byte
	Status   int
	At       time.Time
}

// New starts a fake GitHub API server; t.Cleanup closes it.
func New(t testing.TB) *Server {
	t.Helper()
	if _, err := loadSpec(); err != nil {
		t.Fatalf("%v", err)
	}
	s := &Server{t: t, state: newState()}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	t.Cleanup(s.srv.Close)
	return s
}

// URL is the API base URL, ending in "/". Use it as a go-github client's
// BaseURL, or with WithEnterpriseURLs: paths under /api/v3/ are served too.
func (s *Server) URL() string { return s.srv.URL + "/" }

// Client returns a go-github client against this server that authenticates
// with token.
func (s *Server) Client(token string) *github.Client {
	c, err := github.NewClient(s.srv.Client()).WithAuthToken(token).WithEnterpriseURLs(s.URL(), s.URL())
	if err != nil {
		s.t.Fatalf("ghtest: client: %v", err)
	}
	// WithEnterpriseURLs appends "api/v3/"; this server serves at the root.
	c.BaseURL = mustParseURL(s.URL())
	c.UploadURL = mustParseURL(s.URL())
	return c
}

// SecondaryRateLimit is a fault answering 403 with Retry-After and GitHub's
// secondary rate limit message.
func SecondaryRateLimit(method, path string, retryAfter time.Duration) Fault {
	secs := int(retryAfter / time.Second)
	if retryAfter > 0 && secs == 0 {
		secs = 1
	}
	h := http.Header{}
	h.Set("Retry-After", itoa(secs))
	h.Set("Content-Type", "application/json; charset=utf-8")
	return Fault{
		Method: method, Path: path, Times: 1, Status: http.StatusForbidden, Header: h,
		Body: `{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`,
	}
}

// ValidationFailed is a fault answering 422 in GitHub's "Validation Failed"
// error shape with message as the error's message.
func ValidationFailed(method, path, message string) Fault {
	h := http.Header{}
	h.Set("Content-Type", "application/json; charset=utf-8")
	return Fault{
		Method: method, Path: path, Times: 1, Status: http.StatusUnprocessableEntity, Header: h,
		Body: mustJSON(validationError("", "", message)),
	}
}

// Payload returns a real webhook example body from testdata/webhooks, e.g.
// Payload(t, "issue_comment", "created").
func Payload(t testing.TB, event, action string) []byte {
	t.Helper()
	name := event + ".json"
	if action != "" {
		name = event + "." + action + ".json"
	}
	b, err := os.ReadFile(filepath.Join(testdataDir(), "webhooks", name))
	if err != nil {
		t.Fatalf("ghtest: payload %s/%s: %v", event, action, err)
	}
	return b
}

// EditPayload returns Payload(t, event, action) with fields replaced: each
// key of set is a dotted path into the JSON object, made where missing.
func EditPayload(t testing.TB, event, action string, set map[string]any) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(Payload(t, event, action), &m); err != nil {
		t.Fatalf("ghtest: payload %s/%s: %v", event, action, err)
	}
	for path, v := range set {
		parts := strings.Split(path, ".")
		obj := m
		for _, p := range parts[:len(parts)-1] {
			next, ok := obj[p].(map[string]any)
			if !ok {
				next = map[string]any{}
				obj[p] = next
			}
			obj = next
		}
		obj[parts[len(parts)-1]] = v
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatalf("ghtest: payload %s/%s: %v", event, action, err)
	}
	return b
}

// Sign returns the X-Hub-Signature-256 value ("sha256=<hex>") of body.
func Sign(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// testdataDir is this package's testdata directory, found from the source
// file so that tests of other packages can use it.
func testdataDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata")
}
