package prjob

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/static"
	"github.com/interleave-dev/interleave/checks/static/rlockwrite"
)

// Confirmation before commenting. interleave pr runs the opt-in static
// rules too, but only as candidates, and so are the default rules whose
// held-out precision is below the posting bar (checks/static/precision.go).
// Their findings on changed code become targets of the dynamic search (it
// preempts at their positions), and one is reported only when a schedule
// confirms it (the race detector fires at its positions, the test fails
// there, or its locks deadlock). A candidate no schedule confirmed goes to
// the job summary as unconfirmed, never into the report that review
// comments, annotations and SARIF are made from.

// confirmStats counts what the confirmation did in one run.
type confirmStats struct {
	searched    bool             // the dynamic search ran schedules
	targeted    int              // static findings whose sites the search targeted
	confirmed   int              // of those, confirmed by a schedule
	byGen       int              // of those, confirmed by a generated test's schedule
	unconfirmed []checks.Finding // candidates left unconfirmed
}

// staticEnable is the Enable list of pr's static run: the user's, plus
// every opt-in rule (as candidates) unless the user started from none with
// -disable all. -disable of a rule still wins.
func staticEnable(enable, disable []string) []string {
	if slices.Contains(disable, "all") || slices.Contains(enable, "all") {
		return enable
	}
	return append(append([]string(nil), enable...), "all")
}

// postedAsIs reports whether the static findings of rule are posted
// without confirmation: the user named the rule in enable (by ID or slug,
// or "all"), or it is a default rule whose held-out precision clears the
// bar (static.PostedUnconfirmed).
func postedAsIs(rule string, enable []string) bool {
	r, ok := checks.LookupRule(rule)
	if !ok {
		return true
	}
	if slices.Contains(enable, "all") || slices.Contains(enable, r.ID) || slices.Contains(enable, r.Slug) {
		return true
	}
	return r.Level == checks.Default && static.PostedUnconfirmed(r.ID)
}

// splitCandidates splits static findings into those reported as they are
// and the candidates, reported only when confirmed: opt-in rules', and
// default rules' whose measured precision is below the posting bar.
func splitCandidates(fs []checks.Finding, enable []string) (reported, candidates []checks.Finding) {
	for _, f := range fs {
		if f.Evidence == checks.Static && !postedAsIs(f.Rule, enable) {
			candidates = append(candidates, f)
		} else {
			reported = append(reported, f)
		}
	}
	return reported, candidates
}

// confirmAll merges static findings, candidates and dynamic
// findings: confirm first (shared sites), then a deadlock confirms a
// lock-order finding when two of the finding's positions lie on the
// deadlocked goroutines' stacks (the acquisitions happen in callees, so the
// goroutines are blocked elsewhere). Candidates left unconfirmed are taken
// out and recorded in st.
func confirmAll(static, candidates, dynamic []checks.Finding, dir string, st *confirmStats) []checks.Finding {
	all := append(append([]checks.Finding(nil), static...), candidates...)
	merged := confirm(all, dynamic, dir)
	nStatic := len(all)
	used := map[int]bool{}
	for i := 0; i < nStatic; i++ {
		s := &merged[i]
		if s.Evidence != checks.Static {
			continue
		}
		for j := nStatic; j < len(merged); j++ {
			d := &merged[j]
			if used[j] || d.NotReplayed != "" || (d.Kind != checks.Deadlock && d.Kind != checks.Leak) || !confirms(d.Kind, s.Rule) {
				continue
			}
			if stackHits(s, d, dir) < 2 {
				continue
			}
			used[j] = true
			s.Evidence = checks.Confirmed
			s.Schedule, s.Replay, s.Test, s.Goroutines = d.Schedule, d.Replay, d.Test, d.Goroutines
			s.ReplayToken, s.Interleaving, s.SameCause, s.Replays = d.ReplayToken, d.Interleaving, d.SameCause, d.Replays
			s.Severity = max(s.Severity, d.Severity)
			s.Message += fmt.Sprintf(" (confirmed: %s in %s)", d.Kind, d.Test)
			break
		}
	}
	var out []checks.Finding
	for i, f := range merged {
		if used[i] {
			continue
		}
		if i < nStatic {
			if st.searched {
				st.targeted++
			}
			if f.Evidence == checks.Confirmed {
				st.confirmed++
			} else if i >= len(static) {
				st.unconfirmed = append(st.unconfirmed, f)
				continue
			}
		}
		out = append(out, f)
	}
	return foldConfirmed(out)
}

