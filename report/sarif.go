package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/interleave-dev/interleave/checks"
)

// SARIF is SARIF 2.1.0 as GitHub code scanning reads it (docs "SARIF
// support for code scanning"): repository-relative URIs, startLine >= 1,
// a location on every result, partialFingerprints.primaryLocationLineHash.
type SARIF struct{}

var _ Writer = SARIF{}

const (
	toolName = "interleave"
	toolURI  = "https://github.com/interleave-dev/interleave"

	// maxRelatedLocations is what GitHub keeps of a result's locations
	// ("Locations per result: 1,000; only 100 are kept").
	maxRelatedLocations = 100
)

// Write implements Writer.
func (SARIF) Write(w io.Writer, r *Report) error {
	fs := relative(r)
	run := sarif.NewRunWithInformationURI(toolName, toolURI)
	if r.ToolVersion != "" {
		run.Tool.Driver.WithVersion(r.ToolVersion)
		if v := strings.TrimPrefix(r.ToolVersion, "v"); v != "" && v[0] >= '0' && v[0] <= '9' {
			run.Tool.Driver.WithSemanticVersion(v)
		}
	}
	// Rules referenced by the findings, in ID order, so ruleIndex is stable.
	var ids []string
	seen := map[string]bool{}
	for _, f := range fs {
		if !seen[f.Rule] {
			seen[f.Rule] = true
			ids = append(ids, f.Rule)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		addRule(run, ruleOf(id))
	}

	// Failures the base commit has too are carried with baselineState
	// "unchanged", so code scanning does not present them as new.
	pre := relativeList(r.Root, r.PreExisting)
	for i := range pre {
		pre[i].Baseline = checks.BaselineUnchanged
	}
	for _, f := range pre {
		if !seen[f.Rule] {
			seen[f.Rule] = true
			addRule(run, ruleOf(f.Rule))
		}
	}
	fs = append(fs, pre...)
	// Failures not compared with the base commit carry no baselineState.
	unc := relativeList(r.Root, r.Uncompared)
	for i := range unc {
		unc[i].Baseline = ""
		if !seen[unc[i].Rule] {
			seen[unc[i].Rule] = true
			addRule(run, ruleOf(unc[i].Rule))
		}
	}
	fs = append(fs, unc...)
	for _, f := range fs {
		res := run.CreateResultForRule(f.Rule).
			WithLevel(level(f.Severity)).
			WithMessage(sarif.NewTextMessage(f.Message)).
			WithPartialFingerprints(map[string]string{"primaryLocationLineHash": f.Fingerprint()})
		if f.Baseline != "" {
			res.WithBaselineState(f.Baseline)
		}
		res.AddLocation(location(primary(&f), ""))
		for i, rel := range f.Related {
			if i == maxRelatedLocations {
				break
			}
			if !rel.IsValid() {
				continue
			}
			res.AddRelatedLocation(location(rel.Position, rel.Message).WithID(i + 1))
		}
		props := sarif.NewPropertyBag()
		props.Add("evidence", string(f.Evidence))
		addSameCauseSARIF(res, props, &f, len(f.Related)+1)
		if isDynamic(&f) {
			props.Add("kind", string(f.Kind))
			if f.Test != "" {
				props.Add("test", f.Test)
			}
			if f.Schedule != "" {
				props.Add("schedule", f.Schedule)
			}
			if f.Replay != "" {
				props.Add("replay", f.Replay)
			}
			if q := f.Frequency; q != nil && q.Schedules > 0 {
				props.Add("failingSchedules", q.Failing)
				props.Add("schedules", q.Schedules)
				props.Add("everySchedule", q.Every())
			}
			if q := f.Replays; q != nil {
				props.Add("replaysReproduced", q.Reproduced)
				props.Add("replays", q.Tries)
			}
			if f.NotReplayed != "" {
				props.Add("notReplayed", f.NotReplayed)
			}
			if p := f.PlainGo; p != nil {
				props.Add("plainGoTest", p)
				props.Add("plainGoTestFails", p.Fails())
			}
			if e := f.EarlyTimers; e != nil {
				props.Add("earlyTimers", e)
			}
			if l := f.Labels(); l != "" {
				props.Add("labels", l)
			}
			for _, g := range f.Goroutines {
				if st := stack(g); st != nil {
					res.AddStack(st)
				}
			}
		}
		res.WithProperties(props)
	}

	// The search's notes (not findings) are the run's execution
	// notifications; executionSuccessful is required there.
	if len(r.Notes) > 0 {
		inv := sarif.NewInvocation().WithExecutionSuccessful(true)
		for _, n := range r.Notes {
			inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications,
				sarif.NewNotification().WithLevel("note").WithMessage(sarif.NewTextMessage(n)))
		}
		run.AddInvocation(inv)
	}

	rep := sarif.NewReport()
	rep.AddRun(run)
	var buf bytes.Buffer
	if err := rep.Write(&buf); err != nil {
		return fmt.Errorf("encode sarif: %w", err)
	}
	// go-sarif writes -1 sentinels ("rank", "ruleIndex", "id", "index")
	// and empty arrays for every unset list; GitHub documents those fields
	// as non-negative, so drop them.
	var doc any
	dec := json.NewDecoder(&buf)
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return fmt.Errorf("re-read sarif: %w", err)
	}
	doc = clean(doc, "")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func addRule(run *sarif.Run, r checks.Rule) {
	help := r.Text
	if help == "" {
		help = r.Title
	}
	rd := run.AddRule(r.ID).
		WithName(r.Slug).
		WithShortDescription(sarif.NewMultiformatMessageString().WithText(r.Title)).
		WithFullDescription(sarif.NewMultiformatMessageString().WithText(help)).
		WithHelp(sarif.NewMultiformatMessageString().WithText(help).WithMarkdown(fmt.Sprintf("**%s** (%s)\n\n%s", r.Title, r.ID, help))).
		WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(level(r.Severity)))
	props := sarif.NewPropertyBag().WithTags([]string{"concurrency"})
	props.Add("precision", "high")
	props.Add("problem.severity", problemSeverity(r.Severity))
	rd.WithProperties(props)
	if r.Slug == "" {
		rd.Name = nil
	}
}

