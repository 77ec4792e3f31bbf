package main

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/interleave-dev/interleave/report/github/cienv"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/internal/flagvalue"
	"github.com/interleave-dev/interleave/report"
	ghreport "github.com/interleave-dev/interleave/report/github"
)

func init() {
	register(&command{
		name:  "post",
		short: "Post a report's findings on a GitHub pull request",
		usage: "-report FILE.json [-summary FILE.md] [-sarif FILE.sarif] [-repo OWNER/NAME] [-pr N] [-sha SHA] [-external-id KEY] [flags]",
		run: func(ctx context.Context, env *cliEnv, args []string) int {
			opts, code, ok := parsePostFlags(env, args, os.Getenv)
			if !ok {
				return code
			}
			return runPost(ctx, env, opts)
		},
	})
}

// Input bounds: the report may be an artifact of an untrusted run.
const (
	maxSummaryBytes = 16 << 20
	maxSARIFBytes   = 50 << 20
)

// postOptions is everything interleave post takes from its command line,
// the environment and the GitHub event.
type postOptions struct {
	Report, Summary, SARIF string
	Owner, Repo            string
	PR                     int
	SHA                    string
	FailOn                 checks.Severity
	Check, Review          bool
	UploadSARIF            bool
	ExternalID             string // idempotency key: posting again with it posts nothing

	Token             string // $GITHUB_TOKEN; never a flag, so it stays out of process lists and logs
	APIURL, ServerURL string // $GITHUB_API_URL, $GITHUB_SERVER_URL
	StepSummary       string // $GITHUB_STEP_SUMMARY
	DetailsURL        string // this workflow run, when known
	// VerifyHead makes the run check, before posting, that the pull
	// request's head is still SHA: set for workflow_run, whose report is an
	// untrusted artifact.
	VerifyHead bool
	Notes      []string // where the pull request and commit came from

	clock ghreport.Clock // tests inject a fake one
}

var postRepoRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)

// parsePostFlags parses args; getenv supplies the GitHub Actions
// environment. ok is false when the command should return code.
func parsePostFlags(env *cliEnv, args []string, getenv func(string) string) (opts *postOptions, code int, ok bool) {
	opts = &postOptions{}
	fs := newFlagSet(env, commands["post"])
	fs.StringVar(&opts.Report, "report", "", "JSON report `file` to post, from interleave pr -format json (required)")
	fs.StringVar(&opts.Summary, "summary", "", "Markdown summary `file` from interleave pr -summary, for the summary comment, check run and job summary")
	fs.StringVar(&opts.SARIF, "sarif", "", "SARIF `file` from interleave pr -sarif, uploaded with -upload-sarif")
	repo := fs.String("repo", "", "Repository as `owner/name` (default $GITHUB_REPOSITORY)")
	fs.IntVar(&opts.PR, "pr", 0, "Pull request `number` (default from the event at $GITHUB_EVENT_PATH)")
	fs.StringVar(&opts.SHA, "sha", "", "The analysed `commit` (default the pull request's head from the event)")
	failOn := &flagvalue.Choice{Value: "warning", Allowed: []string{"note", "warning", "error"}}
	fs.Var(failOn, "fail-on", "The check run fails when a finding has at least this `severity`: note, warning, error")
	fs.BoolVar(&opts.Check, "check", true, "Post a check run with annotations")
	fs.BoolVar(&opts.Review, "review", true, "Post a review with comments on diff lines, and the summary comment")
	fs.StringVar(&opts.ExternalID, "external-id", "", "Idempotency `key`, stored as the check run's external_id: a later post with the same key on the same commit posts nothing when that run is completed, and finishes it when an earlier post died half-way")
	fs.BoolVar(&opts.UploadSARIF, "upload-sarif", false, "Upload -sarif to code scanning (needs security-events: write); github/codeql-action/upload-sarif accepts the same file")
	if code, ok := parseFlags(fs, args); !ok {
		return nil, code, false
	}
	bad := func(format string, a ...any) (*postOptions, int, bool) {
		fmt.Fprintf(env.stderr, "interleave post: "+format+"\n", a...)
		return nil, exitError, false
	}
	if fs.NArg() > 0 {
		return bad("unexpected arguments %q", fs.Args())
	}
	if opts.Report == "" {
		fs.Usage()
		return bad("-report is required")
	}
	if opts.UploadSARIF && opts.SARIF == "" {
		return bad("-upload-sarif needs -sarif FILE")
	}
	if opts.ExternalID != "" {
		if err := ghreport.CheckExternalID(opts.ExternalID); err != nil {
			return bad("-external-id: %v", err)
		}
		if !opts.Check {
			return bad("-external-id needs the check run, which carries the key: drop -check=false")
		}
	}
	sev, err := checks.ParseSeverity(failOn.Value)
	if err != nil {
		return bad("%v", err)
	}
	opts.FailOn = sev
	opts.Token = strings.TrimSpace(getenv("GITHUB_TOKEN"))
	opts.APIURL, opts.ServerURL = getenv("GITHUB_API_URL"), getenv("GITHUB_SERVER_URL")
	opts.StepSummary = getenv("GITHUB_STEP_SUMMARY")

	if *repo == "" {
		*repo = getenv("GITHUB_REPOSITORY")
	}
	if *repo == "" {
		return bad("no repository: pass -repo OWNER/NAME or set $GITHUB_REPOSITORY")
	}
	if !postRepoRE.MatchString(*repo) {
		return bad("repository %q is not OWNER/NAME", *repo)
	}
	opts.Owner, opts.Repo, _ = strings.Cut(*repo, "/")
	if opts.PR < 0 {
		return bad("-pr must be positive, got %d", opts.PR)
	}
	if opts.SHA != "" && !isSHA(opts.SHA) {
		return bad("-sha %q is not a commit hash", opts.SHA)
	}
	ev, err := cienv.ReadEvent(getenv)
	if err == nil && ev != nil {
		err = opts.fromEvent(ev)
	}
	if err != nil {
		return bad("%v", err)
	}
	if opts.PR == 0 && opts.Review {
		return bad("no pull request: pass -pr N, run on a pull_request event, or pass -review=false to post the check run only")
	}
	if opts.SHA == "" {
		return bad("no analysed commit: pass -sha SHA (the event does not name it)")
	}
	if server, id := getenv("GITHUB_SERVER_URL"), getenv("GITHUB_RUN_ID"); server != "" && id != "" {
		opts.DetailsURL = fmt.Sprintf("%s/%s/%s/actions/runs/%s", strings.TrimSuffix(server, "/"), opts.Owner, opts.Repo, id)
	}
	return opts, 0, true
}