// stackHits counts the positions of static finding s (its own and its
// related ones) that appear as frames on the stacks of dynamic finding d.
func stackHits(s, d *checks.Finding, dir string) int {
	want := sites(s, dir, false)
	hit := map[string]bool{}
	for _, g := range d.Goroutines {
		for _, fr := range g.Stack {
			k := fmt.Sprintf("%s:%d", AbsIn(dir, fr.File), fr.Line)
			if want[k] {
				hit[k] = true
			}
		}
		if file, line, ok := splitSite(g.Site); ok {
			if k := fmt.Sprintf("%s:%d", AbsIn(dir, file), line); want[k] {
				hit[k] = true
			}
		}
	}
	return len(hit)
}

// logLine is the count line pr prints: targeted, confirmed, unconfirmed.
func (st *confirmStats) logLine() string {
	by := ""
	if st.byGen > 0 {
		by = fmt.Sprintf(" (%d by a generated test)", st.byGen)
	}
	return fmt.Sprintf("confirmation: %d static %s targeted by the search, %d confirmed by a schedule%s, %d %s unconfirmed (job summary only)",
		st.targeted, checks.Plural(st.targeted, "finding"), st.confirmed, by, len(st.unconfirmed), checks.Plural(len(st.unconfirmed), "finding"))
}

// summary is the job summary's section on confirmation: the counts and
// every unconfirmed candidate, which is not posted anywhere else.
func (st *confirmStats) summary(root string) string {
	if st.targeted == 0 && len(st.unconfirmed) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nConfirmation: %d static %s targeted by the search, %d confirmed by a schedule.\n",
		st.targeted, checks.Plural(st.targeted, "finding"), st.confirmed)
	if len(st.unconfirmed) == 0 {
		return b.String()
	}
	fmt.Fprintf(&b, "\n<details><summary>Unconfirmed: %d %s of opt-in rules or rules below the posting bar, not posted</summary>\n\n", len(st.unconfirmed), checks.Plural(len(st.unconfirmed), "finding"))
	b.WriteString("No schedule made these happen, and their rules' measured precision is below the bar for posting unconfirmed findings (90% over at least 10), so they are not commented on; `-enable` a rule to report its findings regardless.\n\n")
	b.WriteString("| rule | where | message |\n|---|---|---|\n")
	for _, f := range st.unconfirmed {
		where := relTo(root, f.Pos.File)
		fmt.Fprintf(&b, "| %s | `%s:%d` | %s |\n", f.Rule, strings.ReplaceAll(where, "|", `\|`), f.Pos.Line, cell(f.Message))
	}
	b.WriteString("\n</details>\n")
	return b.String()
}

// verbose lists, for -v, what each targeted candidate became.
func (st *confirmStats) verbose(root string) []string {
	var out []string
	for _, f := range st.unconfirmed {
		out = append(out, fmt.Sprintf("  unconfirmed %s at %s:%d: %s", f.Rule, relTo(root, f.Pos.File), f.Pos.Line, f.Message))
	}
	return out
}

func relTo(root, file string) string {
	if root != "" && strings.HasPrefix(file, root+"/") {
		return strings.TrimPrefix(file, root+"/")
	}
	return file
}

