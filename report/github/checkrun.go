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
// conclusion and the action buttons in the last request.
func (p *publisher) postCheckRun(ctx context.Context) error {
	var anns []*gh.CheckRunAnnotation
	skipped := 0
	for i := range p.findings {
		f := &p.findings[i]
		if !f.Pos.IsValid() {
			continue
		}
		if len(anns) == maxAnnotations {
			skipped++
			continue
		}
		anns = append(anns, p.annotation(f))
	}
	title := truncateTitle(p.headline())
	summaryText := p.headline() + ".\n\n" + p.summaryMarkdown()
	if skipped > 0 {
		summaryText = fmt.Sprintf("%d findings are not annotated: a check run carries at most %d annotations here; all are listed below.\n\n", skipped, maxAnnotations) + summaryText
	}
	output := func(chunk []*gh.CheckRunAnnotation) *gh.CheckRunOutput {
		return &gh.CheckRunOutput{
			Title:       gh.String(title),
			Summary:     gh.String(truncate(summaryText, maxCheckRunText, "summary")),
			Annotations: chunk,
		}
	}
	var chunks [][]*gh.CheckRunAnnotation
	for len(anns) > maxAnnotationsPerRequest {
		chunks = append(chunks, anns[:maxAnnotationsPerRequest])
		anns = anns[maxAnnotationsPerRequest:]
	}
	chunks = append(chunks, anns)

	conclusion := p.conclusion()
	actions := []*gh.CheckRunAction{{Label: actionSearchMoreLabel, Description: actionSearchMoreDescription, Identifier: ActionSearchMore}}
	var detailsURL *string
	if p.in.DetailsURL != "" {
		detailsURL = gh.String(p.in.DetailsURL)
	}
	create := gh.CreateCheckRunOptions{
		Name:       CheckRunName,
		HeadSHA:    p.in.HeadSHA,
		DetailsURL: detailsURL,
		Status:     gh.String("in_progress"),
		StartedAt:  &gh.Timestamp{Time: p.in.Now()},
		Output:     output(chunks[0]),
	}
	if len(chunks) == 1 {
		create.Status = gh.String("completed")
		create.Conclusion = gh.String(conclusion)
		create.CompletedAt = &gh.Timestamp{Time: p.in.Now()}
		create.Actions = actions
	}
	run, _, err := p.c.Checks.CreateCheckRun(ctx, p.in.Owner, p.in.Repo, create)
	if err != nil {
		return fmt.Errorf("create check run: %w", err)
	}
	p.res.CheckRunID = run.GetID()
	p.res.Annotations = len(chunks[0])
	for i, chunk := range chunks[1:] {
		update := gh.UpdateCheckRunOptions{Name: CheckRunName, Output: output(chunk)}
		if i == len(chunks)-2 {
			update.Status = gh.String("completed")
			update.Conclusion = gh.String(conclusion)
			update.CompletedAt = &gh.Timestamp{Time: p.in.Now()}
			update.Actions = actions
		}
		if _, _, err := p.c.Checks.UpdateCheckRun(ctx, p.in.Owner, p.in.Repo, run.GetID(), update); err != nil {
			// Do not leave the run in progress forever: complete it
			// without the remaining annotations.
			done := gh.UpdateCheckRunOptions{Name: CheckRunName, Status: gh.String("completed"), Conclusion: gh.String(conclusion),
				CompletedAt: &gh.Timestamp{Time: p.in.Now()}, Actions: actions, Output: output(nil)}
			if _, _, cerr := p.c.Checks.UpdateCheckRun(ctx, p.in.Owner, p.in.Repo, run.GetID(), done); cerr == nil {
				p.res.Conclusion = conclusion
			}
			return fmt.Errorf("update check run %d after %d annotations: %w", run.GetID(), p.res.Annotations, err)
		}
		p.res.Annotations += len(chunk)
	}
	p.res.Conclusion = conclusion
	return nil
}
