package ghtest

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/google/go-github/v60/github"
)

// paginate returns the [lo,hi) slice bounds of page for total items and the
// Link header GitHub would send, from the per_page (default 30, at most
// 100) and page (default 1) query parameters.
func (s *Server) paginate(c *call, total int) (lo, hi int, header http.Header) {
	q := c.r.URL.Query()
	perPage, _ := strconv.Atoi(q.Get("per_page"))
	if perPage <= 0 {
		perPage = 30
	}
	if perPage > 100 {
		perPage = 100
	}
	page, _ := strconv.Atoi(q.Get("page"))
	if page <= 0 {
		page = 1
	}
	last := (total + perPage - 1) / perPage
	if last == 0 {
		last = 1
	}
	lo = min((page-1)*perPage, total)
	hi = min(lo+perPage, total)

	link := func(p int, rel string) string {
		q.Set("page", strconv.Itoa(p))
		q.Set("per_page", strconv.Itoa(perPage))
		u := url.URL{Scheme: "http", Host: c.r.Host, Path: c.r.URL.Path, RawQuery: q.Encode()}
		return fmt.Sprintf("<%s>; rel=%q", u.String(), rel)
	}
	var links []string
	if page > 1 {
		links = append(links, link(min(page-1, last), "prev"))
	}
	if page < last {
		links = append(links, link(page+1, "next"), link(last, "last"))
	}
	if page > 1 {
		links = append(links, link(1, "first"))
	}
	header = http.Header{}
	if len(links) > 0 {
		header.Set("Link", strings.Join(links, ", "))
	}
	return lo, hi, header
}

// maxListedFiles is how many files GET .../pulls/{n}/files returns at most.
const maxListedFiles = 3000

func (s *Server) pull(c *call, number int) *Pull {
	return s.state.pulls[pk(c.owner(), c.repo(), number)]
}

func (s *Server) getPull(c *call) *response {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pull(c, int(c.intParam("pull_number")))
	if p == nil {
		return notFound()
	}
	accept := c.r.Header.Get("Accept")
	if strings.Contains(accept, "patch") {
		s.t.Errorf("ghtest: GET %s with Accept %q: only JSON and diff are implemented", c.r.URL.Path, accept)
		return errorResponse(http.StatusNotAcceptable, "ghtest serves pulls as JSON or diff only")
	}
	if strings.Contains(accept, "diff") {
		if p.TooLarge {
			return jsonResponse(http.StatusNotAcceptable, map[string]any{
				"message":           "Sorry, the diff exceeded the maximum number of files (300). Consider using 'List pull requests files' API or locally cloning the repository instead.",
				"errors":            []any{map[string]any{"resource": "PullRequest", "field": "diff", "code": "too_large"}},
				"documentation_url": docsURL + "/pulls/pulls#list-pull-requests-files",
				"status":            "406",
			})
		}
		return &response{status: http.StatusOK, raw: []byte(unifiedDiff(p)), contentType: "application/vnd.github.diff; charset=utf-8"}
	}
	return jsonResponse(http.StatusOK, fillSchema(responseSchema(c.in, http.StatusOK), s.fullPull(p)))
}

