// Package report renders findings for people and machines: a terminal
// listing, a versioned JSON envelope, SARIF 2.1.0 for code scanning, and the
// markdown that becomes a pull request's summary.
//
// report never runs analysis and never talks to GitHub; report/github does
// the posting.
package report

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"github.com/interleave-dev/interleave/checks"
)

// Report is what a Writer renders.
type Report struct {
	Findings    []checks.Finding
	Root        string // repository root: file names and URIs are made relative to it
	ToolVersion string
	// PreExisting are dynamic failures that happen on the base commit of a
	// pull request too: shown in the summary (and in SARIF with
	// baselineState "unchanged"), never as review comments.
	PreExisting []checks.Finding
	// Uncompared are dynamic failures of a pull request whose tests the
	// base commit has but could not build or run: whether the change
	// caused them is not known. Shown in the summary (and in SARIF
	// without a baselineState), never as review comments.
	Uncompared []checks.Finding
	// Tests, when set, is what the dynamic search did per test.
	Tests []TestRun
	// Search, when set, is how long the dynamic search took against its
	// budget.
	Search *SearchTime
	// Changed, when set, is what the search did at the change's
	// synchronization sites (its preemption targets).
	Changed *ChangedSites
	// Notes are what the search says that is not a finding (explore's
	// Result.Notes): JSON carries them as notes, SARIF as the invocation's
	// toolExecutionNotifications. Text and markdown leave them to the
	// command (stderr, the job summary).
	Notes []string
}

// ChangedSites counts the synchronization operations and shared-memory
// writes of a change the search aimed at: executed by some test's
// unperturbed run or not, and the preemptions there; the first few of each.
type ChangedSites struct {
	Sites             int       `json:"sites"`
	Exercised         int       `json:"exercised"`
	NotExercised      int       `json:"notExercised"`
	Preempted         int       `json:"preempted"`
	ExercisedSites    []SiteRun `json:"exercisedSites,omitempty"`
	NotExercisedSites []string  `json:"notExercisedSites,omitempty"`
}

// SiteRun is one changed site the tests executed: its operations in the
// unperturbed runs, by how many tests, and the search's preemptions there.
type SiteRun struct {
	Site      string `json:"site"`
	Hits      int    `json:"hits"`
	Tests     int    `json:"tests"`
	Preempted int    `json:"preempted"`
}

// SearchTime is the wall time of a dynamic search after the build (its
// unperturbed runs, schedules, replays, plain go test runs and shrinking)
// and the -budget it had.
type SearchTime struct {
	BudgetMS     int64 `json:"budgetMs"`
	AfterBuildMS int64 `json:"afterBuildMs"`
	// OverrunPct is AfterBuildMS past BudgetMS, in percent of it (below
	// 0: under it; the JSON writer sets it).
	OverrunPct float64 `json:"overrunPct"`
}

// withOverrun returns a copy of st with OverrunPct set, to a tenth.
func (st SearchTime) withOverrun() *SearchTime {
	st.OverrunPct = 0
	if st.BudgetMS > 0 {
		st.OverrunPct = math.Round(1000*float64(st.AfterBuildMS-st.BudgetMS)/float64(st.BudgetMS)) / 10
	}
	return &st
}

// TestRun is one test's share of a dynamic search.
type TestRun struct {
	Package   string `json:"package"`
	Test      string `json:"test"`
	Schedules int    `json:"schedules"`
	Failures  int    `json:"failures,omitempty"` // failing schedules, before dedupe
	// Plain is the outcome of the unperturbed schedule ("pass" or a
	// failure kind; "" when it did not finish).
	Plain     string `json:"plain,omitempty"`
	ElapsedMS int64  `json:"elapsedMs"`
	// TargetHits counts the operations of its unperturbed run at the
	// search's preemption targets (the change's sites, static findings').
	TargetHits int `json:"targetHits,omitempty"`
	// PerSecond is schedules per second of the test's search.
	PerSecond float64 `json:"perSecond,omitempty"`
	// NoChoice: its unperturbed run had no choice another schedule could
	// change (one goroutine throughout), so it was not searched further.
	NoChoice bool `json:"noChoice,omitempty"`
	// OnePerProcess: from some point on its schedules ran one per
	// process, for it failed on every run in a process after the first.
	OnePerProcess bool `json:"onePerProcess,omitempty"`
	// StepBound counts its schedules the step bound stopped (inconclusive);
	// PlainSteps is the scheduling steps its unperturbed schedule took,
	// MostSteps the most a schedule of it took that the bound did not stop,
	// MaxSteps the step bound of its schedules after the unperturbed one.
	StepBound  int `json:"stepBound,omitempty"`
	PlainSteps int `json:"plainSteps,omitempty"`
	MostSteps  int `json:"mostSteps,omitempty"`
	MaxSteps   int `json:"maxSteps,omitempty"`
}

