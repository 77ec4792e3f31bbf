package github

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/interleave-dev/interleave/report/github/cienv"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	gh "github.com/google/go-github/v60/github"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/report"
)

// CheckRunName is the name of the check run on the analysed commit.
const CheckRunName = "interleave"

// ActionSearchMore is the identifier of the check run's "Search 10 more min"
// button. A click sends a check_run requested_action webhook with this
// identifier to the App, which reruns the dynamic search; it is the
// contract between the publisher and the App server.
const ActionSearchMore = "search-10m"

// The button's texts; GitHub allows 20 characters for the label and 40 for
// the description.
const (
	actionSearchMoreLabel       = "Search 10 more min"
	actionSearchMoreDescription = "Run the concurrency search 10 more min"
)

// GitHub limits, from its OpenAPI description and documentation.
const (
	// POST/PATCH check-runs: output.annotations maxItems 50.
	// https://docs.github.com/rest/checks/runs#update-a-check-run
	maxAnnotationsPerRequest = 50
	// Annotation message and raw_details: 64 KB; title: 255 characters.
	maxAnnotationMessage = 64 << 10
	maxAnnotationTitle   = 255
	// Check run output.summary and output.text: 65,535 characters.
	maxCheckRunText = 65535
	// Issue and review comment bodies: 65,536 characters (422 "Body is too long").
	maxCommentBody = 65536
	// $GITHUB_STEP_SUMMARY: cienv.MaxStepSummary.
	// Workflow command messages are cut by the runner at about 4,096 characters.
	maxWorkflowMessage = 4096
	// SARIF uploads: 10 MB gzip-compressed.
	// https://docs.github.com/code-security/code-scanning/troubleshooting-sarif-uploads/file-too-large
	maxSARIFGzip = 10 << 20
)

// Our own bounds.
const (
	// maxReviewComments is reviewdog's cap per review: more comments in one
	// review trip GitHub's abuse detection, and reviewers stop reading.
	maxReviewComments = 30
	// maxAnnotations bounds the check run's annotations: each 50 cost one
	// content-creating request, of which the hour allows 500.
	maxAnnotations = 1000
	// maxReviewAttempts bounds the review POSTs made while looking for the
	// comments GitHub rejects with 422.
	maxReviewAttempts = 10
	// shownPerLevel: GitHub shows 10 workflow-command annotations per level
	// per step (and 50 per job); the rest are dropped silently.
	shownPerLevel = 10
)

// DefaultReplayCommand is the replay command base when Input has none.
const DefaultReplayCommand = "interleave replay"

// Input is what Publish posts, and where.
type Input struct {
	Owner, Repo string
	Number      int    // pull request; 0 posts the check run only
	HeadSHA     string // the analysed commit
	Report      *report.JSONReport
	Summary     string // markdown from interleave pr -summary; empty renders one
	SARIF       []byte // optional
	FailOn      checks.Severity

	CheckRun    bool // post the check run with annotations
	Review      bool // post the review, its comments and the sticky summary
	UploadSARIF bool // upload SARIF to code scanning

	ToolVersion   string
	ReplayCommand string // base of the replay command; empty means DefaultReplayCommand
	Root          string // directory schedule files are relative to
	DetailsURL    string // optional link of the check run, e.g. the workflow run

	// ExternalID, when set, makes posting idempotent: it is stored as the
	// check run's external_id, and the run is completed only after
	// everything else was posted. A later Publish with the same key finds
	// the completed run and posts nothing, or finds the run unfinished (the
	// poster died) and resumes it instead of posting a second one. Needs
	// CheckRun; see CheckExternalID for its form.
	ExternalID string

	StepSummary string    // path of $GITHUB_STEP_SUMMARY; empty writes none
	Stdout      io.Writer // where workflow commands go in the fallback; nil means os.Stdout
	Now         func() time.Time
}

func (in *Input) replayBase() string {
	if in.ReplayCommand == "" {
		return DefaultReplayCommand
	}
	return oneLine(in.ReplayCommand)
}

