package corpus

import "sync"

// The types of this file claim nothing in their doc, but hold a mutex:
// interleave pr generates tests for them when a change touches them
// (gen.Options.Guarded).

// Tally counts votes per name.
//
// (Retract checks the count and decrements it under two critical
// sections: two Retracts of one vote both succeed.)
type Tally struct {
	mu    sync.Mutex
	votes map[string]int
	total int
}

// NewTally returns an empty tally.
func NewTally() *Tally { return &Tally{votes: map[string]int{}} }

// Vote adds a vote for name.
func (t *Tally) Vote(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.votes[name]++
	t.total++
}

// Count is name's votes.
func (t *Tally) Count(name string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.votes[name]
}

// Retract takes back a vote for name; false when name has none.
func (t *Tally) Retract(name string) bool {
	if t.Count(name) == 0 {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.votes[name]--
	t.total--
	return true
}

// Total is the number of votes.
func (t *Tally) Total() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total
}

// Poll is Tally done right: Retract checks and decrements under one lock.
type Poll struct {
	mu    sync.Mutex
	votes map[string]int
	total int
}

// NewPoll returns an empty poll.
func NewPoll() *Poll { return &Poll{votes: map[string]int{}} }

// Vote adds a vote for name.
func (p *Poll) Vote(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.votes[name]++
	p.total++
}

// Count is name's votes.
func (p *Poll) Count(name string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.votes[name]
}

// Retract takes back a vote for name; false when name has none.
func (p *Poll) Retract(name string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.votes[name] == 0 {
		return false
	}
	p.votes[name]--
	p.total--
	return true
}

// Total is the number of votes.
func (p *Poll) Total() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.total
}