// level maps a severity to a SARIF level: note, warning or error.
func level(s checks.Severity) string {
	switch s {
	case checks.Error:
		return "error"
	case checks.Warning:
		return "warning"
	}
	return "note"
}

// problemSeverity is GitHub's rule property: error, warning or recommendation.
func problemSeverity(s checks.Severity) string {
	if s == checks.Note {
		return "recommendation"
	}
	return level(s)
}

// primary is the position a result is shown at. relative already fell back
// to a repository frame; GitHub rejects the whole file for a result without
// a location, so a finding with none at all is anchored at the module file.
func primary(f *checks.Finding) checks.Position {
	if f.Pos.IsValid() {
		return f.Pos
	}
	return checks.Position{File: "go.mod", Line: 1}
}

func location(p checks.Position, msg string) *sarif.Location {
	region := sarif.NewRegion().WithStartLine(max(p.Line, 1))
	if p.Column > 0 {
		region.WithStartColumn(p.Column)
	}
	if p.EndLine >= p.Line && p.EndLine > 0 {
		region.WithEndLine(p.EndLine)
		if p.EndColumn > 0 && (p.EndLine > p.Line || p.EndColumn > p.Column) {
			region.WithEndColumn(p.EndColumn)
		}
	}
	loc := sarif.NewLocation().WithPhysicalLocation(
		sarif.NewPhysicalLocation().
			WithArtifactLocation(sarif.NewArtifactLocation().WithURI(fileURI(p.File))).
			WithRegion(region))
	if msg != "" {
		loc.WithMessage(sarif.NewTextMessage(msg))
	}
	return loc
}

// fileURI makes a relative name a relative URI reference and an absolute
// one a file URI.
func fileURI(name string) string {
	u := url.URL{Path: filepath.ToSlash(name)}
	if filepath.IsAbs(name) {
		u.Scheme = "file"
	}
	return u.String()
}

// stack renders a goroutine as a SARIF stack, innermost frame first.
func stack(g checks.Goroutine) *sarif.Stack {
	if len(g.Stack) == 0 {
		return nil
	}
	msg := "goroutine " + g.ID
	if g.State != "" {
		msg += " [" + g.State + "]"
	}
	st := sarif.NewStack().WithMessage(sarif.NewTextMessage(msg))
	for _, fr := range g.Stack {
		loc := sarif.NewLocation().WithMessage(sarif.NewTextMessage(fr.Func))
		if fr.File != "" {
			loc.WithPhysicalLocation(sarif.NewPhysicalLocation().
				WithArtifactLocation(sarif.NewArtifactLocation().WithURI(fileURI(fr.File))).
				WithRegion(sarif.NewRegion().WithStartLine(max(fr.Line, 1))))
		}
		st.AddFrame(sarif.NewStackFrame().WithLocation(loc))
	}
	return st
}

// clean drops -1 sentinels, empty arrays and empty objects, keeping the
// results array a run must have.
func clean(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			c := clean(e, k)
			if c == nil {
				delete(x, k)
				continue
			}
			x[k] = c
		}
		if len(x) == 0 && key != "" {
			return nil
		}
		return x
	case []any:
		out := x[:0]
		for _, e := range x {
			if c := clean(e, ""); c != nil {
				out = append(out, c)
			}
		}
		if len(out) == 0 && key != "results" {
			return nil
		}
		return out
	case json.Number:
		if x == "-1" {
			return nil
		}
		return x
	}
	return v
}
