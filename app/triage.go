package app

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"

	gh "github.com/google/go-github/v60/github"

	ghreport "github.com/interleave-dev/interleave/report/github"
)

// triageTimeout bounds the API calls of one delivery.
const triageTimeout = time.Minute

// triageRetries is how often a delivery whose API calls failed is retried
// before it is given up.
const triageRetries = 3

// triageLoop turns stored deliveries into jobs, one at a time, in the order
// they arrived.
func (s *Server) triageLoop() {
	failures := map[string]int{}
	for {
		d, err := s.store.nextDelivery()
		if err != nil {
			s.log.Error("reading deliveries", "error", err.Error())
		}
		if d == nil || err != nil {
			select {
			case <-s.stopCtx.Done():
				return
			case <-s.triageWake:
			case <-time.After(time.Minute):
			}
			continue
		}
		log := s.log.With("delivery", d.ID, "kind", string(d.Trigger.Kind), "repo", d.Trigger.Owner+"/"+d.Trigger.Repo, "pr", d.Trigger.PR, "sender", d.Trigger.Sender)
		ctx, cancel := context.WithTimeout(s.stopCtx, triageTimeout)
		job, outcome, err := s.triage(ctx, d)
		cancel()
		if err != nil {
			if s.stopCtx.Err() != nil {
				return // left pending: the next server triages it
			}
			failures[d.Seq]++
			log.Warn("triage failed", "error", err.Error(), "attempt", failures[d.Seq])
			if failures[d.Seq] < triageRetries {
				select {
				case <-s.stopCtx.Done():
					return
				case <-time.After(time.Duration(failures[d.Seq]) * 2 * time.Second):
				}
				continue
			}
			outcome = "gave up: " + err.Error()
		}
		if job != nil {
			job.Delivery, job.State, job.Created = d.ID, StatePending, time.Now()
		}
		if err := s.store.finishDelivery(d, outcome, job); err != nil {
			log.Error("recording triage", "error", err.Error())
			select {
			case <-s.stopCtx.Done():
				return
			case <-time.After(5 * time.Second):
			}
			continue
		}
		delete(failures, d.Seq)
		if job != nil {
			log.Info("job queued", "job", job.ID, "head", job.HeadSHA, "base", job.BaseSHA, "budget", job.Budget.String(), "seed", job.Seed, "trigger", job.Trigger)
			s.notify(s.jobWake)
		} else {
			log.Info("no job", "outcome", outcome)
		}
	}
}

// triage decides whether a delivery becomes a job. err means an API call
// failed and the delivery should be retried.
func (s *Server) triage(ctx context.Context, d *delivery) (*Job, string, error) {
	t := d.Trigger
	job := &Job{InstallationID: t.InstallationID, Owner: t.Owner, Repo: t.Repo, PR: t.PR, Budget: t.Budget, BudgetGiven: t.Budget != 0}
	if job.Budget == 0 {
		job.Budget = s.cfg.DefaultBudget
	}
	if t.Kind == ghreport.TriggerPullRequest && t.Action == "labeled" && t.Label != s.cfg.ApproveLabel {
		return nil, "label " + t.Label + " starts nothing", nil
	}
	if t.Kind == ghreport.TriggerPullRequest && t.Action != "labeled" && !s.cfg.ForksNeedApproval {
		// The payload's SHAs are what the push made; no API call needed.
		job.BaseSHA, job.HeadSHA = t.BaseSHA, t.HeadSHA
		job.Trigger = "pull_request " + t.Action
		return job, "queued", nil
	}
	c, err := s.client(t.InstallationID)
	if err != nil {
		return nil, "", err
	}
	switch t.Kind {
	case ghreport.TriggerPullRequest:
		return s.triagePull(ctx, c, t, job)
	case ghreport.TriggerCommand:
		return s.triageCommand(ctx, c, t, job)
	case ghreport.TriggerCheckRun:
		return s.triageCheckRun(ctx, c, t, job)
	}
	return nil, "unknown trigger " + string(t.Kind), nil
}

// DefaultApproveLabel is the label by which someone with write access lets
// a held pull request run.
const DefaultApproveLabel = "interleave: run"