// fromEvent fills the pull request and commit from the workflow's event;
// flags given on the command line take precedence, except that in a
// workflow_run the commit is the run's head and -sha must agree with it.
func (o *postOptions) fromEvent(ev *cienv.Event) error {
	path, name := ev.Path, ev.Name
	switch name {
	case "pull_request", "pull_request_target":
		if ev.PullRequest == nil {
			return fmt.Errorf("GitHub event payload %s is a %s event without a pull_request object", path, name)
		}
		if o.PR == 0 {
			o.PR = ev.PullRequest.Number
		}
		if o.SHA == "" {
			if !isSHA(ev.PullRequest.Head.SHA) {
				return fmt.Errorf("GitHub event payload %s: pull_request.head.sha %q is not a commit hash", path, ev.PullRequest.Head.SHA)
			}
			o.SHA = ev.PullRequest.Head.SHA
		}
		o.Notes = append(o.Notes, fmt.Sprintf("pull request #%d, commit %.12s (from the %s event)", o.PR, o.SHA, name))
	case "issue_comment":
		if ev.Issue == nil || ev.Issue.PullRequest == nil || string(*ev.Issue.PullRequest) == "null" {
			return fmt.Errorf("the issue_comment event is not on a pull request: nothing to post on")
		}
		if o.PR == 0 {
			o.PR = ev.Issue.Number
		}
		if o.SHA == "" {
			return fmt.Errorf("an issue_comment event does not name the analysed commit: pass -sha with the commit interleave pr analysed")
		}
	case "workflow_run":
		wr := ev.WorkflowRun
		if wr == nil || !isSHA(wr.HeadSHA) {
			return fmt.Errorf("GitHub event payload %s is a workflow_run event without a workflow_run.head_sha commit hash", path)
		}
		if o.SHA != "" && o.SHA != wr.HeadSHA {
			return fmt.Errorf("-sha %.12s is not the head %.12s of the workflow run that produced the report", o.SHA, wr.HeadSHA)
		}
		o.SHA = wr.HeadSHA
		if o.PR == 0 && len(wr.PullRequests) == 1 {
			o.PR = wr.PullRequests[0].Number
		}
		o.VerifyHead = true
		o.Notes = append(o.Notes, fmt.Sprintf("commit %.12s from the workflow run; pull request #%d is checked to have it as head", o.SHA, o.PR))
	case "":
		return fmt.Errorf("$GITHUB_EVENT_PATH is set but $GITHUB_EVENT_NAME is not")
	default:
		if o.PR == 0 || o.SHA == "" {
			return fmt.Errorf("the %s event is not about a pull request: pass -pr and -sha", name)
		}
	}
	return nil
}

// postReadFile reads a file of at most limit bytes.
func postReadFile(path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s %s is not a regular file", what, path)
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%s %s is %d bytes, more than the %d accepted", what, path, st.Size(), limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s %s is more than the %d bytes accepted", what, path, limit)
	}
	return b, nil
}

// loadPostReport reads and checks the JSON report.
func loadPostReport(path string) (*report.JSONReport, error) {
	b, err := postReadFile(path, ghreport.MaxReportBytes, "report")
	if err != nil {
		return nil, err
	}
	var r report.JSONReport
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("report %s is not interleave's JSON (interleave pr -format json): %v", path, err)
	}
	if err := ghreport.CheckReport(&r); err != nil {
		return nil, fmt.Errorf("report %s: %w", path, err)
	}
	return &r, nil
}