// Result says what Publish did.
type Result struct {
	CheckRunID  int64
	Conclusion  string
	Annotations int // sent on the check run

	// AlreadyPosted: a completed check run carries Input.ExternalID, so
	// nothing was posted. Resumed: an unfinished one did, and was resumed.
	AlreadyPosted bool
	Resumed       bool

	ReviewID     int64
	Comments     int      // review comments posted
	Duplicates   int      // findings already commented on an earlier push
	Deleted      int      // outdated comments deleted
	KeptOutdated int      // outdated comments kept because someone replied
	Folded       int      // over maxReviewComments, listed in the review body
	OutsideDiff  int      // not on a diff line, listed in the summary
	Dropped      []string // comments GitHub rejected (422), as "file:line rule"

	SummaryCommentID int64
	SummaryEdited    bool // an earlier summary comment was edited

	SARIFID     string
	StepSummary bool // the job summary was written

	Fallback         bool // workflow-command annotations were printed
	WorkflowCommands int
	Notes            []string // what went wrong or was degraded, for people
}

// publisher is the state of one Publish call.
type publisher struct {
	c        *gh.Client
	in       Input
	res      *Result
	findings []report.JSONFinding // most severe first, then by position

	checkSummary string       // the check run's output.summary, once rendered
	self         string       // login our comments appear under, once known
	resume       *gh.CheckRun // an unfinished run of an earlier post with the same key
	// openRun is a check run created or resumed under Input.ExternalID and
	// not completed yet; completeCheckRun completes it last.
	openRun int64
}

// Publish posts the findings on the pull request: the check run, one
// review, the sticky summary comment and the SARIF upload, as Input's
// toggles say, and appends the job summary. A nil client, or a token that
// may not write (a fork's pull request), degrades to workflow-command
// annotations and the job summary; lack of permission is never an error.
// Other failures are returned after everything else was tried.
func Publish(ctx context.Context, c *gh.Client, in Input) (*Result, error) {
	if in.Report == nil {
		return nil, errors.New("publish: no report")
	}
	if err := CheckReport(in.Report); err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	if c != nil && (in.Owner == "" || in.Repo == "") {
		return nil, errors.New("publish: repository owner and name are required")
	}
	if c != nil && in.HeadSHA == "" && (in.CheckRun || in.Review || in.UploadSARIF) {
		return nil, errors.New("publish: the analysed commit (head SHA) is required")
	}
	if in.ExternalID != "" {
		if err := CheckExternalID(in.ExternalID); err != nil {
			return nil, fmt.Errorf("publish: %w", err)
		}
		if !in.CheckRun {
			return nil, errors.New("publish: an external id needs the check run, which carries it")
		}
	}
	if in.Stdout == nil {
		in.Stdout = os.Stdout
	}
	if in.Now == nil {
		in.Now = time.Now
	}
	p := &publisher{c: c, in: in, res: &Result{}}
	p.findings = append([]report.JSONFinding(nil), in.Report.Findings...)
	sort.SliceStable(p.findings, func(i, j int) bool {
		a, b := &p.findings[i], &p.findings[j]
		if a.Severity != b.Severity {
			return a.Severity > b.Severity
		}
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		return a.Pos.Line < b.Pos.Line
	})

	var errs []error
	// step runs one posting step; it reports whether GitHub refused it for
	// lack of permission.
	step := func(name string, f func(context.Context) error) (denied bool) {
		err := f(ctx)
		if err == nil {
			return false
		}
		if reason, ok := permissionDenied(err); ok {
			p.note("%s was not posted: %s", name, reason)
			return true
		}
		errs = append(errs, fmt.Errorf("%s: %w", name, err))
		return false
	}
	checkDenied, reviewDenied := false, false
	if c == nil {
		p.note("no GitHub token: findings are shown as workflow-command annotations and in the job summary")
	} else {
		if in.ExternalID != "" {
			done, err := p.lookupKeyed(ctx)
			if reason, denied := permissionDenied(err); denied {
				p.note("earlier posts with external id %s could not be looked up: %s", in.ExternalID, reason)
			} else if err != nil {
				return p.res, fmt.Errorf("publish: %w", err) // posting blind could post twice
			}
			if done {
				return p.res, nil
			}
		}
		if in.CheckRun {
			checkDenied = step("check run", p.postCheckRun)
		}
		if in.Review && in.Number > 0 {
			reviewDenied = step("review", p.postReview)
		}
		if in.UploadSARIF {
			step("SARIF upload", p.uploadSARIF)
		}
	}
	// Annotations must reach the pull request somehow: when neither the
	// check run nor the review could be posted, the runner shows them.
	if c == nil || (p.res.CheckRunID == 0 && (checkDenied || reviewDenied)) {
		p.workflowCommands()
	}
	if c != nil && in.Review && in.Number > 0 && !reviewDenied {
		step("summary comment", p.postSummaryComment)
	}
	if p.openRun != 0 {
		step("check run", p.completeCheckRun)
	}
	if err := p.writeStepSummary(); err != nil {
		errs = append(errs, err)
	}
	return p.res, errors.Join(errs...)
}

