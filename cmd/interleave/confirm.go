package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/interleave-dev/interleave/checks"
)

// Confirmation before commenting. interleave pr runs the opt-in static
// rules too, but only as candidates: their findings on changed code become
// targets of the dynamic search (it preempts at their positions), and one
// is reported only when a schedule confirms it (the race detector fires at
// its positions, the test fails there, or its locks deadlock). An opt-in
// finding no schedule confirmed goes to the job summary as unconfirmed,
// never into the report that review comments are made from.

// prConfirmStats counts what the confirmation did in one run.
type prConfirmStats struct {
	searched    bool             // the dynamic search ran schedules
	targeted    int              // static findings whose sites the search targeted
	confirmed   int              // of those, confirmed by a schedule
	unconfirmed []checks.Finding // opt-in findings left unconfirmed
}

// prStaticEnable is the Enable list of pr's static run: the user's, plus
// every opt-in rule (as candidates) unless the user started from none with
// -disable all. -disable of a rule still wins.
func prStaticEnable(enable, disable []string) []string {
	if slices.Contains(disable, "all") || slices.Contains(enable, "all") {
		return enable
	}
	return append(append([]string(nil), enable...), "all")
}

// prRuleOn reports whether the user runs rule outright: a default rule, or
// one named in enable (by ID or slug, or "all").
func prRuleOn(rule string, enable []string) bool {
	r, ok := checks.LookupRule(rule)
	if !ok || r.Level == checks.Default {
		return true
	}
	for _, e := range enable {
		if e == "all" || e == r.ID || e == r.Slug {
			return true
		}
	}
	return false
}

// prSplitCandidates splits static findings into those reported as they are
// and the opt-in candidates, reported only when confirmed.
func prSplitCandidates(fs []checks.Finding, enable []string) (reported, candidates []checks.Finding) {
	for _, f := range fs {
		if f.Evidence == checks.Static && !prRuleOn(f.Rule, enable) {
			candidates = append(candidates, f)
		} else {
			reported = append(reported, f)
		}
	}
	return reported, candidates
}

// prConfirmAll merges static findings, opt-in candidates and dynamic
// findings: prConfirm first (shared sites), then a deadlock confirms a
// lock-order finding when two of the finding's positions lie on the
// deadlocked goroutines' stacks (the acquisitions happen in callees, so the
// goroutines are blocked elsewhere). Candidates left unconfirmed are taken
// out and recorded in st.
func prConfirmAll(static, candidates, dynamic []checks.Finding, dir string, st *prConfirmStats) []checks.Finding {
	all := append(append([]checks.Finding(nil), static...), candidates...)
	merged := prConfirm(all, dynamic, dir)
	nStatic := len(all)
	used := map[int]bool{}
	for i := 0; i < nStatic; i++ {
		s := &merged[i]
		if s.Evidence != checks.Static {
			continue
		}
		for j := nStatic; j < len(merged); j++ {
			d := &merged[j]
			if used[j] || (d.Kind != checks.Deadlock && d.Kind != checks.Leak) || !prConfirms(d.Kind, s.Rule) {
				continue
			}
			if prStackHits(s, d, dir) < 2 {
				continue
			}
			used[j] = true
			s.Evidence = checks.Confirmed
			s.Schedule, s.Replay, s.Test, s.Goroutines = d.Schedule, d.Replay, d.Test, d.Goroutines
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
	return out
}

// prStackHits counts the positions of static finding s (its own and its
// related ones) that appear as frames on the stacks of dynamic finding d.
func prStackHits(s, d *checks.Finding, dir string) int {
	want := prSites(s, dir, false)
	hit := map[string]bool{}
	for _, g := range d.Goroutines {
		for _, fr := range g.Stack {
			k := fmt.Sprintf("%s:%d", prAbs(dir, fr.File), fr.Line)
			if want[k] {
				hit[k] = true
			}
		}
		if file, line, ok := prSplitSite(g.Site); ok {
			if k := fmt.Sprintf("%s:%d", prAbs(dir, file), line); want[k] {
				hit[k] = true
			}
		}
	}
	return len(hit)
}

// logLine is the count line pr prints: targeted, confirmed, unconfirmed.
func (st *prConfirmStats) logLine() string {
	return fmt.Sprintf("confirmation: %d static %s targeted by the search, %d confirmed by a schedule, %d opt-in %s unconfirmed (job summary only)",
		st.targeted, prPlural(st.targeted, "finding"), st.confirmed, len(st.unconfirmed), prPlural(len(st.unconfirmed), "finding"))
}

// summary is the job summary's section on confirmation: the counts and
// every unconfirmed opt-in finding, which is not posted anywhere else.
func (st *prConfirmStats) summary(root string) string {
	if st.targeted == 0 && len(st.unconfirmed) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nConfirmation: %d static %s targeted by the search, %d confirmed by a schedule.\n",
		st.targeted, prPlural(st.targeted, "finding"), st.confirmed)
	if len(st.unconfirmed) == 0 {
		return b.String()
	}
	fmt.Fprintf(&b, "\n<details><summary>Unconfirmed: %d %s of opt-in rules, not posted</summary>\n\n", len(st.unconfirmed), prPlural(len(st.unconfirmed), "finding"))
	b.WriteString("No schedule made these happen, so they are not commented on; `-enable` a rule to report its findings regardless.\n\n")
	b.WriteString("| rule | where | message |\n|---|---|---|\n")
	for _, f := range st.unconfirmed {
		where := prRel(root, f.Pos.File)
		fmt.Fprintf(&b, "| %s | `%s:%d` | %s |\n", f.Rule, strings.ReplaceAll(where, "|", `\|`), f.Pos.Line, prCell(f.Message))
	}
	b.WriteString("\n</details>\n")
	return b.String()
}

// verbose lists, for -v, what each targeted candidate became.
func (st *prConfirmStats) verbose(root string) []string {
	var out []string
	for _, f := range st.unconfirmed {
		out = append(out, fmt.Sprintf("  unconfirmed %s at %s:%d: %s", f.Rule, prRel(root, f.Pos.File), f.Pos.Line, f.Message))
	}
	return out
}

func prRel(root, file string) string {
	if root != "" && strings.HasPrefix(file, root+"/") {
		return strings.TrimPrefix(file, root+"/")
	}
	return file
}

func prCell(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.ReplaceAll(s, "|", `\|`)
}