// triagePull queues a push to a pull request, unless it comes from a fork
// or from an author without write access: then a queued check run says
// what it waits for. The approving label, added by someone with write
// access, queues the head of the payload.
func (s *Server) triagePull(ctx context.Context, c *gh.Client, t *ghreport.Trigger, job *Job) (*Job, string, error) {
	job.BaseSHA, job.HeadSHA = t.BaseSHA, t.HeadSHA
	if t.Action == "labeled" {
		perm, err := ghreport.Permission(ctx, c, t.Owner, t.Repo, t.Sender)
		if err != nil {
			return nil, "", err
		}
		if !ghreport.CanTrigger(perm) {
			return nil, "refused: label " + t.Label + " added by " + t.Sender + ", who has " + perm + " access", nil
		}
		job.Trigger = fmt.Sprintf("pull_request labeled %q by @%s", t.Label, t.Sender)
		return job, "queued", nil
	}
	job.Trigger = "pull_request " + t.Action
	why := ""
	if t.Fork {
		why = "comes from a fork"
	} else {
		perm, err := ghreport.Permission(ctx, c, t.Owner, t.Repo, t.Author)
		if err != nil {
			return nil, "", err
		}
		if ghreport.CanTrigger(perm) {
			return job, "queued", nil
		}
		why = "is by @" + t.Author + ", who has " + perm + " access"
	}
	summary := fmt.Sprintf("This pull request %s, so interleave does not build and run its code until someone with write access to the repository approves commit %s: comment `%s` on the pull request, or add the label `%s`.\n\nA later push needs a new approval.",
		strings.ReplaceAll(why, "@", "@\u200b"), t.HeadSHA, ghreport.RetestCommand, s.cfg.ApproveLabel)
	_, _, err := c.Checks.CreateCheckRun(ctx, t.Owner, t.Repo, gh.CreateCheckRunOptions{
		Name: ghreport.CheckRunName, HeadSHA: t.HeadSHA, Status: gh.String("queued"),
		Output: &gh.CheckRunOutput{Title: gh.String("Waiting for a maintainer's approval"), Summary: gh.String(summary)},
	})
	if err != nil {
		return nil, "", fmt.Errorf("posting the waiting check run: %w", err)
	}
	return nil, "waiting for approval: the pull request " + why, nil
}

func (s *Server) triageCommand(ctx context.Context, c *gh.Client, t *ghreport.Trigger, job *Job) (*Job, string, error) {
	perm, err := ghreport.Permission(ctx, c, t.Owner, t.Repo, t.Sender)
	if err != nil {
		return nil, "", err
	}
	if !ghreport.CanTrigger(perm) {
		if err := s.reply(ctx, c, t, ghreport.RefusalMessage(t.Sender, ghreport.RetestCommand, perm)); err != nil {
			return nil, "", err
		}
		return nil, "refused: " + t.Sender + " has " + perm + " access", nil
	}
	if t.CommandError != "" {
		msg := fmt.Sprintf("@%s: %s; nothing was started.\n\nUsage: %s", t.Sender, t.CommandError, ghreport.RetestUsage)
		if err := s.reply(ctx, c, t, msg); err != nil {
			return nil, "", err
		}
		return nil, "malformed command: " + t.CommandError, nil
	}
	if _, _, err := c.Reactions.CreateIssueCommentReaction(ctx, t.Owner, t.Repo, t.CommentID, "eyes"); err != nil {
		return nil, "", fmt.Errorf("reacting to comment %d: %w", t.CommentID, err)
	}
	// Pin the head now: a push after the permission check must not run.
	pr, _, err := c.PullRequests.Get(ctx, t.Owner, t.Repo, t.PR)
	if err != nil {
		return nil, "", fmt.Errorf("reading pull request #%d: %w", t.PR, err)
	}
	if pr.GetState() != "open" {
		return nil, "pull request is " + pr.GetState(), nil
	}
	job.HeadSHA, job.BaseSHA = pr.GetHead().GetSHA(), pr.GetBase().GetSHA()
	if !ghreport.ValidSHA(job.HeadSHA) || !ghreport.ValidSHA(job.BaseSHA) {
		return nil, "", fmt.Errorf("pull request #%d: bad head or base SHA %q, %q", t.PR, job.HeadSHA, job.BaseSHA)
	}
	job.Run = t.Run
	job.Seed = freshSeed()
	job.Trigger = fmt.Sprintf("%s by @%s (comment %d)", ghreport.RetestCommand, t.Sender, t.CommentID)
	if job.Run != "" && !s.prSupportsRun() {
		msg := fmt.Sprintf("@%s: this interleave version cannot filter tests (interleave pr has no -run flag), so run=%s is ignored and every affected test is searched.", t.Sender, job.Run)
		if err := s.reply(ctx, c, t, msg); err != nil {
			return nil, "", err
		}
	}
	return job, "queued", nil
}

