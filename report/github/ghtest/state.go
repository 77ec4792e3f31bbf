package ghtest

import (
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
)

type repoKey struct{ owner, repo string }

type pullKey struct {
	owner, repo string
	number      int
}

func rk(owner, repo string) repoKey { return repoKey{strings.ToLower(owner), strings.ToLower(repo)} }

func pk(owner, repo string, number int) pullKey {
	return pullKey{strings.ToLower(owner), strings.ToLower(repo), number}
}

// checkRun is a stored check run with its accumulated annotations.
type checkRun struct {
	run         *github.CheckRun
	annotations []*github.CheckRunAnnotation
	actions     []*github.CheckRunAction
}

// reviewComment is a stored pull request review comment and its pull.
type reviewComment struct {
	pull    pullKey
	comment *github.PullRequestComment
}

// issueComment is a stored issue comment and its issue.
type issueComment struct {
	issue   pullKey
	comment *github.IssueComment
}

type app struct {
	key           *rsa.PublicKey
	installations map[int64]bool
}

type fault struct {
	Fault
	path *regexp.Regexp
	left int // remaining uses; <0 means forever
}

type state struct {
	nextID         int64
	pulls          map[pullKey]*Pull
	perms          map[repoKey]map[string]string
	tokens         map[string]bool             // token -> writable
	tokenApps      map[string]int64            // installation token -> App ID
	pullSHAs       map[pullKey]map[string]bool // every head SHA a pull had
	apps           map[int64]*app
	checkRuns      map[repoKey][]*checkRun
	reviews        map[pullKey][]*github.PullRequestReview
	reviewComments map[repoKey][]*reviewComment
	issueComments  map[repoKey][]*issueComment
	reactions      map[repoKey]map[int64][]string
	sarifs         map[repoKey][][]byte
	faults         []*fault
	log            []Request
}

func newState() *state {
	return &state{
		nextID:         1000,
		pulls:          map[pullKey]*Pull{},
		perms:          map[repoKey]map[string]string{},
		tokens:         map[string]bool{},
		tokenApps:      map[string]int64{},
		pullSHAs:       map[pullKey]map[string]bool{},
		apps:           map[int64]*app{},
		checkRuns:      map[repoKey][]*checkRun{},
		reviews:        map[pullKey][]*github.PullRequestReview{},
		reviewComments: map[repoKey][]*reviewComment{},
		issueComments:  map[repoKey][]*issueComment{},
		reactions:      map[repoKey]map[int64][]string{},
		sarifs:         map[repoKey][][]byte{},
	}
}

func (st *state) newID() int64 {
	st.nextID++
	return st.nextID
}

