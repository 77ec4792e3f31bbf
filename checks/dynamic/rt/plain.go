package rt

// PlainStrategy is the name of the unperturbed strategy.
const PlainStrategy = "plain"

// Plain is the unperturbed schedule: it never preempts. The goroutine that
// ran last runs on while it can (after a hand-off on a channel, the side
// that came second, as in the runtime); when it blocks, the newest enabled
// goroutine runs (as Go's runtime runs a goroutine just started or woken
// next); a select takes its first ready case. A failure on this
// schedule is not caused by the interleaving: the driver compares the
// failures of the search with it.
type Plain struct{}

func (Plain) Reset(int64) {}

func (Plain) Next(enabled []Candidate, last int, step int) int {
	best := 0
	for i, c := range enabled {
		if c.G == last {
			return i
		}
		if c.G > enabled[best].G {
			best = i
		}
	}
	return best
}

func (Plain) Choose(n int, step int) int { return 0 }
