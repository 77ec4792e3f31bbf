package github

import (
	"context"
	"fmt"
	"strings"

	gh "github.com/google/go-github/v60/github"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/report"
)

// annotationLevel maps a severity to a check run annotation level; the API
// knows notice, warning and failure (not "error").
func annotationLevel(s checks.Severity) string {
	switch s {
	case checks.Error:
		return "failure"
	case checks.Warning:
		return "warning"
	}
	return "notice"
}

// annotation renders a finding with a position as a check run annotation.
func (p *publisher) annotation(f *report.JSONFinding) *gh.CheckRunAnnotation {
	end := max(f.Pos.EndLine, f.Pos.Line)
	a := &gh.CheckRunAnnotation{
		Path:            gh.String(f.Pos.File),
		StartLine:       gh.Int(f.Pos.Line),
		EndLine:         gh.Int(end),
		AnnotationLevel: gh.String(annotationLevel(f.Severity)),
		Title:           gh.String(truncateTitle(ruleName(f) + ": " + firstNonEmpty(ruleTitle(f.Rule), f.Message))),
		Message:         gh.String(truncate(f.Message, maxAnnotationMessage, "message")),
	}
	// Columns are allowed only when the annotation is on one line.
	if end == f.Pos.Line && f.Pos.Column > 0 {
		a.StartColumn = gh.Int(f.Pos.Column)
		a.EndColumn = gh.Int(max(f.Pos.EndColumn, f.Pos.Column))
	}
	if isDynamic(&f.Finding) {
		var b strings.Builder
		fmt.Fprintf(&b, "failure: %s", f.Kind)
		if f.Test != "" {
			fmt.Fprintf(&b, " in %s", f.Test)
		}
		for _, g := range f.Goroutines {
			fmt.Fprintf(&b, "\n%s %s %s", g.ID, g.State, g.Site)
		}
		if h := report.SameCauseHeading(&f.Finding); h != "" {
			fmt.Fprintf(&b, "\n%s:\n  %s", h, strings.Join(report.SameCauseLines(&f.Finding), "\n  "))
		}
		if cmd := p.replayCommand(&f.Finding); cmd != "" {
			fmt.Fprintf(&b, "\nreplay: %s", cmd)
		}
		a.RawDetails = gh.String(truncate(b.String(), maxAnnotationMessage, "details"))
	}
	return a
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// truncateTitle cuts a title to 255 characters.
func truncateTitle(s string) string {
	s = oneLine(s)
	if r := []rune(s); len(r) > maxAnnotationTitle {
		return string(r[:maxAnnotationTitle-1]) + "…"
	}
	return s
}

// postCheckRun creates the check run on the head commit with the first 50
// annotations, sends the rest 50 per PATCH, and completes it with the
// conclusion and the action buttons in the last request. Under an
// external id it resumes the unfinished run of an earlier post, sending
// only the annotations that run lacks, and leaves the run in progress for
// completeCheckRun.
func (p *publisher) postCheckRun(ctx context.Context) error {
	var anns []*gh.CheckRunAnnotation
	for i := range p.findings {
		if f := &p.findings[i]; f.Pos.IsValid() && len(anns) < maxAnnotations {
			anns = append(anns, p.annotation(f))
		}
	}
	keyed := p.in.ExternalID != ""
	var runID int64
	if p.resume != nil {
		// Annotations go out in a fixed order and each request is stored
		// whole, so the run holds a prefix of them.
		runID = p.resume.GetID()
		sent := min(p.resume.GetOutput().GetAnnotationsCount(), len(anns))
		anns = anns[sent:]
		p.res.Annotations = sent
	}
	var chunks [][]*gh.CheckRunAnnotation
	for len(anns) > maxAnnotationsPerRequest {
		chunks = append(chunks, anns[:maxAnnotationsPerRequest])
		anns = anns[maxAnnotationsPerRequest:]
	}
	if len(anns) > 0 || p.resume == nil {
		chunks = append(chunks, anns)
	}

	conclusion := p.conclusion()
	complete := func(u *gh.UpdateCheckRunOptions) {
		u.Status = gh.String("completed")
		u.Conclusion = gh.String(conclusion)
		u.CompletedAt = &gh.Timestamp{Time: p.in.Now()}
		u.Actions = p.actions()
	}
	if runID == 0 {
		create := gh.CreateCheckRunOptions{
			Name:       CheckRunName,
			HeadSHA:    p.in.HeadSHA,
			DetailsURL: p.detailsURL(),
			Status:     gh.String("in_progress"),
			StartedAt:  &gh.Timestamp{Time: p.in.Now()},
			Output:     p.checkRunOutput(chunks[0]),
		}
		if keyed {
			create.ExternalID = gh.String(p.in.ExternalID)
		} else if len(chunks) == 1 {
			create.Status = gh.String("completed")
			create.Conclusion = gh.String(conclusion)
			create.CompletedAt = &gh.Timestamp{Time: p.in.Now()}
			create.Actions = p.actions()
		}
		run, _, err := p.c.Checks.CreateCheckRun(ctx, p.in.Owner, p.in.Repo, create)
		if err != nil {
			return fmt.Errorf("create check run: %w", err)
		}
		runID = run.GetID()
		p.res.CheckRunID = runID
		p.learnSelf(botLogin(run.GetApp()))
		p.res.Annotations = len(chunks[0])
		chunks = chunks[1:]
	}
	if keyed {
		p.openRun = runID // completed last, whatever happens below
	}
	for i, chunk := range chunks {
		update := gh.UpdateCheckRunOptions{Name: CheckRunName, Output: p.checkRunOutput(chunk)}
		if !keyed && i == len(chunks)-1 {
			complete(&update)
		}
		if _, _, err := p.c.Checks.UpdateCheckRun(ctx, p.in.Owner, p.in.Repo, runID, update); err != nil {
			if !keyed {
				// Do not leave the run in progress forever: complete it
				// without the remaining annotations.
				done := gh.UpdateCheckRunOptions{Name: CheckRunName, Output: p.checkRunOutput(nil)}
				complete(&done)
				if _, _, cerr := p.c.Checks.UpdateCheckRun(ctx, p.in.Owner, p.in.Repo, runID, done); cerr == nil {
					p.res.Conclusion = conclusion
				}
			}
			return fmt.Errorf("update check run %d after %d annotations: %w", runID, p.res.Annotations, err)
		}
		p.res.Annotations += len(chunk)
	}
	if !keyed {
		p.res.Conclusion = conclusion
	}
	return nil
}

// completeCheckRun completes the check run left open under an external id,
// once everything else was posted: from then on the key means "posted".
func (p *publisher) completeCheckRun(ctx context.Context) error {
	conclusion := p.conclusion()
	done := gh.UpdateCheckRunOptions{
		Name: CheckRunName, Output: p.checkRunOutput(nil), DetailsURL: p.detailsURL(),
		Status: gh.String("completed"), Conclusion: gh.String(conclusion),
		CompletedAt: &gh.Timestamp{Time: p.in.Now()}, Actions: p.actions(),
	}
	if _, _, err := p.c.Checks.UpdateCheckRun(ctx, p.in.Owner, p.in.Repo, p.openRun, done); err != nil {
		return fmt.Errorf("complete check run %d: %w", p.openRun, err)
	}
	p.res.CheckRunID, p.res.Conclusion = p.openRun, conclusion
	return nil
}

// checkRunOutput is the check run's title and summary with chunk of the
// annotations.
func (p *publisher) checkRunOutput(chunk []*gh.CheckRunAnnotation) *gh.CheckRunOutput {
	if p.checkSummary == "" {
		positioned := 0
		for i := range p.findings {
			if p.findings[i].Pos.IsValid() {
				positioned++
			}
		}
		text := p.headline() + ".\n\n" + p.summaryMarkdown()
		if skipped := positioned - maxAnnotations; skipped > 0 {
			text = fmt.Sprintf("%d findings are not annotated: a check run carries at most %d annotations here; all are listed below.\n\n", skipped, maxAnnotations) + text
		}
		p.checkSummary = truncate(text, maxCheckRunText, "summary")
	}
	return &gh.CheckRunOutput{
		Title:       gh.String(truncateTitle(p.headline())),
		Summary:     gh.String(p.checkSummary),
		Annotations: chunk,
	}
}

// actions are the check run's buttons, shown once it is completed.
func (p *publisher) actions() []*gh.CheckRunAction {
	return []*gh.CheckRunAction{{Label: actionSearchMoreLabel, Description: actionSearchMoreDescription, Identifier: ActionSearchMore}}
}

func (p *publisher) detailsURL() *string {
	if p.in.DetailsURL == "" {
		return nil
	}
	return gh.String(p.in.DetailsURL)
}
