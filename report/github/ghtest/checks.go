package ghtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/google/go-github/v60/github"
)

func (c *call) owner() string { return c.params["owner"] }
func (c *call) repo() string  { return c.params["repo"] }

// intParam is a path parameter the spec already checked to be an integer.
func (c *call) intParam(name string) int64 {
	n, _ := strconv.ParseInt(c.params[name], 10, 64)
	return n
}

// decode unmarshals the request body, which the spec already validated.
func (c *call) decode(v any) *response {
	if err := json.Unmarshal(c.body, v); err != nil {
		return errorResponse(http.StatusBadRequest, "Problems parsing JSON: "+err.Error())
	}
	return nil
}

func (s *Server) repoAPIURL(owner, repo string) string {
	return fmt.Sprintf("%s/repos/%s/%s", s.srv.URL, owner, repo)
}

func now() *github.Timestamp {
	return &github.Timestamp{Time: time.Now().UTC().Truncate(time.Second)}
}

// appIdentity is the App behind installation tokens of appID.
func appIdentity(appID int64) *github.App {
	a := *githubActionsApp
	a.ID = github.Int64(appID)
	a.Slug = github.String(fmt.Sprintf("app-%d", appID))
	a.Name = github.String(fmt.Sprintf("App %d", appID))
	a.NodeID = github.String(fmt.Sprintf("APP_%d", appID))
	a.HTMLURL = github.String("https://github.com/apps/" + a.GetSlug())
	return &a
}

// githubActionsApp is the App behind plain tokens (GITHUB_TOKEN).
var githubActionsApp = &github.App{
	ID: github.Int64(15368), Slug: github.String("github-actions"), Name: github.String("GitHub Actions"),
	NodeID: github.String("MDM6QXBwMTUzNjg="), HTMLURL: github.String("https://github.com/apps/github-actions"),
	ExternalURL: github.String("https://help.github.com/en/actions"), Description: github.String("Automate your workflow from idea to production"),
	Owner:     &github.User{Login: github.String("github"), ID: github.Int64(9919), Type: github.String("Organization")},
	CreatedAt: &github.Timestamp{Time: time.Date(2018, 7, 30, 9, 30, 17, 0, time.UTC)},
	UpdatedAt: &github.Timestamp{Time: time.Date(2019, 12, 10, 19, 4, 12, 0, time.UTC)},
	Events:    []string{"check_run", "check_suite"},
}

