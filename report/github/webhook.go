package github

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	gh "github.com/google/go-github/v60/github"
)

// MaxWebhookBody is the largest delivery accepted; GitHub caps payloads at
// 25 MB.
const MaxWebhookBody = 25 << 20

// SearchMoreIdentifier is the identifier of the check run's "Search 10 more
// min" button that the App acts on; a click arrives as check_run
// requested_action. It must equal ActionSearchMore, the button post creates.
const SearchMoreIdentifier = "search-10m"

// SearchMoreBudget is the budget a click on that button asks for.
const SearchMoreBudget = 10 * time.Minute

// WebhookError is a delivery refused before it was parsed; Status is the
// HTTP status to answer with.
type WebhookError struct {
	Status int
	Reason string
}

func (e *WebhookError) Error() string { return e.Reason }

// Delivery is an authenticated webhook delivery.
type Delivery struct {
	ID      string // X-GitHub-Delivery
	Event   string // X-GitHub-Event
	Payload []byte // the JSON body
}

// VerifyWebhook reads r's body (at most maxBody bytes) and checks its
// X-Hub-Signature-256 HMAC against secret in constant time. The SHA-1
// X-Hub-Signature is never enough: go-github's ValidatePayload falls back to
// it, so the check is done here. Errors are *WebhookError.
func VerifyWebhook(r *http.Request, secret []byte, maxBody int64) (*Delivery, error) {
	if len(secret) == 0 {
		return nil, &WebhookError{http.StatusInternalServerError, "no webhook secret configured"}
	}
	sig := r.Header.Get(gh.SHA256SignatureHeader)
	if sig == "" {
		return nil, &WebhookError{http.StatusUnauthorized, "missing X-Hub-Signature-256 header"}
	}
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || (mediaType != "application/json" && mediaType != "application/x-www-form-urlencoded") {
		return nil, &WebhookError{http.StatusUnsupportedMediaType, fmt.Sprintf("unsupported content type %q: want application/json", r.Header.Get("Content-Type"))}
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return nil, &WebhookError{http.StatusBadRequest, "reading body: " + err.Error()}
	}
	if int64(len(body)) > maxBody {
		return nil, &WebhookError{http.StatusRequestEntityTooLarge, fmt.Sprintf("body larger than %d bytes", maxBody)}
	}
	hexSig, ok := strings.CutPrefix(sig, "sha256=")
	got, err := hex.DecodeString(hexSig)
	if !ok || err != nil || len(got) != sha256.Size {
		return nil, &WebhookError{http.StatusUnauthorized, "malformed X-Hub-Signature-256 header"}
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	if !hmac.Equal(got, mac.Sum(nil)) {
		return nil, &WebhookError{http.StatusUnauthorized, "signature does not match"}
	}
	d := &Delivery{ID: r.Header.Get(gh.DeliveryIDHeader), Event: r.Header.Get(gh.EventTypeHeader), Payload: body}
	if d.Event == "" || d.ID == "" {
		return nil, &WebhookError{http.StatusBadRequest, "missing X-GitHub-Event or X-GitHub-Delivery header"}
	}
	if mediaType == "application/x-www-form-urlencoded" {
		form, err := url.ParseQuery(string(body))
		if err != nil || form.Get("payload") == "" {
			return nil, &WebhookError{http.StatusBadRequest, "form body without a payload field"}
		}
		d.Payload = []byte(form.Get("payload"))
	}
	return d, nil
}

// TriggerKind is what a delivery asks interleave to do.
type TriggerKind string

const (
	TriggerPullRequest TriggerKind = "pull_request" // a pull request opened or pushed to
	TriggerCommand     TriggerKind = "command"      // a /retest-concurrency comment
	TriggerCheckRun    TriggerKind = "check_run"    // a check run's button or re-run
)

// Trigger is a delivery that may start a search. Commands and check-run
// clicks still need the sender's permission checked and, for commands, the
// head SHA read from the API.
type Trigger struct {
	Kind           TriggerKind
	Event, Action  string
	InstallationID int64
	Owner, Repo    string
	PR             int    // 0 for check runs until mapped from HeadSHA
	BaseSHA        string // pull_request only
	HeadSHA        string // pull_request and check_run
	Sender         string // who asked: the comment's author or the clicker
	CommentID      int64  // command only
	CommandError   string // command only: why its options are malformed
	Budget         time.Duration
	Run            string
	CheckRunID     int64
	// Pull requests only: the author, whether the head is in another
	// repository (a fork), and the label a labeled action added.
	Author string
	Fork   bool
	Label  string
	// DedupeKey identifies the request across redeliveries: the comment and
	// action for commands.
	DedupeKey string
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
var shaRE = regexp.MustCompile(`^[0-9a-f]{40}$`)

// ParseTrigger decides what a verified delivery asks for. A nil trigger with
// a reason means the delivery is ignored (ping, closed pull requests, edited
// comments, comments without the command, bots). err means the payload is
// malformed.
func ParseTrigger(event string, payload []byte) (t *Trigger, ignored string, err error) {
	if event == "ping" {
		return nil, "ping", nil
	}
	ev, err := gh.ParseWebHook(event, payload)
	var pe *time.ParseError
	if errors.As(err, &pe) {
		// Some deliveries (and GitHub's own examples) carry timestamps such
		// as "2018-04-25 20:42:10" in fields interleave never reads.
		if fixed, ok := normalizeTimestamps(payload); ok {
			ev, err = gh.ParseWebHook(event, fixed)
		}
	}
	if err != nil {
		if strings.Contains(err.Error(), "unknown X-Github-Event") {
			return nil, "event " + event + " is not handled", nil
		}
		return nil, "", fmt.Errorf("parsing %s payload: %w", event, err)
	}
	switch e := ev.(type) {
	case *gh.PullRequestEvent:
		return pullRequestTrigger(e)
	case *gh.IssueCommentEvent:
		return commandTrigger(e)
	case *gh.CheckRunEvent:
		return checkRunTrigger(e)
	}
	return nil, "event " + event + " is not handled", nil
}

func pullRequestTrigger(e *gh.PullRequestEvent) (*Trigger, string, error) {
	switch e.GetAction() {
	case "opened", "synchronize", "reopened", "labeled":
	default:
		return nil, "pull_request " + e.GetAction() + " starts nothing", nil
	}
	pr := e.GetPullRequest()
	t := &Trigger{
		Kind: TriggerPullRequest, Event: "pull_request", Action: e.GetAction(),
		PR: e.GetNumber(), BaseSHA: pr.GetBase().GetSHA(), HeadSHA: pr.GetHead().GetSHA(),
		Sender: e.GetSender().GetLogin(), Author: pr.GetUser().GetLogin(), Label: e.GetLabel().GetName(),
		// A deleted fork has no head repository: still a fork.
		Fork: pr.GetHead().GetRepo().GetFullName() == "" || !strings.EqualFold(pr.GetHead().GetRepo().GetFullName(), e.GetRepo().GetFullName()),
	}
	if t.PR == 0 {
		t.PR = pr.GetNumber()
	}
	if pr.GetState() != "" && pr.GetState() != "open" {
		return nil, "pull request is " + pr.GetState(), nil
	}
	return t, "", fillRepo(t, e.GetRepo(), e.GetInstallation())
}

func commandTrigger(e *gh.IssueCommentEvent) (*Trigger, string, error) {
	if e.GetAction() != "created" {
		return nil, "issue_comment " + e.GetAction() + " starts nothing (only new comments count)", nil
	}
	if !e.GetIssue().IsPullRequest() {
		return nil, "comment on an issue, not a pull request", nil
	}
	if e.GetIssue().GetState() != "open" {
		return nil, "pull request is " + e.GetIssue().GetState(), nil
	}
	c := e.GetComment()
	if IsBot(c.GetUser()) || IsBot(e.GetSender()) {
		return nil, "comment by a bot", nil
	}
	cmd, found, err := ParseRetest(c.GetBody())
	if !found {
		return nil, "comment holds no " + RetestCommand, nil
	}
	t := &Trigger{
		Kind: TriggerCommand, Event: "issue_comment", Action: e.GetAction(),
		PR: e.GetIssue().GetNumber(), Sender: c.GetUser().GetLogin(), CommentID: c.GetID(),
		DedupeKey: "comment:" + strconv.FormatInt(c.GetID(), 10) + ":" + e.GetAction(),
	}
	var ce *CommandError
	switch {
	case errors.As(err, &ce):
		t.CommandError = ce.Reason
	case err != nil:
		return nil, "", err
	default:
		t.Budget, t.Run = cmd.Budget, cmd.Run
	}
	if t.CommentID == 0 || t.Sender == "" {
		return nil, "", errors.New("issue_comment payload without comment id or author")
	}
	return t, "", fillRepo(t, e.GetRepo(), e.GetInstallation())
}

func checkRunTrigger(e *gh.CheckRunEvent) (*Trigger, string, error) {
	cr := e.GetCheckRun()
	t := &Trigger{
		Kind: TriggerCheckRun, Event: "check_run", Action: e.GetAction(),
		HeadSHA: cr.GetHeadSHA(), Sender: e.GetSender().GetLogin(), CheckRunID: cr.GetID(),
	}
	switch e.GetAction() {
	case "requested_action":
		id := e.GetRequestedAction().Identifier
		if id != SearchMoreIdentifier {
			return nil, fmt.Sprintf("check_run action %q is not interleave's", id), nil
		}
		t.Budget = SearchMoreBudget
	case "rerequested":
	default:
		return nil, "check_run " + e.GetAction() + " starts nothing", nil
	}
	if IsBot(e.GetSender()) {
		return nil, "requested by a bot", nil
	}
	if t.Sender == "" {
		return nil, "", errors.New("check_run payload without sender")
	}
	return t, "", fillRepo(t, e.GetRepo(), e.GetInstallation())
}

// fillRepo copies the repository and installation and checks the names and
// SHAs that later reach git and the API.
func fillRepo(t *Trigger, repo *gh.Repository, inst *gh.Installation) error {
	t.Owner, t.Repo = repo.GetOwner().GetLogin(), repo.GetName()
	if t.Owner == "" || t.Repo == "" {
		if owner, name, ok := strings.Cut(repo.GetFullName(), "/"); ok {
			t.Owner, t.Repo = owner, name
		}
	}
	t.InstallationID = inst.GetID()
	switch {
	case !nameRE.MatchString(t.Owner) || !nameRE.MatchString(t.Repo) || t.Repo == "." || t.Repo == "..":
		return fmt.Errorf("%s payload: bad repository %q/%q", t.Event, t.Owner, t.Repo)
	case t.InstallationID == 0:
		return fmt.Errorf("%s payload has no installation: is this delivery from a GitHub App?", t.Event)
	case t.Kind != TriggerCheckRun && t.PR <= 0:
		return fmt.Errorf("%s payload without a pull request number", t.Event)
	case t.Kind == TriggerPullRequest && (!shaRE.MatchString(t.BaseSHA) || !shaRE.MatchString(t.HeadSHA)):
		return fmt.Errorf("pull_request payload: bad base or head SHA %q, %q", t.BaseSHA, t.HeadSHA)
	case t.Kind == TriggerCheckRun && !shaRE.MatchString(t.HeadSHA):
		return fmt.Errorf("check_run payload: bad head SHA %q", t.HeadSHA)
	}
	return nil
}

var spaceTimeRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$`)

// normalizeTimestamps rewrites "YYYY-MM-DD hh:mm:ss" strings to RFC 3339
// (UTC) anywhere in a JSON payload.
func normalizeTimestamps(payload []byte) ([]byte, bool) {
	var v any
	if err := json.Unmarshal(payload, &v); err != nil {
		return nil, false
	}
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				x[k] = walk(e)
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e)
			}
		case string:
			if spaceTimeRE.MatchString(x) {
				return strings.Replace(x, " ", "T", 1) + "Z"
			}
		}
		return v
	}
	out, err := json.Marshal(walk(v))
	return out, err == nil
}

// ValidSHA reports whether s is a full lowercase hex commit SHA.
func ValidSHA(s string) bool { return shaRE.MatchString(s) }
