package github

import (
	"context"
	"fmt"
	"strings"

	gh "github.com/google/go-github/v60/github"

	"github.com/interleave-dev/interleave/report"

	"github.com/interleave-dev/interleave/checks"
)

// draft is one review comment about to be posted, with its finding.
type draft struct {
	f       *report.JSONFinding
	comment *gh.DraftReviewComment
}

func (d draft) where() string {
	return fmt.Sprintf("%s:%d %s", d.f.Pos.File, d.f.Pos.Line, d.f.Rule)
}

// postReview posts one COMMENT review on the analysed commit. Findings on
// diff lines become comments, at most maxReviewComments of them; findings
// already commented on an earlier push are skipped; the others are listed
// in the review body (and the summary). Then comments of earlier runs whose
// finding is gone are deleted, unless someone replied to them. Only bot
// comments count as earlier runs' (see ours): a person's comment that
// quotes a marker neither suppresses a finding nor gets deleted.
func (p *publisher) postReview(ctx context.Context) error {
	// A resumed post may have posted its review before it died. Its
	// comments are then not earlier runs' but this run's: planned again
	// as if new, so the result and the notes come out as the first time,
	// and matched against the review instead of posted.
	var again int64
	if p.resume != nil {
		var err error
		if again, err = p.postedReview(ctx); err != nil {
			return err
		}
	}
	existing, err := p.listReviewComments(ctx)
	if err != nil {
		return err
	}
	posted := map[string]bool{} // fingerprints that have a comment
	inReview := map[string]bool{}
	replied := map[int64]bool{}
	for _, c := range existing {
		if c.InReplyTo != nil {
			replied[c.GetInReplyTo()] = true
			continue
		}
		fp, ok := markedFingerprint(c.GetBody())
		switch {
		case !ok || !p.ours(c.GetUser()):
		case again != 0 && c.GetPullRequestReviewID() == again:
			inReview[fp] = true
		default:
			posted[fp] = true
		}
	}

	wanted := map[string]bool{}
	for _, f := range p.findings {
		if f.Pos.IsValid() {
			wanted[f.Pos.File] = true
		}
	}
	diff, err := loadDiff(ctx, p.c, p.in.Owner, p.in.Repo, p.in.Number, wanted)
	if err != nil {
		return err
	}
	for _, why := range diff.partial {
		p.note("%s", why)
	}

	current := map[string]bool{}
	var drafts []draft
	var outside, folded []*report.JSONFinding
	for i := range p.findings {
		f := &p.findings[i]
		fp := fingerprintOf(f)
		if current[fp] {
			continue // the same finding twice: one comment
		}
		current[fp] = true
		if posted[fp] {
			p.res.Duplicates++
			continue
		}
		c := p.placeComment(f, diff)
		switch {
		case c == nil:
			outside = append(outside, f)
		case len(drafts) == maxReviewComments:
			folded = append(folded, f)
		default:
			drafts = append(drafts, draft{f: f, comment: c})
		}
	}
	p.res.OutsideDiff, p.res.Folded = len(outside), len(folded)
	if len(outside) > 0 {
		p.note("findings not on a line of the diff, listed in the summary instead of commented: %d", len(outside))
	}
	if len(folded) > 0 {
		p.note("findings over the limit of %d review comments per run, listed in the review body: %d", maxReviewComments, len(folded))
	}

	switch {
	case again != 0:
		var keep, dropped []draft
		for _, d := range drafts {
			if inReview[fingerprintOf(d.f)] {
				keep = append(keep, d)
			} else {
				dropped = append(dropped, d) // GitHub had rejected it
			}
		}
		p.reviewPosted(again, keep, dropped)
	case len(drafts) > 0:
		if err := p.createReview(ctx, drafts, outside, folded); err != nil {
			return err
		}
	}
	return p.deleteOutdated(ctx, existing, current, replied)
}

