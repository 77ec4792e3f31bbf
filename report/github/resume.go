package github

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	gh "github.com/google/go-github/v60/github"
)

// externalIDRE is what an idempotency key may look like: it is stored as
// the check run's external_id and, inside an HTML comment, in the review
// body, so it must not be able to close that comment.
var externalIDRE = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,100}$`)

// CheckExternalID reports whether key can serve as Input.ExternalID.
func CheckExternalID(key string) error {
	if !externalIDRE.MatchString(key) {
		return fmt.Errorf("external id %q must be 1 to 100 letters, digits, '.', '_', ':' or '-'", key)
	}
	return nil
}

// runMarker is the hidden marker of the review posted under key.
func runMarker(key string) string { return "<!-- interleave:run=" + key + " -->" }

// FindCheckRun returns the check run named CheckRunName on commit sha whose
// external_id is key, or nil. When several carry it, a completed one wins.
func FindCheckRun(ctx context.Context, c *gh.Client, owner, repo, sha, key string) (*gh.CheckRun, error) {
	opts := &gh.ListCheckRunsOptions{CheckName: gh.String(CheckRunName), Filter: gh.String("all"), ListOptions: gh.ListOptions{PerPage: 100}}
	var found *gh.CheckRun
	for {
		res, resp, err := c.Checks.ListCheckRunsForRef(ctx, owner, repo, sha, opts)
		if err != nil {
			return nil, fmt.Errorf("list check runs on %.12s: %w", sha, err)
		}
		for _, r := range res.CheckRuns {
			if r.GetExternalID() != key || r.GetHeadSHA() != sha {
				continue
			}
			if r.GetStatus() == "completed" {
				return r, nil
			}
			if found == nil {
				found = r
			}
		}
		if resp.NextPage == 0 {
			return found, nil
		}
		opts.Page = resp.NextPage
	}
}

// lookupKeyed looks for the check run of an earlier post under the same
// key. A completed one means that post finished: done is true and nothing
// is to be posted. An unfinished one (the poster died) is resumed: its
// annotations are not sent again and the review it may have posted is not
// posted again.
func (p *publisher) lookupKeyed(ctx context.Context) (done bool, err error) {
	run, err := FindCheckRun(ctx, p.c, p.in.Owner, p.in.Repo, p.in.HeadSHA, p.in.ExternalID)
	if err != nil || run == nil {
		return false, err
	}
	p.learnSelf(botLogin(run.GetApp()))
	p.res.CheckRunID = run.GetID()
	if run.GetStatus() == "completed" {
		p.res.AlreadyPosted = true
		p.res.Conclusion = run.GetConclusion()
		return true, nil
	}
	p.resume = run
	p.res.Resumed = true
	return false, nil
}

// botLogin is the login under which an App's token writes comments.
func botLogin(a *gh.App) string {
	if a.GetSlug() == "" {
		return ""
	}
	return a.GetSlug() + "[bot]"
}

// learnSelf records the login our writes appear under, the first time it
// is known: from our check run's App, or the author of our first comment.
func (p *publisher) learnSelf(login string) {
	if p.self == "" && login != "" {
		p.self = login
	}
}

// ours reports whether a comment by u may be one interleave wrote: a bot
// (GITHUB_TOKEN writes as github-actions[bot], an App as <slug>[bot]) and,
// once known, the very login our own writes appear under. A person's
// comment that quotes a marker is never edited, deleted or counted.
func (p *publisher) ours(u *gh.User) bool {
	if u.GetType() != "Bot" {
		return false
	}
	return p.self == "" || strings.EqualFold(u.GetLogin(), p.self)
}

// postedReview returns the id of the review this post (under its key)
// already posted, or 0: the poster died after posting it.
func (p *publisher) postedReview(ctx context.Context) (int64, error) {
	marker := runMarker(p.in.ExternalID)
	opts := &gh.ListOptions{PerPage: 100}
	for {
		rs, resp, err := p.c.PullRequests.ListReviews(ctx, p.in.Owner, p.in.Repo, p.in.Number, opts)
		if err != nil {
			return 0, fmt.Errorf("list reviews: %w", err)
		}
		for _, r := range rs {
			if p.ours(r.GetUser()) && strings.HasSuffix(r.GetBody(), marker) {
				return r.GetID(), nil
			}
		}
		if resp.NextPage == 0 {
			return 0, nil
		}
		opts.Page = resp.NextPage
	}
}
