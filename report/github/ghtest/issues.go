package ghtest

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/google/go-github/v60/github"
)

// maxCommentBody is GitHub's limit on comment bodies, in characters.
const maxCommentBody = 65536

func (s *Server) issueExists(c *call, number int) bool {
	if s.pull(c, number) != nil {
		return true
	}
	for _, ic := range s.state.issueComments[rk(c.owner(), c.repo())] {
		if ic.issue.number == number {
			return true
		}
	}
	return false
}

func (s *Server) listIssueComments(c *call) *response {
	s.mu.Lock()
	defer s.mu.Unlock()
	number := int(c.intParam("issue_number"))
	if !s.issueExists(c, number) {
		return notFound()
	}
	var all []*github.IssueComment
	for _, ic := range s.state.issueComments[rk(c.owner(), c.repo())] {
		if ic.issue.number == number {
			all = append(all, ic.comment)
		}
	}
	lo, hi, header := s.paginate(c, len(all))
	page := append([]*github.IssueComment{}, all[lo:hi]...)
	resp := jsonResponse(http.StatusOK, fillSchema(responseSchema(c.in, http.StatusOK), page))
	resp.header = header
	return resp
}

type commentRequest struct {
	Body string `json:"body"`
}

func (s *Server) createIssueComment(c *call) *response {
	var req commentRequest
	if resp := c.decode(&req); resp != nil {
		return resp
	}
	if resp := checkCommentBody(req.Body); resp != nil {
		return resp
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	number := int(c.intParam("issue_number"))
	if !s.issueExists(c, number) {
		return notFound()
	}
	user := &github.User{}
	jsonRoundTrip(c.user, user)
	ic := s.newIssueComment(c.owner(), c.repo(), number, github.IssueComment{Body: github.String(req.Body), User: user})
	return jsonResponse(http.StatusCreated, fillSchema(responseSchema(c.in, http.StatusCreated), ic))
}

// newIssueComment stores c with the fields GitHub sets filled in. The
// caller holds s.mu.
func (s *Server) newIssueComment(owner, repo string, number int, c github.IssueComment) *github.IssueComment {
	if c.ID == nil {
		c.ID = github.Int64(s.state.newID())
	}
	id := c.GetID()
	if c.User == nil {
		c.User = &github.User{Login: github.String("octocat"), ID: github.Int64(1), Type: github.String("User")}
	}
	if c.CreatedAt == nil {
		c.CreatedAt = now()
	}
	if c.UpdatedAt == nil {
		c.UpdatedAt = c.CreatedAt
	}
	if c.Body == nil {
		c.Body = github.String("")
	}
	setDefault(&c.NodeID, fmt.Sprintf("IC_%d", id))
	setDefault(&c.URL, fmt.Sprintf("%s/issues/comments/%d", s.repoAPIURL(owner, repo), id))
	setDefault(&c.HTMLURL, fmt.Sprintf("https://github.com/%s/%s/pull/%d#issuecomment-%d", owner, repo, number, id))
	setDefault(&c.IssueURL, fmt.Sprintf("%s/issues/%d", s.repoAPIURL(owner, repo), number))
	setDefault(&c.AuthorAssociation, "NONE")
	k := rk(owner, repo)
	s.state.issueComments[k] = append(s.state.issueComments[k], &issueComment{issue: pk(owner, repo, number), comment: &c})
	return &c
}

func setDefault(p **string, v string) {
	if *p == nil {
		*p = github.String(v)
	}
}

// checkCommentBody rejects bodies over GitHub's length limit.
func checkCommentBody(body string) *response {
	if n := utf8.RuneCountInString(body); n > maxCommentBody {
		return jsonResponse(http.StatusUnprocessableEntity, validationError("IssueComment", "body", fmt.Sprintf("Body is too long (maximum is %d characters)", maxCommentBody)))
	}
	return nil
}

func (s *Server) issueComment(c *call) *issueComment {
	id := c.intParam("comment_id")
	for _, ic := range s.state.issueComments[rk(c.owner(), c.repo())] {
		if ic.comment.GetID() == id {
			return ic
		}
	}
	return nil
}

func (s *Server) updateIssueComment(c *call) *response {
	var req commentRequest
	if resp := c.decode(&req); resp != nil {
		return resp
	}
	if resp := checkCommentBody(req.Body); resp != nil {
		return resp
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ic := s.issueComment(c)
	if ic == nil {
		return notFound()
	}
	ic.comment.Body = github.String(req.Body)
	ic.comment.UpdatedAt = now()
	return jsonResponse(http.StatusOK, fillSchema(responseSchema(c.in, http.StatusOK), ic.comment))
}

func (s *Server) createReaction(c *call) *response {
	var req struct {
		Content string `json:"content"`
	}
	if resp := c.decode(&req); resp != nil {
		return resp
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ic := s.issueComment(c)
	if ic == nil {
		return notFound()
	}
	k := rk(c.owner(), c.repo())
	if s.state.reactions[k] == nil {
		s.state.reactions[k] = map[int64][]string{}
	}
	id := ic.comment.GetID()
	status := http.StatusCreated
	existing := s.state.reactions[k][id]
	for _, r := range existing {
		if r == req.Content {
			status = http.StatusOK
		}
	}
	if status == http.StatusCreated {
		s.state.reactions[k][id] = append(existing, req.Content)
	}
	reaction := map[string]any{
		"id":         id*10 + int64(indexOf(s.state.reactions[k][id], req.Content)),
		"node_id":    fmt.Sprintf("REA_%d_%s", id, req.Content),
		"user":       c.user,
		"content":    req.Content,
		"created_at": now().Format("2006-01-02T15:04:05Z"),
	}
	return jsonResponse(status, fillSchema(responseSchema(c.in, status), reaction))
}

func indexOf(list []string, v string) int {
	for i, e := range list {
		if e == v {
			return i
		}
	}
	return -1
}

// roles maps a repository role to the permission the API reports for it:
// maintain shows as write and triage as read.
var roles = map[string]string{
	"admin": "admin", "maintain": "write", "write": "write", "triage": "read", "read": "read", "none": "none",
}

func (s *Server) getPermission(c *call) *response {
	s.mu.Lock()
	defer s.mu.Unlock()
	login := c.params["username"]
	role, ok := s.state.perms[rk(c.owner(), c.repo())][strings.ToLower(login)]
	if !ok {
		role = "read" // everyone can read a public repository
	}
	body := map[string]any{
		"permission": roles[role],
		"role_name":  role,
		"user": map[string]any{
			"login": login, "id": int64(len(login)) + 100, "type": "User",
			"url": s.srv.URL + "/users/" + login, "html_url": "https://github.com/" + login,
		},
	}
	return jsonResponse(http.StatusOK, fillSchema(responseSchema(c.in, http.StatusOK), body))
}

// maxSARIFUpload is GitHub's limit on the gzip-compressed SARIF size.
const maxSARIFUpload = 10 << 20

func (s *Server) uploadSARIF(c *call) *response {
	var req struct {
		CommitSHA string `json:"commit_sha"`
		Ref       string `json:"ref"`
		SARIF     string `json:"sarif"`
	}
	if resp := c.decode(&req); resp != nil {
		return resp
	}
	gz, err := base64.StdEncoding.DecodeString(req.SARIF)
	if err != nil {
		return errorResponse(http.StatusBadRequest, "Invalid request: sarif is not base64: "+err.Error())
	}
	if len(gz) > maxSARIFUpload {
		return errorResponse(http.StatusRequestEntityTooLarge, fmt.Sprintf("Payload too large: %d compressed bytes, the limit is %d", len(gz), maxSARIFUpload))
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return errorResponse(http.StatusBadRequest, "Invalid request: sarif is not gzip: "+err.Error())
	}
	doc, err := io.ReadAll(zr)
	if err != nil {
		return errorResponse(http.StatusBadRequest, "Invalid request: sarif is not gzip: "+err.Error())
	}
	var head struct {
		Version string            `json:"version"`
		Runs    []json.RawMessage `json:"runs"`
	}
	if err := json.Unmarshal(doc, &head); err != nil {
		return errorResponse(http.StatusBadRequest, "Invalid request: sarif is not JSON: "+err.Error())
	}
	if head.Version != "2.1.0" {
		return errorResponse(http.StatusBadRequest, fmt.Sprintf("Invalid request: SARIF version %q, want \"2.1.0\"", head.Version))
	}
	if head.Runs == nil {
		return errorResponse(http.StatusBadRequest, "Invalid request: SARIF has no runs")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := rk(c.owner(), c.repo())
	s.state.sarifs[k] = append(s.state.sarifs[k], doc)
	n := s.state.newID()
	id := fmt.Sprintf("%08x-0000-4000-8000-%012x", n, n)
	body := map[string]any{"id": id, "url": fmt.Sprintf("%s/code-scanning/sarifs/%s", s.repoAPIURL(c.owner(), c.repo()), id)}
	return jsonResponse(http.StatusAccepted, fillSchema(responseSchema(c.in, http.StatusAccepted), body))
}
