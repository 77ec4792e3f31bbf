package ghtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/google/go-github/v60/github"
)

const docsURL = "https://docs.github.com/rest"

// response is what a handler answers: a JSON value, or raw bytes when
// contentType is set.
type response struct {
	status      int
	header      http.Header
	json        any
	raw         []byte
	contentType string
}

func jsonResponse(status int, v any) *response { return &response{status: status, json: v} }

// errorResponse is GitHub's basic error body.
func errorResponse(status int, message string) *response {
	return jsonResponse(status, map[string]any{
		"message":           message,
		"documentation_url": docsURL,
		"status":            fmt.Sprint(status),
	})
}

func notFound() *response { return errorResponse(http.StatusNotFound, "Not Found") }

// unprocessable is GitHub's 422 with a list of error strings, as sent by
// pulls/create-review.
func unprocessable(errs ...string) *response {
	return jsonResponse(http.StatusUnprocessableEntity, map[string]any{
		"message":           "Unprocessable Entity",
		"errors":            errs,
		"documentation_url": docsURL,
		"status":            "422",
	})
}

// call is one request being served.
type call struct {
	r      *http.Request
	in     *openapi3filter.RequestValidationInput
	body   []byte
	params map[string]string
	user   map[string]any // the authenticated user, as JSON
	app    *github.App    // the App the token belongs to
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.t.Errorf("ghtest: %s %s: read body: %v", r.Method, r.URL.Path, err)
		return
	}
	// Accept GitHub Enterprise style bases too, as produced by
	// go-github's WithEnterpriseURLs(s.URL(), s.URL()).
	for _, prefix := range []string{"/api/v3/", "/api/uploads/"} {
		if strings.HasPrefix(r.URL.Path, prefix) {
			r.URL.Path = "/" + strings.TrimPrefix(r.URL.Path, prefix)
			r.URL.RawPath = ""
		}
	}
	resp, in := s.serve(r, body)

	header := w.Header()
	for k, v := range resp.header {
		header[k] = v
	}
	var out []byte
	if resp.contentType != "" {
		out = resp.raw
		header.Set("Content-Type", resp.contentType)
	} else if resp.json != nil {
		if out, err = json.Marshal(resp.json); err != nil {
			s.t.Errorf("ghtest: %s %s: encode response: %v", r.Method, r.URL.Path, err)
		}
		header.Set("Content-Type", "application/json; charset=utf-8")
	}
	header.Set("X-GitHub-Media-Type", "github.v3; format=json")
	if in != nil && resp.contentType == "" {
		sp, _ := loadSpec()
		if err := sp.validateResponse(in, resp.status, header, out); err != nil {
			s.t.Errorf("ghtest: %v", err)
		}
	}

	s.mu.Lock()
	s.state.log = append(s.state.log, Request{
		Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery,
		Body: body, Status: resp.status, At: time.Now(),
	})
	s.mu.Unlock()

	w.WriteHeader(resp.status)
	w.Write(out)
}

// serve validates, applies faults and auth, and dispatches. It returns the
// validation input when the response is to be validated.
func (s *Server) serve(r *http.Request, body []byte) (*response, *openapi3filter.RequestValidationInput) {
	sp, err := loadSpec()
	if err != nil {
		s.t.Errorf("%v", err)
		return errorResponse(http.StatusInternalServerError, err.Error()), nil
	}
	in, err := sp.validateRequest(r, body)
	if err != nil {
		s.t.Errorf("ghtest: %v", err)
		if in == nil {
			return notFound(), nil
		}
		return errorResponse(http.StatusUnprocessableEntity, "Invalid request.\n\n"+err.Error()), nil
	}
	if f := s.takeFault(r); f != nil {
		if f.Delay > 0 {
			t := time.NewTimer(f.Delay)
			select {
			case <-t.C:
			case <-r.Context().Done():
				t.Stop()
				return &response{status: StatusClientGone}, nil
			}
		}
		if f.Status != 0 {
			return &response{status: f.Status, header: f.Header.Clone(), raw: []byte(f.Body), contentType: faultContentType(f)}, nil
		}
	}
	c := &call{r: r, in: in, body: body, params: in.PathParams}
	if resp := s.authorize(c); resp != nil {
		return resp, in
	}
	return s.dispatch(c), in
}

func faultContentType(f *fault) string {
	if ct := f.Header.Get("Content-Type"); ct != "" {
		return ct
	}
	if json.Valid([]byte(f.Body)) {
		return "application/json; charset=utf-8"
	}
	return "text/plain; charset=utf-8"
}

