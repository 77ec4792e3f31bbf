package rt

import (
	"math/rand/v2"
	"strings"
)

// Candidate is one enabled goroutine offered to a Strategy.
type Candidate struct {
	G    int    // logical goroutine id
	Op   string // the operation it is parked at
	Site string // file.go:line of that operation
}

// Strategy decides schedules. It is only ever called from the scheduler
// goroutine, so it needs no synchronization of its own (and must use none:
// see DESIGN "Keep the race detector's eyes open").
type Strategy interface {
	// Reset starts a new schedule.
	Reset(seed int64)
	// Next returns the index in enabled of the goroutine to run. last is
	// the goroutine that ran at the previous decision (-1 at the start);
	// step counts decisions from 0.
	Next(enabled []Candidate, last int, step int) int
	// Choose picks one of n alternatives (a select case, the waiter that
	// Signal wakes, the partner of an unbuffered channel operation).
	Choose(n int, step int) int
}

// NewStrategy returns the strategy named by Config.Strategy ("random" or
// empty, PlainStrategy; unknown names fall back to random). targets are "file.go:line"
// sites where preemption is favoured.
func NewStrategy(name string, targets []string) Strategy {
	if name == PlainStrategy {
		return Plain{}
	}
	rw := &RandomWalk{}
	if len(targets) > 0 {
		rw.Targets = map[string]bool{}
		for _, t := range targets {
			rw.Targets[shortSite(t)] = true
		}
	}
	return rw
}

// RandomWalk picks uniformly among the enabled goroutines. With Targets it
// becomes targeted: it keeps running the previous goroutine with probability
// 3/4, except at a target site, where it preempts with probability 9/10.
type RandomWalk struct {
	Targets map[string]bool
	r       *rand.Rand
}

func (w *RandomWalk) Reset(seed int64) {
	w.r = rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
}

func (w *RandomWalk) Next(enabled []Candidate, last int, step int) int {
	if len(enabled) == 1 {
		return 0
	}
	if len(w.Targets) > 0 {
		cur := -1
		for i, c := range enabled {
			if c.G == last {
				cur = i
			}
		}
		if cur >= 0 {
			if w.Targets[enabled[cur].Site] {
				if w.r.IntN(10) < 9 {
					k := w.r.IntN(len(enabled) - 1)
					if k >= cur {
						k++
					}
					return k
				}
				return cur
			}
			if w.r.IntN(4) < 3 {
				return cur
			}
		}
	}
	return w.r.IntN(len(enabled))
}

func (w *RandomWalk) Choose(n int, step int) int {
	if n <= 1 {
		return 0
	}
	return w.r.IntN(n)
}

// shortSite reduces "dir/file.go:12" to "file.go:12".
func shortSite(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
}