func (p *publisher) note(format string, args ...any) {
	p.res.Notes = append(p.res.Notes, fmt.Sprintf(format, args...))
}

// permissionDenied reports whether err is GitHub refusing a write for lack
// of permission: 401, 403 (not a rate limit) or 404, as a fork's read-only
// token gets.
func permissionDenied(err error) (string, bool) {
	var er *gh.ErrorResponse
	if !errors.As(err, &er) || er.Response == nil {
		return "", false
	}
	switch er.Response.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
		msg := er.Message
		if msg == "" {
			msg = http.StatusText(er.Response.StatusCode)
		}
		return fmt.Sprintf("%d %s", er.Response.StatusCode, msg), true
	}
	return "", false
}

// isValidationFailed reports whether err is a 422.
func isValidationFailed(err error) bool {
	var er *gh.ErrorResponse
	return errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusUnprocessableEntity
}

// conclusion is failure when a finding reaches fail-on, neutral when there
// are findings below it, success when there are none.
func (p *publisher) conclusion() string {
	worst, any := checks.Note, false
	for _, f := range p.findings {
		any = true
		worst = max(worst, f.Severity)
	}
	switch {
	case !any:
		return "success"
	case worst >= p.in.FailOn:
		return "failure"
	}
	return "neutral"
}

// headline is "3 findings: 1 error, 2 warnings", or that there are none.
func (p *publisher) headline() string {
	if len(p.findings) == 0 {
		return "No concurrency findings"
	}
	n := map[checks.Severity]int{}
	for _, f := range p.findings {
		n[f.Severity]++
	}
	var parts []string
	for _, s := range []checks.Severity{checks.Error, checks.Warning, checks.Note} {
		if n[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[s], checks.Plural(n[s], s.String())))
		}
	}
	return fmt.Sprintf("%d %s: %s", len(p.findings), checks.Plural(len(p.findings), "finding"), strings.Join(parts, ", "))
}

// summaryMarkdown is the caller's summary, or one rendered from the
// findings with report.Markdown.
func (p *publisher) summaryMarkdown() string {
	if strings.TrimSpace(p.in.Summary) != "" {
		return p.in.Summary
	}
	r := &report.Report{Root: p.in.Root, ToolVersion: p.in.ToolVersion, Notes: p.in.Report.Notes}
	for _, f := range p.findings {
		if isDynamic(&f.Finding) && f.Replay == "" {
			f.Replay = p.replayCommand(&f.Finding)
		}
		if f.Schedule != "" && p.scheduleUnsafe(f.Schedule) {
			f.Schedule = "" // report.Markdown would paste it
		}
		r.Findings = append(r.Findings, f.Finding)
	}
	var b bytes.Buffer
	if err := (report.Markdown{}).Write(&b, r); err != nil {
		return "## interleave\n\n" + p.headline() + ".\n"
	}
	return b.String()
}