func (s *Server) createCheckRun(c *call) *response {
	var opt github.CreateCheckRunOptions
	if resp := c.decode(&opt); resp != nil {
		return resp
	}
	if resp := checkCompletion(opt.Status, opt.Conclusion, opt.CompletedAt); resp != nil {
		return resp
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.state.newID()
	url := fmt.Sprintf("%s/check-runs/%d", s.repoAPIURL(c.owner(), c.repo()), id)
	run := &github.CheckRun{
		ID:         github.Int64(id),
		NodeID:     github.String(fmt.Sprintf("CR_%d", id)),
		HeadSHA:    github.String(opt.HeadSHA),
		Name:       github.String(opt.Name),
		ExternalID: github.String(""),
		URL:        github.String(url),
		HTMLURL:    github.String(fmt.Sprintf("https://github.com/%s/%s/runs/%d", c.owner(), c.repo(), id)),
		DetailsURL: github.String(fmt.Sprintf("https://github.com/%s/%s/runs/%d", c.owner(), c.repo(), id)),
		Status:     github.String("queued"),
		StartedAt:  now(),
		CheckSuite: &github.CheckSuite{ID: github.Int64(s.state.newID())},
		App:        c.app,
		Output: &github.CheckRunOutput{
			AnnotationsCount: github.Int(0),
			AnnotationsURL:   github.String(url + "/annotations"),
		},
	}
	if opt.StartedAt != nil {
		run.StartedAt = opt.StartedAt
	}
	for _, p := range s.state.pulls {
		if p.HeadSHA == opt.HeadSHA && !p.Fork && rk(p.Owner, p.Repo) == rk(c.owner(), c.repo()) {
			run.PullRequests = append(run.PullRequests, s.minimalPull(p))
		}
	}
	cr := &checkRun{run: run}
	cr.apply(opt.DetailsURL, opt.ExternalID, opt.Status, opt.Conclusion, opt.CompletedAt, opt.Output, opt.Actions)
	k := rk(c.owner(), c.repo())
	s.state.checkRuns[k] = append(s.state.checkRuns[k], cr)
	return s.checkRunResponse(c, http.StatusCreated, cr)
}

func (s *Server) updateCheckRun(c *call) *response {
	var opt github.UpdateCheckRunOptions
	if resp := c.decode(&opt); resp != nil {
		return resp
	}
	if resp := checkCompletion(opt.Status, opt.Conclusion, opt.CompletedAt); resp != nil {
		return resp
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cr := s.state.checkRun(rk(c.owner(), c.repo()), c.intParam("check_run_id"))
	if cr == nil {
		return notFound()
	}
	if cr.run.GetApp().GetID() != c.app.GetID() {
		return errorResponse(http.StatusForbidden, fmt.Sprintf("Invalid app_id `%d` - check run can only be modified by the GitHub App that created it.", c.app.GetID()))
	}
	if opt.Name != "" {
		cr.run.Name = github.String(opt.Name)
	}
	cr.apply(opt.DetailsURL, opt.ExternalID, opt.Status, opt.Conclusion, opt.CompletedAt, opt.Output, opt.Actions)
	return s.checkRunResponse(c, http.StatusOK, cr)
}

func (s *Server) getCheckRun(c *call) *response {
	s.mu.Lock()
	defer s.mu.Unlock()
	cr := s.state.checkRun(rk(c.owner(), c.repo()), c.intParam("check_run_id"))
	if cr == nil {
		return notFound()
	}
	return s.checkRunResponse(c, http.StatusOK, cr)
}

// checkCompletion rejects a completed status without a conclusion, as
// GitHub does.
func checkCompletion(status, conclusion *string, completedAt *github.Timestamp) *response {
	if conclusion == nil && ((status != nil && *status == "completed") || completedAt != nil) {
		return jsonResponse(http.StatusUnprocessableEntity, validationError("CheckRun", "conclusion", "conclusion is required when status is completed or completed_at is set"))
	}
	return nil
}

// apply merges create/update fields into the run: output's title, summary
// and text replace the previous ones when sent; annotations are appended.
func (cr *checkRun) apply(detailsURL, externalID, status, conclusion *string, completedAt *github.Timestamp, out *github.CheckRunOutput, actions []*github.CheckRunAction) {
	r := cr.run
	if detailsURL != nil {
		r.DetailsURL = detailsURL
	}
	if externalID != nil {
		r.ExternalID = externalID
	}
	if status != nil {
		r.Status = status
	}
	if conclusion != nil {
		r.Conclusion = conclusion
		r.Status = github.String("completed")
		if completedAt == nil {
			completedAt = now()
		}
	}
	if completedAt != nil {
		r.CompletedAt = completedAt
	}
	if out != nil {
		for dst, src := range map[**string]*string{&r.Output.Title: out.Title, &r.Output.Summary: out.Summary, &r.Output.Text: out.Text} {
			if src != nil {
				*dst = src
			}
		}
		cr.annotations = append(cr.annotations, out.Annotations...)
		r.Output.AnnotationsCount = github.Int(len(cr.annotations))
	}
	if actions != nil {
		cr.actions = actions
	}
}

func (s *Server) checkRunResponse(c *call, status int, cr *checkRun) *response {
	return jsonResponse(status, fillSchema(responseSchema(c.in, status), cr.run))
}

// minimalPull is the pull-request-minimal form of p.
func (s *Server) minimalPull(p *Pull) *github.PullRequest {
	repo := func(sha, ref string) *github.PullRequestBranch {
		return &github.PullRequestBranch{SHA: github.String(sha), Ref: github.String(ref), Repo: &github.Repository{
			ID: github.Int64(1), Name: github.String(p.Repo), URL: github.String(s.repoAPIURL(p.Owner, p.Repo)),
		}}
	}
	return &github.PullRequest{
		ID:     github.Int64(int64(p.Number) + 1_000_000),
		Number: github.Int(p.Number),
		URL:    github.String(fmt.Sprintf("%s/pulls/%d", s.repoAPIURL(p.Owner, p.Repo), p.Number)),
		Head:   repo(p.HeadSHA, p.HeadRef),
		Base:   repo(p.BaseSHA, p.BaseRef),
	}
}

// listCheckRunsForRef serves GET .../commits/{ref}/check-runs: the runs on
// the commit (a SHA, or a pull's head branch name; refs with a slash such as
// heads/main are not routed), newest first, filtered by check_name, status
// and app_id. filter=latest (the default) keeps the newest run of each name
// and App.
func (s *Server) listCheckRunsForRef(c *call) *response {
	q := c.r.URL.Query()
	s.mu.Lock()
	defer s.mu.Unlock()
	sha := c.params["ref"]
	for _, p := range s.state.pulls {
		if rk(p.Owner, p.Repo) == rk(c.owner(), c.repo()) && sha == p.HeadRef {
			sha = p.HeadSHA
		}
	}
	runs := s.state.checkRuns[rk(c.owner(), c.repo())]
	type nameApp struct {
		name string
		app  int64
	}
	newest := map[nameApp]bool{}
	var out []*github.CheckRun
	for i := len(runs) - 1; i >= 0; i-- {
		r := runs[i].run
		if r.GetHeadSHA() != sha {
			continue
		}
		if name := q.Get("check_name"); name != "" && r.GetName() != name {
			continue
		}
		if st := q.Get("status"); st != "" && r.GetStatus() != st {
			continue
		}
		if app := q.Get("app_id"); app != "" && app != strconv.FormatInt(r.GetApp().GetID(), 10) {
			continue
		}
		if q.Get("filter") != "all" {
			k := nameApp{r.GetName(), r.GetApp().GetID()}
			if newest[k] {
				continue
			}
			newest[k] = true
		}
		out = append(out, r)
	}
	lo, hi, header := s.paginate(c, len(out))
	body := map[string]any{"total_count": len(out), "check_runs": append([]*github.CheckRun{}, out[lo:hi]...)}
	resp := jsonResponse(http.StatusOK, fillSchema(responseSchema(c.in, http.StatusOK), body))
	resp.header = header
	return resp
}