// AddPull seeds a pull request, or replaces it (a push): reviews may then
// name any head SHA the pull had as commit_id. Empty State means "open";
// empty file Status means "modified".
func (s *Server) AddPull(p Pull) {
	if p.State == "" {
		p.State = "open"
	}
	if p.HeadRef == "" {
		p.HeadRef = "feature"
	}
	if p.BaseRef == "" {
		p.BaseRef = "main"
	}
	p.Files = append([]File(nil), p.Files...)
	for i := range p.Files {
		if p.Files[i].Status == "" {
			p.Files[i].Status = "modified"
		}
		if _, err := parseHunks(p.Files[i].Patch); err != nil {
			s.t.Fatalf("ghtest: AddPull %s/%s#%d: file %s: %v", p.Owner, p.Repo, p.Number, p.Files[i].Filename, err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := pk(p.Owner, p.Repo, p.Number)
	s.state.pulls[k] = &p
	if s.state.pullSHAs[k] == nil {
		s.state.pullSHAs[k] = map[string]bool{}
	}
	s.state.pullSHAs[k][p.HeadSHA] = true
}

// SetPermission sets login's permission on owner/repo: admin, maintain,
// write, triage, read or none. Unknown users have "read".
func (s *Server) SetPermission(owner, repo, login, permission string) {
	switch permission {
	case "admin", "maintain", "write", "triage", "read", "none":
	default:
		s.t.Fatalf("ghtest: SetPermission: unknown permission %q", permission)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := rk(owner, repo)
	if s.state.perms[k] == nil {
		s.state.perms[k] = map[string]string{}
	}
	s.state.perms[k][strings.ToLower(login)] = permission
}

// AddToken registers an access token. A read-only token gets 403 "Resource
// not accessible by integration" on every write, as a fork PR's token does.
func (s *Server) AddToken(token string, writable bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state.tokens[token] = writable
}

// AddApp registers a GitHub App: POST /app/installations/{installationID}/
// access_tokens with a JWT signed by the App's private key (RS256, iss =
// appID) returns a new writable token that the server then accepts.
func (s *Server) AddApp(appID int64, publicKey *rsa.PublicKey, installationID int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.state.apps[appID]
	if a == nil {
		a = &app{installations: map[int64]bool{}}
		s.state.apps[appID] = a
	}
	a.key = publicKey
	a.installations[installationID] = true
}

// SeedReviewComment stores a review comment on pull number, e.g. a human
// reply (InReplyTo set), and returns its ID. Missing fields get defaults.
func (s *Server) SeedReviewComment(owner, repo string, number int, c github.PullRequestComment) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.ID == nil {
		c.ID = github.Int64(s.state.newID())
	}
	if c.User == nil {
		c.User = &github.User{Login: github.String("octocat"), ID: github.Int64(1), Type: github.String("User")}
	}
	if c.CreatedAt == nil {
		now := github.Timestamp{Time: time.Now().UTC().Truncate(time.Second)}
		c.CreatedAt, c.UpdatedAt = &now, &now
	}
	if c.Path == nil {
		c.Path = github.String("")
	}
	if c.Body == nil {
		c.Body = github.String("")
	}
	if c.InReplyTo != nil {
		for _, rc := range s.state.reviewComments[rk(owner, repo)] {
			if rc.comment.GetID() == c.GetInReplyTo() {
				if c.GetPath() == "" {
					c.Path = github.String(rc.comment.GetPath())
				}
				if c.Line == nil {
					c.Line = rc.comment.Line
					c.Side = rc.comment.Side
				}
			}
		}
	}
	if p := s.state.pulls[pk(owner, repo, number)]; p != nil {
		setDefault(&c.CommitID, p.HeadSHA)
		setDefault(&c.OriginalCommitID, p.HeadSHA)
		if c.DiffHunk == nil && c.Line != nil {
			c.DiffHunk = seededHunk(p, c.GetPath(), c.GetSide(), c.GetLine())
		}
	}
	id := c.GetID()
	pullURL := fmt.Sprintf("%s/pulls/%d", s.repoAPIURL(owner, repo), number)
	setDefault(&c.NodeID, fmt.Sprintf("PRRC_%d", id))
	setDefault(&c.URL, fmt.Sprintf("%s/pulls/comments/%d", s.repoAPIURL(owner, repo), id))
	setDefault(&c.HTMLURL, fmt.Sprintf("https://github.com/%s/%s/pull/%d#discussion_r%d", owner, repo, number, id))
	setDefault(&c.PullRequestURL, pullURL)
	setDefault(&c.AuthorAssociation, "NONE")
	setDefault(&c.SubjectType, "line")
	k := rk(owner, repo)
	cc := c
	s.state.reviewComments[k] = append(s.state.reviewComments[k], &reviewComment{pull: pk(owner, repo, number), comment: &cc})
	return c.GetID()
}

// seededHunk is the diff_hunk GitHub would store for a comment on line of
// path, or nil when the line is outside the pull's diff.
func seededHunk(p *Pull, path, side string, line int) *string {
	if side == "" {
		side = "RIGHT"
	}
	for _, f := range p.Files {
		if f.Filename != path {
			continue
		}
		hunks, _ := parseHunks(f.Patch)
		if h := hunkAt(hunks, side, line); h >= 0 {
			return github.String(diffHunk(f.Patch, h, side, line))
		}
	}
	return nil
}

// SeedIssueComment stores a comment on issue or pull number and returns its
// ID. Missing fields get defaults.
func (s *Server) SeedIssueComment(owner, repo string, number int, c github.IssueComment) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newIssueComment(owner, repo, number, c).GetID()
}

// Fail injects a fault; see Fault. An invalid Path regexp fails the test.
func (s *Server) Fail(f Fault) {
	re, err := regexp.Compile(f.Path)
	if err != nil {
		s.t.Fatalf("ghtest: Fail: bad path regexp %q: %v", f.Path, err)
	}
	if f.Status == 0 && f.Delay <= 0 {
		s.t.Fatalf("ghtest: Fail: fault on %q has neither a Status nor a Delay", f.Path)
	}
	left := f.Times
	if left <= 0 {
		left = -1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state.faults = append(s.state.faults, &fault{Fault: f, path: re, left: left})
}

// Requests returns the request log, in the order responses were written.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.state.log))
	copy(out, s.state.log)
	return out
}

// CheckRuns returns the check runs created on owner/repo, in creation order.
// Their output carries the latest title/summary/text and the annotation
// count; the annotations are in CheckRunAnnotations.
func (s *Server) CheckRuns(owner, repo string) []*github.CheckRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*github.CheckRun
	for _, cr := range s.state.checkRuns[rk(owner, repo)] {
		out = append(out, clone(cr.run))
	}
	return out
}

// CheckRunAnnotations returns all annotations sent for check run id, in
// order, accumulated over its create and update calls.
func (s *Server) CheckRunAnnotations(owner, repo string, id int64) []*github.CheckRunAnnotation {
	s.mu.Lock()
	defer s.mu.Unlock()
	cr := s.state.checkRun(rk(owner, repo), id)
	if cr == nil {
		return nil
	}
	var out []*github.CheckRunAnnotation
	for _, a := range cr.annotations {
		out = append(out, clone(a))
	}
	return out
}

// Reviews returns the reviews created on pull number, in order.
func (s *Server) Reviews(owner, repo string, number int) []*github.PullRequestReview {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*github.PullRequestReview
	for _, r := range s.state.reviews[pk(owner, repo, number)] {
		out = append(out, clone(r))
	}
	return out
}

// ReviewComments returns the (not deleted) review comments on pull number,
// seeded and created, in order. Position is kept as sent so tests can assert
// it was never used.
func (s *Server) ReviewComments(owner, repo string, number int) []*github.PullRequestComment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*github.PullRequestComment
	for _, rc := range s.state.reviewComments[rk(owner, repo)] {
		if rc.pull.number == number {
			out = append(out, clone(rc.comment))
		}
	}
	return out
}