// takeFault consumes the first fault matching r, if any.
func (s *Server) takeFault(r *http.Request) *fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, f := range s.state.faults {
		if (f.Method == "" || strings.EqualFold(f.Method, r.Method)) && f.path.MatchString(r.URL.Path) {
			if f.left > 0 {
				f.left--
				if f.left == 0 {
					s.state.faults = append(s.state.faults[:i:i], s.state.faults[i+1:]...)
				}
			}
			return f
		}
	}
	return nil
}

// writePermission is the permission a write operation needs, as GitHub
// names it in x-accepted-github-permissions.
var writePermission = map[string]string{
	"checks/create":                      "checks=write",
	"checks/update":                      "checks=write",
	"pulls/create-review":                "pull_requests=write",
	"pulls/delete-review-comment":        "pull_requests=write",
	"issues/create-comment":              "issues=write; pull_requests=write",
	"issues/update-comment":              "issues=write; pull_requests=write",
	"reactions/create-for-issue-comment": "issues=write; pull_requests=write",
	"code-scanning/upload-sarif":         "security_events=write",
}

// authorize checks the request's credentials and returns the error
// response GitHub would give, or nil.
func (s *Server) authorize(c *call) *response {
	op := c.in.Route.Operation.OperationID
	scheme, cred, _ := strings.Cut(c.r.Header.Get("Authorization"), " ")
	if op == "apps/create-installation-access-token" {
		if !strings.EqualFold(scheme, "Bearer") || cred == "" {
			return errorResponse(http.StatusUnauthorized, "A JSON web token could not be decoded")
		}
		return nil // the handler verifies the JWT
	}
	if cred == "" || !(strings.EqualFold(scheme, "Bearer") || strings.EqualFold(scheme, "token")) {
		return errorResponse(http.StatusUnauthorized, "Requires authentication")
	}
	s.mu.Lock()
	writable, ok := s.state.tokens[cred]
	appID := s.state.tokenApps[cred]
	s.mu.Unlock()
	if !ok {
		return errorResponse(http.StatusUnauthorized, "Bad credentials")
	}
	if perm, isWrite := writePermission[op]; isWrite && !writable {
		resp := errorResponse(http.StatusForbidden, "Resource not accessible by integration")
		resp.header = http.Header{"X-Accepted-Github-Permissions": {perm}}
		return resp
	}
	c.app = githubActionsApp
	if appID != 0 {
		c.app = appIdentity(appID)
	}
	c.user = botUser(c.app.GetSlug() + "[bot]")
	return nil
}

// botUser is the simple-user JSON of a bot account.
func botUser(login string) map[string]any {
	return map[string]any{
		"login":    login,
		"id":       41898282,
		"node_id":  "MDM6Qm90NDE4OTgyODI=",
		"type":     "Bot",
		"html_url": "https://github.com/apps/" + strings.TrimSuffix(login, "[bot]"),
		"url":      "https://api.github.com/users/" + login,
	}
}

func (s *Server) dispatch(c *call) *response {
	switch c.in.Route.Operation.OperationID {
	case "checks/create":
		return s.createCheckRun(c)
	case "checks/update":
		return s.updateCheckRun(c)
	case "checks/get":
		return s.getCheckRun(c)
	case "checks/list-for-ref":
		return s.listCheckRunsForRef(c)
	case "pulls/get":
		return s.getPull(c)
	case "pulls/list-files":
		return s.listPullFiles(c)
	case "pulls/create-review":
		return s.createReview(c)
	case "pulls/list-reviews":
		return s.listReviews(c)
	case "pulls/list-review-comments":
		return s.listReviewComments(c)
	case "pulls/delete-review-comment":
		return s.deleteReviewComment(c)
	case "issues/list-comments":
		return s.listIssueComments(c)
	case "issues/create-comment":
		return s.createIssueComment(c)
	case "issues/update-comment":
		return s.updateIssueComment(c)
	case "reactions/create-for-issue-comment":
		return s.createReaction(c)
	case "repos/get-collaborator-permission-level":
		return s.getPermission(c)
	case "code-scanning/upload-sarif":
		return s.uploadSARIF(c)
	case "apps/create-installation-access-token":
		return s.createInstallationToken(c)
	case "repos/list-pull-requests-associated-with-commit":
		return s.listCommitPulls(c)
	}
	err := fmt.Sprintf("ghtest: operation %s is in the spec but not implemented", c.in.Route.Operation.OperationID)
	s.t.Errorf("%s", err)
	return errorResponse(http.StatusNotImplemented, err)
}