// placeComment returns the review comment for f, or nil when f's lines are
// not in one hunk of its file. A range takes start_line only when the whole
// range lies in one hunk; otherwise the comment goes on the first line.
func (p *publisher) placeComment(f *report.JSONFinding, diff *diffIndex) *gh.DraftReviewComment {
	if !f.Pos.IsValid() {
		return nil
	}
	c := &gh.DraftReviewComment{
		Path: gh.String(f.Pos.File),
		Body: gh.String(p.commentBody(f)),
		Side: gh.String("RIGHT"),
	}
	end := max(f.Pos.EndLine, f.Pos.Line)
	switch {
	case end > f.Pos.Line && diff.hunkOf(f.Pos.File, f.Pos.Line, end) >= 0:
		c.StartLine, c.StartSide, c.Line = gh.Int(f.Pos.Line), gh.String("RIGHT"), gh.Int(end)
	case diff.hunkOf(f.Pos.File, f.Pos.Line, f.Pos.Line) >= 0:
		c.Line = gh.Int(f.Pos.Line)
	default:
		return nil
	}
	return c
}

// listReviewComments returns every review comment on the pull request.
func (p *publisher) listReviewComments(ctx context.Context) ([]*gh.PullRequestComment, error) {
	var all []*gh.PullRequestComment
	opts := &gh.PullRequestListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100}}
	for {
		cs, resp, err := p.c.PullRequests.ListComments(ctx, p.in.Owner, p.in.Repo, p.in.Number, opts)
		if err != nil {
			return nil, fmt.Errorf("list review comments: %w", err)
		}
		all = append(all, cs...)
		if resp.NextPage == 0 {
			return all, nil
		}
		opts.Page = resp.NextPage
	}
}

// deleteOutdated deletes the comments of earlier runs whose finding is no
// longer reported, unless someone replied to them.
func (p *publisher) deleteOutdated(ctx context.Context, existing []*gh.PullRequestComment, current map[string]bool, replied map[int64]bool) error {
	for _, c := range existing {
		fp, ok := markedFingerprint(c.GetBody())
		if !ok || c.InReplyTo != nil || current[fp] || !p.ours(c.GetUser()) {
			continue
		}
		if replied[c.GetID()] {
			p.res.KeptOutdated++
			continue
		}
		if _, err := p.c.PullRequests.DeleteComment(ctx, p.in.Owner, p.in.Repo, c.GetID()); err != nil {
			return fmt.Errorf("delete outdated comment %d: %w", c.GetID(), err)
		}
		p.res.Deleted++
	}
	if p.res.KeptOutdated > 0 {
		p.note("outdated comments kept because someone replied: %d", p.res.KeptOutdated)
	}
	return nil
}

// createReview posts the review. GitHub rejects a whole review with 422
// when one comment is off the diff and does not say which, so on 422 it
// retries, within maxReviewAttempts, without range starts, then without one
// comment at a time, then with ever smaller halves, and finally with the
// body alone; what was left out is listed in the body and in Result.Dropped.
func (p *publisher) createReview(ctx context.Context, drafts []draft, outside, folded []*report.JSONFinding) error {
	attempts := 0
	try := func(keep []draft, dropped []draft) (bool, error) {
		attempts++
		comments := make([]*gh.DraftReviewComment, len(keep))
		for i, d := range keep {
			comments[i] = d.comment
		}
		req := &gh.PullRequestReviewRequest{
			CommitID: gh.String(p.in.HeadSHA),
			Event:    gh.String("COMMENT"),
			Body:     gh.String(p.reviewBody(len(keep), outside, folded, dropped)),
			Comments: comments,
		}
		review, _, err := p.c.PullRequests.CreateReview(ctx, p.in.Owner, p.in.Repo, p.in.Number, req)
		if err != nil {
			if isValidationFailed(err) {
				return false, nil
			}
			return false, fmt.Errorf("create review: %w", err)
		}
		p.learnSelf(review.GetUser().GetLogin())
		p.reviewPosted(review.GetID(), keep, dropped)
		return true, nil
	}
	for _, plan := range reviewPlans(drafts) {
		if attempts == maxReviewAttempts-1 {
			break // keep the last attempt for the body alone
		}
		ok, err := try(plan.keep, plan.dropped)
		if ok || err != nil {
			return err
		}
	}
	ok, err := try(nil, drafts)
	if err == nil && !ok {
		err = fmt.Errorf("create review: GitHub rejected it (422) even without comments")
	}
	return err
}

