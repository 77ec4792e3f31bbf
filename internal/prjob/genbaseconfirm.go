package prjob

import "github.com/interleave-dev/interleave/checks"

// confirmByOnBase lets the generated findings in the change whose tests
// fail the same way on the base commit (r.genOnBase) confirm unconfirmed
// candidates, as the search's failures do (confirmAll runs before byCause
// compares them with the base): a candidate on the change's lines whose
// own access races under a replayed schedule is true whether or not the
// base had the race too. A finding that confirms one becomes that
// candidate and leaves r.genOnBase; the others stay there, pre-existing.
func (r *job) confirmByOnBase(final []checks.Finding) []checks.Finding {
	cands := r.confirm.unconfirmed
	if len(cands) == 0 || len(r.genOnBase) == 0 {
		return final
	}
	var keep []checks.Finding
	for _, d := range r.genOnBase {
		if d.NotReplayed != "" || !r.genInChange(&d) {
			keep = append(keep, d)
			continue
		}
		merged := confirm(cands, []checks.Finding{d}, r.change.ModuleDir)
		if len(merged) > len(cands) {
			keep = append(keep, d) // it confirmed none
			continue
		}
		cands = merged
	}
	r.genOnBase = keep
	r.confirm.unconfirmed = nil
	for _, c := range cands {
		if c.Evidence == checks.Confirmed {
			r.confirm.confirmed++
			r.confirm.byGen++
			final = append(final, c)
		} else {
			r.confirm.unconfirmed = append(r.confirm.unconfirmed, c)
		}
	}
	return foldConfirmed(final)
}
