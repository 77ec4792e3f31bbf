package prjob

import (
	"strconv"

	"github.com/interleave-dev/interleave/checks"
)

// One cause, one comment. The search groups its dynamic findings by cause
// (explore.Group); here the static findings of one rule that one dynamic
// finding confirms (the three writes of one method under its read lock,
// say) are that cause too: one finding, the first by position, listing the
// others in SameCause.

// foldConfirmed folds the confirmed findings of one rule that carry the
// same schedule (the one dynamic finding that confirmed them) into the
// first of them by position.
func foldConfirmed(fs []checks.Finding) []checks.Finding {
	type key struct{ rule, schedule, test string }
	keyOf := func(f *checks.Finding) (key, bool) {
		return key{f.Rule, f.Schedule, f.Test}, f.Evidence == checks.Confirmed && f.Schedule != ""
	}
	rep := map[key]int{}
	for i := range fs {
		k, ok := keyOf(&fs[i])
		if !ok {
			continue
		}
		if j, seen := rep[k]; !seen || fs[i].Pos.Less(fs[j].Pos) {
			rep[k] = i
		}
	}
	var out []checks.Finding
	at := map[key]int{} // index in out of each group's representative
	var later []int
	for i := range fs {
		k, ok := keyOf(&fs[i])
		if ok && rep[k] != i {
			later = append(later, i)
			continue
		}
		if ok {
			at[k] = len(out)
		}
		out = append(out, fs[i])
	}
	for _, i := range later {
		k, _ := keyOf(&fs[i])
		o := checks.OccurrenceOf(&fs[i])
		o.Schedule = "" // the finding's own
		out[at[k]].SameCause = append(out[at[k]].SameCause, o)
		out[at[k]].SameCause = append(out[at[k]].SameCause, fs[i].SameCause...)
	}
	return out
}

// addConfirmation lists dynamic finding d, and the others of its cause, in
// s, a finding another schedule confirmed first.
func addConfirmation(s, d *checks.Finding) {
	s.SameCause = append(s.SameCause, checks.OccurrenceOf(d))
	s.SameCause = append(s.SameCause, d.SameCause...)
}

// occurrenceSites adds the positions of f's occurrences to sites.
func occurrenceSites(f *checks.Finding, dir string, out map[string]bool) {
	for _, o := range f.SameCause {
		for _, p := range append([]checks.Related{{Position: o.Pos}}, o.Related...) {
			if p.File != "" && p.Line > 0 {
				out[AbsIn(dir, p.File)+":"+strconv.Itoa(p.Line)] = true
			}
		}
	}
}

// onChangedOccurrence returns the first position of f's occurrences (their
// own or a related one) that is on a changed line.
func onChangedOccurrence(f *checks.Finding, on func(file string, line int) bool) (checks.Position, bool) {
	for _, o := range f.SameCause {
		for _, p := range append([]checks.Related{{Position: o.Pos}}, o.Related...) {
			if on(p.File, p.Line) {
				return p.Position, true
			}
		}
	}
	return checks.Position{}, false
}
