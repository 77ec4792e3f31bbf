package rt

// PlainStrategy is the name of the unperturbed strategy.
const PlainStrategy = "plain"

// Plain is the unperturbed schedule: it never preempts. The goroutine that
// ran last runs on while it can (after a hand-off on a channel, the side
// that came second, as in the runtime); when it blocks, the newest enabled
// goroutine runs (as Go's runtime runs a goroutine just started or woken
// next); when it calls Gosched while another can run, the one that waited
// longest runs (the scheduler's fast path; Next, without that history,
// the newest other); a select takes its first ready case. A failure on this
// schedule is not caused by the interleaving: the driver compares the
// failures of the search with it.
type Plain struct{}

func (Plain) Reset(int64) {}

//go:norace
func (Plain) Next(enabled []Candidate, last int, step int) int {
	best, top := -1, -1
	for i := range enabled {
		c := &enabled[i]
		if c.G == last {
			if c.Op != "Gosched" || len(enabled) == 1 {
				return i
			}
			continue // it yields: another runs, as in the runtime
		}
		if best < 0 || c.G > top {
			best, top = i, c.G
		}
	}
	if best < 0 {
		return 0
	}
	return best
}

func (Plain) Choose(n int, step int) int { return 0 }