func runPost(ctx context.Context, env *cliEnv, opts *postOptions) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(env.stderr, "interleave post: "+format+"\n", a...)
		return exitError
	}
	rep, err := loadPostReport(postPath(env.dir, opts.Report))
	if err != nil {
		return fail("%v", err)
	}
	in := ghreport.Input{
		Owner: opts.Owner, Repo: opts.Repo, Number: opts.PR, HeadSHA: opts.SHA,
		Report: rep, FailOn: opts.FailOn,
		CheckRun: opts.Check, Review: opts.Review, UploadSARIF: opts.UploadSARIF,
		ToolVersion: rep.Tool.Version, Root: env.dir, DetailsURL: opts.DetailsURL,
		StepSummary: opts.StepSummary, Stdout: env.stdout, ExternalID: opts.ExternalID,
	}
	if opts.Summary != "" {
		b, err := postReadFile(postPath(env.dir, opts.Summary), maxSummaryBytes, "summary")
		if err != nil {
			return fail("%v", err)
		}
		in.Summary = string(b)
	}
	if opts.SARIF != "" {
		b, err := postReadFile(postPath(env.dir, opts.SARIF), maxSARIFBytes, "SARIF file")
		if err != nil {
			return fail("%v", err)
		}
		if !json.Valid(b) {
			return fail("SARIF file %s is not valid JSON", opts.SARIF)
		}
		in.SARIF = b
	}
	for _, n := range opts.Notes {
		fmt.Fprintf(env.stderr, "interleave post: %s\n", n)
	}

	var res *ghreport.Result
	if opts.Token == "" {
		fmt.Fprintln(env.stderr, "interleave post: $GITHUB_TOKEN is not set: printing workflow-command annotations instead of posting")
		res, err = ghreport.Publish(ctx, nil, in)
	} else {
		client, cerr := ghreport.NewClient(ghreport.ClientOptions{Token: opts.Token, APIURL: opts.APIURL, ServerURL: opts.ServerURL, Clock: opts.clock,
			Logf: func(format string, a ...any) { fmt.Fprintf(env.stderr, "interleave post: "+format+"\n", a...) }})
		if cerr != nil {
			return fail("%v", cerr)
		}
		if opts.VerifyHead {
			if opts.PR == 0 {
				return fail("a workflow_run event needs -pr N: fork pull requests are not listed in the event")
			}
			if err := ghreport.VerifyPullHead(ctx, client, opts.Owner, opts.Repo, opts.PR, opts.SHA); err != nil {
				return fail("%v", err)
			}
		}
		res, err = ghreport.Publish(ctx, client, in)
	}
	if res != nil {
		printPostResult(env.stderr, res, opts.ExternalID)
	}
	if err != nil {
		return fail("%v", err)
	}
	return exitOK
}

func postPath(dir, path string) string {
	if filepath.IsAbs(path) || dir == "" {
		return path
	}
	return filepath.Join(dir, path)
}

// printPostResult says what was posted, one line per kind; key is the
// -external-id.
func printPostResult(w io.Writer, r *ghreport.Result, key string) {
	say := func(format string, a ...any) { fmt.Fprintf(w, "interleave post: "+format+"\n", a...) }
	if r.AlreadyPosted {
		say("already posted: check run %d with external id %s is completed (%s); nothing posted again", r.CheckRunID, key, r.Conclusion)
		return
	}
	if r.Resumed {
		say("resuming check run %d with external id %s, left unfinished by an earlier post", r.CheckRunID, key)
	}
	if r.CheckRunID != 0 {
		conclusion := r.Conclusion
		if conclusion == "" {
			conclusion = "not completed"
		}
		say("check run %d: %s, %d annotations", r.CheckRunID, conclusion, r.Annotations)
	}
	if r.ReviewID != 0 || r.Duplicates+r.Deleted+r.KeptOutdated+r.Folded+r.OutsideDiff > 0 {
		var parts []string
		for _, p := range []struct {
			n    int
			what string
		}{{r.Duplicates, "already posted"}, {r.Deleted, "outdated deleted"}, {r.KeptOutdated, "outdated kept (replied)"},
			{r.Folded, "folded into the review body"}, {r.OutsideDiff, "not on the diff"}, {len(r.Dropped), "rejected by GitHub"}} {
			if p.n > 0 {
				parts = append(parts, strconv.Itoa(p.n)+" "+p.what)
			}
		}
		review := "no new review"
		if r.ReviewID != 0 {
			review = fmt.Sprintf("review %d with %d comments", r.ReviewID, r.Comments)
		}
		if len(parts) > 0 {
			review += "; " + strings.Join(parts, ", ")
		}
		say("%s", review)
	}
	if r.SummaryCommentID != 0 {
		verb := "posted"
		if r.SummaryEdited {
			verb = "updated"
		}
		say("summary comment %d %s", r.SummaryCommentID, verb)
	}
	if r.SARIFID != "" {
		say("SARIF uploaded: %s", r.SARIFID)
	}
	if r.StepSummary {
		say("job summary written")
	}
	for _, n := range r.Notes {
		say("%s", n)
	}
}