func cell(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

// confirms reports whether a dynamic failure of kind can confirm a static
// finding of rule: a deadlock confirms lock-order and blocking rules, a race
// the data-access rules; a panic or a failing test any of them.
func confirms(kind checks.FailureKind, rule string) bool {
	family := ""
	if len(rule) >= 3 && strings.HasPrefix(rule, "IL") {
		family = rule[:3]
	}
	switch kind {
	case checks.Deadlock, checks.Leak:
		return family == "IL2" || family == "IL6"
	case checks.DataRace, checks.Fatal:
		return family == "IL1" || rule == rlockwrite.RuleWriteUnderRLock || family == "IL3" || family == "IL4" || family == "IL5"
	case checks.Panic, checks.TestFailure:
		return family >= "IL1" && family <= "IL6"
	}
	return false
}

// raceFailure is how the testing package fails a test in which the race
// detector reported a race (testing.go, tRunner).
const raceFailure = "race detected during execution of test"

// confirm merges static and dynamic findings: a static finding that
// shares a site with a compatible dynamic one is reported once, as
// confirmed, carrying the schedule; the dynamic finding is then dropped, as
// is the test failure the race detector causes in a test that raced.
// Relative file names are taken relative to dir.
func confirm(static, dynamic []checks.Finding, dir string) []checks.Finding {
	out := append([]checks.Finding(nil), static...)
	var rest []checks.Finding
	raced := map[string]bool{} // package.test with a data race
	for _, d := range dynamic {
		if d.Kind == checks.DataRace {
			raced[d.Package+"."+d.Test] = true
		}
	}
	for _, d := range dynamic {
		// Under -race the testing package also fails the test that raced;
		// that failure is the race again, reported once.
		if d.Kind == checks.TestFailure && raced[d.Package+"."+d.Test] && strings.Contains(d.Message, raceFailure) {
			continue
		}
		if d.NotReplayed != "" {
			// Confirmed means a replayed schedule: one the budget left
			// no time to replay is told on its own, labelled.
			rest = append(rest, d)
			continue
		}
		dsites := sites(&d, dir, true)
		used := false
		for i := range out {
			s := &out[i]
			if s.Evidence == checks.Dynamic || !confirms(d.Kind, s.Rule) {
				continue
			}
			if !intersects(sites(s, dir, false), dsites) {
				continue
			}
			if d.Kind == checks.DataRace && !racesAt(s, &d, dir) {
				continue
			}
			used = true
			if s.Evidence == checks.Confirmed {
				addConfirmation(s, &d) // already confirmed by another schedule
				continue
			}
			s.Evidence = checks.Confirmed
			s.Schedule, s.Replay, s.Test, s.Goroutines = d.Schedule, d.Replay, d.Test, d.Goroutines
			s.ReplayToken, s.Interleaving, s.SameCause, s.Replays = d.ReplayToken, d.Interleaving, d.SameCause, d.Replays
			s.Severity = max(s.Severity, d.Severity)
			s.Message += fmt.Sprintf(" (confirmed: %s in %s)", d.Kind, d.Test)
		}
		if !used {
			rest = append(rest, d)
		}
	}
	return append(out, rest...)
}

// racesAt reports whether race d shows static finding s's own access: its
// position is one of the racing accesses' (or a frame of their stacks, or
// an access of another failure of the same cause). A race between one of
// s's related positions (a locked write it cites) and some other access
// is not the pair s names, and confirms nothing.
func racesAt(s, d *checks.Finding, dir string) bool {
	if s.Pos.File == "" || s.Pos.Line <= 0 {
		return false
	}
	want := fmt.Sprintf("%s:%d", AbsIn(dir, s.Pos.File), s.Pos.Line)
	if sites(d, dir, true)[want] {
		return true
	}
	for _, g := range d.Goroutines {
		for _, fr := range g.Stack {
			if fmt.Sprintf("%s:%d", AbsIn(dir, fr.File), fr.Line) == want {
				return true
			}
		}
	}
	return false
}

// sites returns "abs-file:line" for a finding's position, its
// related positions and, for dynamic findings, the sites the goroutines
// were blocked at.
func sites(f *checks.Finding, dir string, goroutines bool) map[string]bool {
	out := map[string]bool{}
	add := func(file string, line int) {
		if file != "" && line > 0 {
			out[fmt.Sprintf("%s:%d", AbsIn(dir, file), line)] = true
		}
	}
	add(f.Pos.File, f.Pos.Line)
	for _, r := range f.Related {
		add(r.File, r.Line)
	}
	if goroutines {
		for _, g := range f.Goroutines {
			if file, line, ok := splitSite(g.Site); ok {
				add(file, line)
			}
		}
		occurrenceSites(f, dir, out)
	}
	return out
}

func intersects(a, b map[string]bool) bool {
	for k := range a {
		if b[k] {
			return true
		}
	}
	return false
}

// splitSite splits "file:line" (or "file:line:col").
func splitSite(site string) (string, int, bool) {
	i := strings.LastIndexByte(site, ':')
	if i < 0 {
		return "", 0, false
	}
	if n, err := strconv.Atoi(site[i+1:]); err == nil {
		if j := strings.LastIndexByte(site[:i], ':'); j >= 0 {
			if line, err := strconv.Atoi(site[j+1 : i]); err == nil {
				return site[:j], line, true // file:line:col
			}
		}
		return site[:i], n, true
	}
	return "", 0, false
}