// notesMarkdown lists the notes, or is empty.
func (p *publisher) notesMarkdown() string {
	if len(p.res.Notes) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\n---\n\n**Posting notes**\n\n")
	for _, n := range p.res.Notes {
		fmt.Fprintf(&b, "- %s\n", mdEscape(oneLine(n)))
	}
	return b.String()
}

// workflowCommands prints one workflow command per finding with a
// position, most severe first, and says how many GitHub will show.
func (p *publisher) workflowCommands() {
	w := p.in.Stdout
	n := 0
	for i := range p.findings {
		f := &p.findings[i]
		if !f.Pos.IsValid() {
			continue
		}
		fmt.Fprintln(w, workflowCommand(f, p.in.replayBase()))
		n++
	}
	p.res.Fallback, p.res.WorkflowCommands = true, n
	if n > 0 {
		where := "the job summary"
		if p.in.StepSummary == "" {
			where = "the report"
		}
		fmt.Fprintf(w, "interleave: %d annotations printed; GitHub shows only %d per level (error, warning, notice) per step and 50 per job, so see %s for all of them\n", n, shownPerLevel, where)
	}
	p.note("annotations were printed as workflow commands (%d)", n)
}

// writeStepSummary appends the summary to $GITHUB_STEP_SUMMARY, keeping
// the file within cienv.MaxStepSummary.
func (p *publisher) writeStepSummary() error {
	if p.in.StepSummary == "" {
		return nil
	}
	room := cienv.StepSummaryRoom(p.in.StepSummary) - 1
	if room <= 256 {
		p.note("the job summary file is full (%d bytes); nothing appended", cienv.MaxStepSummary-room-1)
		return nil
	}
	text := truncate(p.summaryMarkdown()+p.notesMarkdown(), room, "job summary")
	if err := cienv.AppendStepSummary(p.in.StepSummary, text+"\n"); err != nil {
		return fmt.Errorf("job summary %s: %w", p.in.StepSummary, err)
	}
	p.res.StepSummary = true
	return nil
}

// postSummaryComment creates the sticky summary comment, or edits the one
// an earlier run created.
func (p *publisher) postSummaryComment(ctx context.Context) error {
	body := truncate(summaryMarker+"\n"+defang(p.summaryMarkdown())+p.notesMarkdown(), maxCommentBody, "summary")
	c, err := p.findSummaryComment(ctx)
	if err != nil {
		return err
	}
	if c != nil {
		p.res.SummaryCommentID = c.GetID()
		if c.GetBody() == body {
			return nil
		}
		if _, _, err := p.c.Issues.EditComment(ctx, p.in.Owner, p.in.Repo, c.GetID(), &gh.IssueComment{Body: &body}); err != nil {
			return fmt.Errorf("edit comment %d: %w", c.GetID(), err)
		}
		p.res.SummaryEdited = true
		return nil
	}
	created, _, err := p.c.Issues.CreateComment(ctx, p.in.Owner, p.in.Repo, p.in.Number, &gh.IssueComment{Body: &body})
	if err != nil {
		return fmt.Errorf("create comment: %w", err)
	}
	p.learnSelf(created.GetUser().GetLogin())
	p.res.SummaryCommentID = created.GetID()
	return nil
}

// findSummaryComment returns the first comment of ours carrying
// summaryMarker; a person's comment quoting the marker is left alone.
func (p *publisher) findSummaryComment(ctx context.Context) (*gh.IssueComment, error) {
	opts := &gh.IssueListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100}}
	for {
		cs, resp, err := p.c.Issues.ListComments(ctx, p.in.Owner, p.in.Repo, p.in.Number, opts)
		if err != nil {
			return nil, fmt.Errorf("list comments: %w", err)
		}
		for _, c := range cs {
			if strings.HasPrefix(c.GetBody(), summaryMarker) && p.ours(c.GetUser()) {
				return c, nil
			}
		}
		if resp.NextPage == 0 {
			return nil, nil
		}
		opts.Page = resp.NextPage
	}
}