// reviewPosted records review id with the comments kept in it and those
// left out because GitHub rejected them.
func (p *publisher) reviewPosted(id int64, keep, dropped []draft) {
	p.res.ReviewID, p.res.Comments = id, len(keep)
	for _, d := range dropped {
		p.res.Dropped = append(p.res.Dropped, d.where())
	}
	if len(dropped) > 0 {
		p.note("GitHub rejected the review (422) until these comments were left out: %s", strings.Join(p.res.Dropped, "; "))
	}
}

type reviewPlan struct{ keep, dropped []draft }

// reviewPlans lists the comment sets to try, in order: all; all with
// ranges reduced to their last line; all but one, for each comment; the
// first half, quarter, and so on.
func reviewPlans(drafts []draft) []reviewPlan {
	plans := []reviewPlan{{keep: drafts}}
	var single []draft
	ranged := false
	for _, d := range drafts {
		if d.comment.StartLine != nil {
			ranged = true
			c := *d.comment
			c.StartLine, c.StartSide = nil, nil
			d.comment = &c
		}
		single = append(single, d)
	}
	if ranged {
		plans = append(plans, reviewPlan{keep: single})
		drafts = single
	}
	if len(drafts) > 1 {
		for i := range drafts {
			keep := append(append([]draft(nil), drafts[:i]...), drafts[i+1:]...)
			plans = append(plans, reviewPlan{keep: keep, dropped: []draft{drafts[i]}})
			if i == 4 {
				break // one at a time is worth it for a few only
			}
		}
	}
	for n := len(drafts) / 2; n >= 1; n /= 2 {
		plans = append(plans, reviewPlan{keep: drafts[:n], dropped: drafts[n:]})
	}
	return plans
}

// reviewBody introduces the review and lists the findings that are not
// comments in it.
func (p *publisher) reviewBody(comments int, outside, folded []*report.JSONFinding, dropped []draft) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**interleave** on %s: %s.", code(shortSHA(p.in.HeadSHA)), p.headline())
	if comments > 0 {
		fmt.Fprintf(&b, " %d new %s below.", comments, checks.Plural(comments, "comment"))
	}
	if p.res.Duplicates > 0 {
		fmt.Fprintf(&b, " %d already commented on an earlier push.", p.res.Duplicates)
	}
	b.WriteString("\n")
	section := func(title string, fs []*report.JSONFinding) {
		if len(fs) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n**%s** (%d)\n\n| Severity | Rule | Location | Message |\n|---|---|---|---|\n", title, len(fs))
		for _, f := range fs {
			loc := "-"
			if f.Pos.IsValid() {
				loc = code(fmt.Sprintf("%s:%d", f.Pos.File, f.Pos.Line))
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", f.Severity, cell(ruleName(f)), loc, cell(f.Message))
		}
	}
	var rejected []*report.JSONFinding
	for _, d := range dropped {
		rejected = append(rejected, d.f)
	}
	section("GitHub rejected these as comments", rejected)
	section(fmt.Sprintf("More findings on the diff than the %d comments posted per review", maxReviewComments), folded)
	section("Not on a line of this diff", outside)
	if p.in.ExternalID != "" {
		return fitBody(b.String(), runMarker(p.in.ExternalID))
	}
	return truncate(b.String(), maxCommentBody, "review body")
}

func shortSHA(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}