// Writer renders a Report in one format.
type Writer interface {
	Write(w io.Writer, r *Report) error
}

// Formats lists the valid values of New, in the order help text shows them.
var Formats = []string{"text", "json", "sarif", "markdown"}

// New returns the Writer for a format.
func New(format string) (Writer, error) {
	switch format {
	case "text":
		return Text{}, nil
	case "json":
		return JSON{}, nil
	case "sarif":
		return SARIF{}, nil
	case "markdown":
		return Markdown{}, nil
	}
	return nil, fmt.Errorf("unknown report format %q: valid values are %s", format, strings.Join(Formats, ", "))
}

// relative returns a copy of r's findings, sorted, with every file name
// inside r.Root made relative to it (slash-separated, as URIs want).
func relative(r *Report) []checks.Finding { return relativeList(r.Root, r.Findings) }

// relativeList is relative for any list of findings.
func relativeList(root string, list []checks.Finding) []checks.Finding {
	r := &Report{Root: root}
	out := make([]checks.Finding, len(list))
	for i, f := range list {
		f.Pos.File = relFile(r.Root, f.Pos.File)
		if f.Related != nil {
			rel := make([]checks.Related, len(f.Related))
			for j, x := range f.Related {
				x.File = relFile(r.Root, x.File)
				rel[j] = x
			}
			f.Related = rel
		}
		f.Goroutines = relativeGoroutines(r.Root, f.Goroutines)
		f.Schedule = relFile(r.Root, f.Schedule)
		f.SameCause = relativeOccurrences(r.Root, f.SameCause)
		if !f.Pos.IsValid() {
			f.Pos = innermostRepoFrame(f.Goroutines)
		}
		out[i] = f
	}
	checks.Sort(out)
	return out
}

// relativeGoroutines makes the goroutines' sites and frames relative to
// root.
func relativeGoroutines(root string, gs []checks.Goroutine) []checks.Goroutine {
	if gs == nil {
		return nil
	}
	out := make([]checks.Goroutine, len(gs))
	for j, g := range gs {
		g.Site = relSite(root, g.Site)
		if g.Stack != nil {
			st := make([]checks.Frame, len(g.Stack))
			for k, fr := range g.Stack {
				fr.File = relFile(root, fr.File)
				st[k] = fr
			}
			g.Stack = st
		}
		out[j] = g
	}
	return out
}

// innermostRepoFrame is where a dynamic finding without a position is
// shown: the innermost frame in a file under the root (already made
// relative), or no position at all.
func innermostRepoFrame(gs []checks.Goroutine) checks.Position {
	for _, g := range gs {
		for _, fr := range g.Stack {
			if fr.File != "" && fr.Line > 0 && !filepath.IsAbs(fr.File) {
				return checks.Position{File: fr.File, Line: fr.Line}
			}
		}
	}
	return checks.Position{}
}

// where is a finding's position for people, or its package when it has none.
func where(f *checks.Finding) string {
	if f.Pos.IsValid() {
		return f.Pos.String()
	}
	if f.Package != "" {
		return f.Package
	}
	return "-"
}

// relFile makes an absolute name under root relative; anything else is
// returned as it was.
func relFile(root, name string) string {
	if root == "" || name == "" || !filepath.IsAbs(name) {
		return filepath.ToSlash(name)
	}
	rel, err := filepath.Rel(root, name)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(name)
	}
	return filepath.ToSlash(rel)
}

// relSite applies relFile to the file part of "file:line".
func relSite(root, site string) string {
	i := strings.LastIndex(site, ":")
	if i < 0 {
		return relFile(root, site)
	}
	return relFile(root, site[:i]) + site[i:]
}

// isDynamic reports whether f came from the controlled scheduler.
func isDynamic(f *checks.Finding) bool {
	return f.Evidence == checks.Dynamic || f.Evidence == checks.Confirmed
}

// ruleOf returns the registered rule for id, or a bare one.
func ruleOf(id string) checks.Rule {
	if r, ok := checks.LookupRule(id); ok {
		return r
	}
	return checks.Rule{ID: id, Title: id}
}

// bySeverity orders findings most severe first, then by position.
func bySeverity(fs []checks.Finding) {
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Severity > fs[j].Severity })
}

// counts summarizes findings per severity: "1 error, 2 warnings".
func counts(fs []checks.Finding) string {
	n := map[checks.Severity]int{}
	for _, f := range fs {
		n[f.Severity]++
	}
	var parts []string
	for _, s := range []checks.Severity{checks.Error, checks.Warning, checks.Note} {
		if n[s] == 0 {
			continue
		}
		word := s.String()
		if n[s] > 1 {
			word += "s"
		}
		parts = append(parts, fmt.Sprintf("%d %s", n[s], word))
	}
	return strings.Join(parts, ", ")
}