func (s *Server) triageCheckRun(ctx context.Context, c *gh.Client, t *ghreport.Trigger, job *Job) (*Job, string, error) {
	// pull_requests in the payload is empty for forks: map the SHA ourselves.
	pulls, _, err := c.PullRequests.ListPullRequestsWithCommit(ctx, t.Owner, t.Repo, t.HeadSHA, nil)
	if err != nil {
		return nil, "", fmt.Errorf("pull requests of %s: %w", t.HeadSHA, err)
	}
	var pr *gh.PullRequest
	for _, p := range pulls {
		if p.GetState() != "open" {
			continue
		}
		if pr == nil || (p.GetHead().GetSHA() == t.HeadSHA && pr.GetHead().GetSHA() != t.HeadSHA) {
			pr = p
		}
	}
	if pr == nil {
		return nil, "no open pull request has commit " + t.HeadSHA, nil
	}
	t.PR, job.PR = pr.GetNumber(), pr.GetNumber()
	perm, err := ghreport.Permission(ctx, c, t.Owner, t.Repo, t.Sender)
	if err != nil {
		return nil, "", err
	}
	what := "re-running interleave"
	if t.Action == "requested_action" {
		what = "searching longer"
	}
	if !ghreport.CanTrigger(perm) {
		if err := s.reply(ctx, c, t, ghreport.RefusalMessage(t.Sender, what, perm)); err != nil {
			return nil, "", err
		}
		return nil, "refused: " + t.Sender + " has " + perm + " access", nil
	}
	job.HeadSHA, job.BaseSHA = t.HeadSHA, pr.GetBase().GetSHA()
	if !ghreport.ValidSHA(job.BaseSHA) {
		return nil, "", fmt.Errorf("pull request #%d: bad base SHA %q", job.PR, job.BaseSHA)
	}
	job.Seed = freshSeed()
	job.Trigger = fmt.Sprintf("check_run %s by @%s (check run %d)", t.Action, t.Sender, t.CheckRunID)
	return job, "queued", nil
}

// reply comments on the trigger's pull request.
func (s *Server) reply(ctx context.Context, c *gh.Client, t *ghreport.Trigger, body string) error {
	if t.PR == 0 {
		return errors.New("no pull request to reply on")
	}
	_, _, err := c.Issues.CreateComment(ctx, t.Owner, t.Repo, t.PR, &gh.IssueComment{Body: &body})
	if err != nil {
		return fmt.Errorf("replying on #%d: %w", t.PR, err)
	}
	return nil
}

// freshSeed returns a random non-zero seed; 0 would ask interleave pr to
// derive the seed from the head commit, which a retest must not repeat.
func freshSeed() int64 {
	var b [8]byte
	for {
		rand.Read(b[:]) // never returns an error since Go 1.24
		if seed := int64(binary.LittleEndian.Uint64(b[:]) >> 1); seed != 0 {
			return seed
		}
	}
}

// prSupportsRun reports whether interleave pr takes a -run test filter, by
// reading its flag list once.
func (s *Server) prSupportsRun() bool {
	s.runProbe.Do(func() {
		out, _ := s.command(context.Background(), "", scrubbedEnv(), s.cfg.Interleave, "pr", "-h").CombinedOutput()
		s.prRun = strings.Contains(string(out), "\n  -run ")
	})
	return s.prRun
}