// IssueComments returns the comments on issue or pull number, in order.
func (s *Server) IssueComments(owner, repo string, number int) []*github.IssueComment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*github.IssueComment
	for _, ic := range s.state.issueComments[rk(owner, repo)] {
		if ic.issue.number == number {
			out = append(out, clone(ic.comment))
		}
	}
	return out
}

// Reactions returns the reaction contents on issue comment commentID, in
// order, each once.
func (s *Server) Reactions(owner, repo string, commentID int64) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.state.reactions[rk(owner, repo)][commentID]...)
}

// SARIFUploads returns the decoded SARIF JSON documents uploaded to
// owner/repo, in order.
func (s *Server) SARIFUploads(owner, repo string) [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out [][]byte
	for _, b := range s.state.sarifs[rk(owner, repo)] {
		out = append(out, append([]byte(nil), b...))
	}
	return out
}

func (st *state) checkRun(k repoKey, id int64) *checkRun {
	for _, cr := range st.checkRuns[k] {
		if cr.run.GetID() == id {
			return cr
		}
	}
	return nil
}

// clone deep-copies a go-github value through JSON, so callers cannot
// mutate the server's state.
func clone[T any](v *T) *T {
	b, err := json.Marshal(v)
	if err != nil {
		panic("ghtest: clone: " + err.Error())
	}
	out := new(T)
	if err := json.Unmarshal(b, out); err != nil {
		panic("ghtest: clone: " + err.Error())
	}
	return out
}