// unifiedDiff is the pull's diff as GitHub serves it for
// Accept: application/vnd.github.diff, built from the files' patches.
func unifiedDiff(p *Pull) string {
	var b strings.Builder
	for _, f := range p.Files {
		fmt.Fprintf(&b, "diff --git a/%s b/%s\n", f.Filename, f.Filename)
		oldName, newName := "a/"+f.Filename, "b/"+f.Filename
		switch f.Status {
		case "added":
			b.WriteString("new file mode 100644\n")
			oldName = "/dev/null"
		case "removed":
			b.WriteString("deleted file mode 100644\n")
			newName = "/dev/null"
		}
		if f.Patch == "" {
			fmt.Fprintf(&b, "Binary files %s and %s differ\n", oldName, newName)
			continue
		}
		fmt.Fprintf(&b, "--- %s\n+++ %s\n%s", oldName, newName, f.Patch)
		if !strings.HasSuffix(f.Patch, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// fullPull is the pull-request form of p.
func (s *Server) fullPull(p *Pull) *github.PullRequest {
	pr := s.minimalPull(p)
	adds, dels := 0, 0
	for _, f := range p.Files {
		a, d := patchStats(f.Patch)
		adds, dels = adds+a, dels+d
	}
	headOwner := p.Owner
	if p.Fork {
		headOwner = p.Owner + "-fork"
	}
	pr.Head.Repo = s.repository(headOwner, p.Repo, p.Fork)
	pr.Head.Label = github.String(headOwner + ":" + p.HeadRef)
	pr.Head.User = &github.User{Login: github.String(headOwner), ID: github.Int64(2), Type: github.String("User")}
	pr.Base.Repo = s.repository(p.Owner, p.Repo, false)
	pr.Base.Label = github.String(p.Owner + ":" + p.BaseRef)
	pr.Base.User = &github.User{Login: github.String(p.Owner), ID: github.Int64(3), Type: github.String("User")}
	pr.State = github.String(p.State)
	pr.Title = github.String(fmt.Sprintf("Pull request %d", p.Number))
	pr.HTMLURL = github.String(fmt.Sprintf("https://github.com/%s/%s/pull/%d", p.Owner, p.Repo, p.Number))
	pr.DiffURL = github.String(*pr.HTMLURL + ".diff")
	pr.PatchURL = github.String(*pr.HTMLURL + ".patch")
	pr.User = &github.User{Login: github.String(headOwner), ID: github.Int64(2), Type: github.String("User")}
	pr.ChangedFiles = github.Int(len(p.Files))
	pr.Additions, pr.Deletions = github.Int(adds), github.Int(dels)
	pr.Commits = github.Int(1)
	pr.Merged = github.Bool(false)
	pr.Draft = github.Bool(false)
	return pr
}

func (s *Server) repository(owner, repo string, fork bool) *github.Repository {
	return &github.Repository{
		ID:       github.Int64(int64(len(owner)*1000 + len(repo))),
		Name:     github.String(repo),
		FullName: github.String(owner + "/" + repo),
		Owner:    &github.User{Login: github.String(owner), ID: github.Int64(3), Type: github.String("User")},
		Fork:     github.Bool(fork),
		URL:      github.String(s.repoAPIURL(owner, repo)),
		HTMLURL:  github.String(fmt.Sprintf("https://github.com/%s/%s", owner, repo)),
	}
}

// patchStats counts added and deleted lines of a patch.
func patchStats(patch string) (adds, dels int) {
	for _, l := range strings.Split(patch, "\n") {
		switch {
		case strings.HasPrefix(l, "@@"):
		case strings.HasPrefix(l, "+"):
			adds++
		case strings.HasPrefix(l, "-"):
			dels++
		}
	}
	return adds, dels
}

func (s *Server) listPullFiles(c *call) *response {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pull(c, int(c.intParam("pull_number")))
	if p == nil {
		return notFound()
	}
	// GitHub lists at most the first 3000 files.
	lo, hi, header := s.paginate(c, min(len(p.Files), maxListedFiles))
	var files []*github.CommitFile
	for _, f := range p.Files[lo:hi] {
		a, d := patchStats(f.Patch)
		sum := sha1.Sum([]byte(f.Filename + "\x00" + f.Patch))
		cf := &github.CommitFile{
			SHA:         github.String(hex.EncodeToString(sum[:])),
			Filename:    github.String(f.Filename),
			Status:      github.String(f.Status),
			Additions:   github.Int(a),
			Deletions:   github.Int(d),
			Changes:     github.Int(a + d),
			BlobURL:     github.String(fmt.Sprintf("https://github.com/%s/%s/blob/%s/%s", p.Owner, p.Repo, p.HeadSHA, f.Filename)),
			RawURL:      github.String(fmt.Sprintf("https://github.com/%s/%s/raw/%s/%s", p.Owner, p.Repo, p.HeadSHA, f.Filename)),
			ContentsURL: github.String(fmt.Sprintf("%s/contents/%s?ref=%s", s.repoAPIURL(p.Owner, p.Repo), f.Filename, p.HeadSHA)),
		}
		if f.Patch != "" {
			cf.Patch = github.String(f.Patch)
		}
		files = append(files, cf)
	}
	if files == nil {
		files = []*github.CommitFile{}
	}
	resp := jsonResponse(http.StatusOK, fillSchema(responseSchema(c.in, http.StatusOK), files))
	resp.header = header
	return resp
}

func (s *Server) listCommitPulls(c *call) *response {
	s.mu.Lock()
	defer s.mu.Unlock()
	sha := c.params["commit_sha"]
	var pulls []*github.PullRequest
	for _, p := range s.state.pulls {
		if rk(p.Owner, p.Repo) == rk(c.owner(), c.repo()) && p.HeadSHA == sha {
			pulls = append(pulls, s.fullPull(p))
		}
	}
	sortPulls(pulls)
	lo, hi, header := s.paginate(c, len(pulls))
	page := append([]*github.PullRequest{}, pulls[lo:hi]...)
	resp := jsonResponse(http.StatusOK, fillSchema(responseSchema(c.in, http.StatusOK), page))
	resp.header = header
	return resp
}

func sortPulls(pulls []*github.PullRequest) {
	for i := 1; i < len(pulls); i++ {
		for j := i; j > 0 && pulls[j].GetNumber() > pulls[j-1].GetNumber(); j-- {
			pulls[j], pulls[j-1] = pulls[j-1], pulls[j]
		}
	}
}

// draftComment is one comment of a create-review request, with every field
// the API accepts.
type draftComment struct {
	Path      string  `json:"path"`
	Position  *int    `json:"position"`
	Body      string  `json:"body"`
	Line      *int    `json:"line"`
	Side      *string `json:"side"`
	StartLine *int    `json:"start_line"`
	StartSide *string `json:"start_side"`
}

type reviewRequest struct {
	CommitID *string        `json:"commit_id"`
	Body     *string        `json:"body"`
	Event    *string        `json:"event"`
	Comments []draftComment `json:"comments"`
}

var reviewStates = map[string]string{
	"APPROVE": "APPROVED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "COMMENT": "COMMENTED", "": "PENDING",
}

func (s *Server) createReview(c *call) *response {
	var req reviewRequest
	if resp := c.decode(&req); resp != nil {
		return resp
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	number := int(c.intParam("pull_number"))
	p := s.pull(c, number)
	if p == nil {
		return notFound()
	}
	event := ""
	if req.Event != nil {
		event = *req.Event
	}
	if (event == "REQUEST_CHANGES" || event == "COMMENT") && req.GetBody() == "" && len(req.Comments) == 0 {
		return unprocessable("Review body is required for " + strings.ToLower(strings.ReplaceAll(event, "_", " ")) + " reviews")
	}
	key := pk(p.Owner, p.Repo, p.Number)
	if event == "" {
		for _, r := range s.state.reviews[key] {
			if r.GetState() == "PENDING" && r.GetUser().GetLogin() == c.user["login"] {
				return unprocessable("User can only have one pending review per pull request")
			}
		}
	}
	commitID := p.HeadSHA
	if req.CommitID != nil && *req.CommitID != "" {
		commitID = *req.CommitID
		if !s.state.pullSHAs[key][commitID] {
			return unprocessable("No commit found for SHA: " + commitID)
		}
	}

	// Resolve every comment first: one bad comment fails the whole review.
	var comments []*github.PullRequestComment
	var errs []string
	for _, dc := range req.Comments {
		pc, err := resolveComment(p, dc)
		if err != "" {
			errs = append(errs, err)
			continue
		}
		comments = append(comments, pc)
	}
	if len(errs) > 0 {
		return unprocessable(errs...)
	}

	reviewID := s.state.newID()
	pullURL := fmt.Sprintf("%s/pulls/%d", s.repoAPIURL(p.Owner, p.Repo), p.Number)
	htmlPull := fmt.Sprintf("https://github.com/%s/%s/pull/%d", p.Owner, p.Repo, p.Number)
	user := &github.User{}
	jsonRoundTrip(c.user, user)
	review := &github.PullRequestReview{
		ID:                github.Int64(reviewID),
		NodeID:            github.String(fmt.Sprintf("PRR_%d", reviewID)),
		User:              user,
		Body:              github.String(req.GetBody()),
		CommitID:          github.String(commitID),
		State:             github.String(reviewStates[event]),
		HTMLURL:           github.String(fmt.Sprintf("%s#pullrequestreview-%d", htmlPull, reviewID)),
		PullRequestURL:    github.String(pullURL),
		AuthorAssociation: github.String("NONE"),
	}
	if event != "" {
		review.SubmittedAt = now()
	}
	s.state.reviews[key] = append(s.state.reviews[key], review)
	rkey := rk(p.Owner, p.Repo)
	for _, pc := range comments {
		id := s.state.newID()
		pc.ID = github.Int64(id)
		pc.NodeID = github.String(fmt.Sprintf("PRRC_%d", id))
		pc.PullRequestReviewID = github.Int64(reviewID)
		pc.CommitID, pc.OriginalCommitID = github.String(commitID), github.String(commitID)
		pc.User = user
		pc.CreatedAt, pc.UpdatedAt = now(), now()
		pc.AuthorAssociation = github.String("NONE")
		pc.URL = github.String(fmt.Sprintf("%s/pulls/comments/%d", s.repoAPIURL(p.Owner, p.Repo), id))
		pc.HTMLURL = github.String(fmt.Sprintf("%s#discussion_r%d", htmlPull, id))
		pc.PullRequestURL = github.String(pullURL)
		s.state.reviewComments[rkey] = append(s.state.reviewComments[rkey], &reviewComment{pull: key, comment: pc})
	}
	m := fillSchema(responseSchema(c.in, http.StatusOK), review).(map[string]any)
	m["_links"] = map[string]any{"html": map[string]any{"href": *review.HTMLURL}, "pull_request": map[string]any{"href": pullURL}}
	return jsonResponse(http.StatusOK, m)
}

func (r *reviewRequest) GetBody() string {
	if r.Body == nil {
		return ""
	}
	return *r.Body
}

// resolveComment places a draft comment on the pull's diff, or returns the
// error GitHub gives for it.
func resolveComment(p *Pull, dc draftComment) (*github.PullRequestComment, string) {
	var file *File
	for i := range p.Files {
		if p.Files[i].Filename == dc.Path {
			file = &p.Files[i]
		}
	}
	if file == nil {
		return nil, "Path could not be resolved"
	}
	hunks, _ := parseHunks(file.Patch) // checked by AddPull
	pc := &github.PullRequestComment{
		Path:        github.String(dc.Path),
		Body:        github.String(dc.Body),
		Position:    dc.Position,
		SubjectType: github.String("line"),
	}
	switch {
	case dc.Line != nil:
		side := "RIGHT"
		if dc.Side != nil {
			side = *dc.Side
		}
		h := hunkAt(hunks, side, *dc.Line)
		if h < 0 {
			return nil, "Pull request review thread line must be part of the diff and Pull request review thread diff hunk can't be blank"
		}
		pc.Line, pc.OriginalLine, pc.Side = dc.Line, dc.Line, github.String(side)
		if dc.StartLine != nil {
			startSide := side
			if dc.StartSide != nil {
				startSide = *dc.StartSide
			}
			if *dc.StartLine > *dc.Line && startSide == side {
				return nil, "Pull request review thread start line must precede the end line"
			}
			if hunkAt(hunks, startSide, *dc.StartLine) != h {
				return nil, "Pull request review thread start line must be part of the same hunk as the line."
			}
			pc.StartLine, pc.OriginalStartLine, pc.StartSide = dc.StartLine, dc.StartLine, github.String(startSide)
		}
		pc.DiffHunk = github.String(diffHunk(file.Patch, h, side, *dc.Line))
	case dc.Position != nil:
		// Deprecated: position counts lines below the file's first hunk
		// header. Accepted as GitHub does; tests can see it was used.
		lines := strings.Split(strings.TrimSuffix(file.Patch, "\n"), "\n")
		if *dc.Position < 1 || *dc.Position >= len(lines) {
			return nil, "Pull request review thread position is invalid"
		}
		pc.OriginalPosition = dc.Position
		pc.DiffHunk = github.String(strings.Join(lines[:*dc.Position+1], "\n"))
	default:
		return nil, "Line could not be resolved"
	}
	return pc, ""
}

// hunkAt is the index of the hunk holding line on side, or -1.
func hunkAt(hunks []hunk, side string, line int) int {
	for i, h := range hunks {
		if h.contains(side, line) {
			return i
		}
	}
	return -1
}

// diffHunk is GitHub's diff_hunk of a comment: hunk h of patch from its
// header down to the commented line.
func diffHunk(patch string, h int, side string, line int) string {
	lines := strings.Split(strings.TrimSuffix(patch, "\n"), "\n")
	var out []string
	idx := -1
	var oldLine, newLine int
	for _, l := range lines {
		if strings.HasPrefix(l, "@@ ") {
			idx++
			if idx > h {
				break
			}
			var hk hunk
			parseRange(l, &hk)
			oldLine, newLine = hk.oldStart, hk.newStart
			out = []string{l}
			continue
		}
		if idx != h {
			continue
		}
		out = append(out, l)
		cur := newLine
		if side == "LEFT" {
			cur = oldLine
		}
		isOld, isNew := !strings.HasPrefix(l, "+"), !strings.HasPrefix(l, "-")
		if strings.HasPrefix(l, "\\") {
			isOld, isNew = false, false
		}
		if cur == line && ((side == "LEFT" && isOld) || (side != "LEFT" && isNew)) {
			break
		}
		if isOld {
			oldLine++
		}
		if isNew {
			newLine++
		}
	}
	return strings.Join(out, "\n")
}

func (s *Server) listReviewComments(c *call) *response {
	s.mu.Lock()
	defer s.mu.Unlock()
	number := int(c.intParam("pull_number"))
	if s.pull(c, number) == nil {
		return notFound()
	}
	var all []*github.PullRequestComment
	for _, rc := range s.state.reviewComments[rk(c.owner(), c.repo())] {
		if rc.pull.number == number {
			all = append(all, rc.comment)
		}
	}
	lo, hi, header := s.paginate(c, len(all))
	page := append([]*github.PullRequestComment{}, all[lo:hi]...)
	list := fillSchema(responseSchema(c.in, http.StatusOK), page).([]any)
	for i, e := range list {
		m := e.(map[string]any)
		m["_links"] = map[string]any{
			"self":         map[string]any{"href": page[i].GetURL()},
			"html":         map[string]any{"href": page[i].GetHTMLURL()},
			"pull_request": map[string]any{"href": page[i].GetPullRequestURL()},
		}
	}
	resp := jsonResponse(http.StatusOK, list)
	resp.header = header
	return resp
}

func (s *Server) deleteReviewComment(c *call) *response {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := rk(c.owner(), c.repo())
	id := c.intParam("comment_id")
	for i, rc := range s.state.reviewComments[k] {
		if rc.comment.GetID() == id {
			s.state.reviewComments[k] = append(s.state.reviewComments[k][:i:i], s.state.reviewComments[k][i+1:]...)
			return &response{status: http.StatusNoContent}
		}
	}
	return notFound()
}

// listReviews serves GET .../pulls/{n}/reviews, oldest first.
func (s *Server) listReviews(c *call) *response {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pull(c, int(c.intParam("pull_number")))
	if p == nil {
		return notFound()
	}
	all := s.state.reviews[pk(p.Owner, p.Repo, p.Number)]
	lo, hi, header := s.paginate(c, len(all))
	page := append([]*github.PullRequestReview{}, all[lo:hi]...)
	list := fillSchema(responseSchema(c.in, http.StatusOK), page).([]any)
	for i, e := range list {
		m := e.(map[string]any)
		m["_links"] = map[string]any{"html": map[string]any{"href": page[i].GetHTMLURL()}, "pull_request": map[string]any{"href": page[i].GetPullRequestURL()}}
	}
	resp := jsonResponse(http.StatusOK, list)
	resp.header = header
	return resp
}
