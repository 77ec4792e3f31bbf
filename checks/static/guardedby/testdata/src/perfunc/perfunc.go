// Package perfunc: one missing Lock in one function that reads several
// fields its lock guards is one defect, so one finding (issue 24: one
// finding per defect), the other fields' accesses its related positions.
// The shape of rueidiscompat's pubsub.String (sample 2026-12-01, 8.1-8.3:
// three IL1009 findings for p.channels, p.patterns, p.schannels).
package perfunc

import (
	"fmt"
	"sync"
)

// PubSub subscribes to channels.
type PubSub interface {
	Subscribe(chans ...string)
	String() string
	Close() error
}

type pubsub struct {
	mu        sync.Mutex
	statsMu   sync.Mutex
	hits      int
	channels  map[string]bool
	patterns  map[string]bool
	schannels map[string]bool
	reconn    chan struct{}
}

func NewPubSub() PubSub {
	p := &pubsub{channels: map[string]bool{}, patterns: map[string]bool{}, schannels: map[string]bool{}, reconn: make(chan struct{})}
	go p.reset()
	return p
}

func (p *pubsub) reset() {
	for range p.reconn {
		p.mu.Lock()
		p.channels = map[string]bool{}
		p.patterns = map[string]bool{}
		p.schannels = map[string]bool{}
		p.mu.Unlock()
		p.statsMu.Lock()
		p.hits = 0
		p.statsMu.Unlock()
	}
}

func (p *pubsub) Subscribe(chans ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range chans {
		p.channels[c] = true
		p.patterns[c] = true
		p.schannels[c] = true
	}
	p.statsMu.Lock()
	p.hits++
	p.statsMu.Unlock()
}

// String reads the three maps without p.mu: one defect, one finding. It
// also reads p.hits without p.statsMu, another lock: a second finding.
func (p *pubsub) String() string {
	return fmt.Sprint(len(p.channels), len(p.patterns), len(p.schannels), // want `field p.channels read without holding p.mu in exported method String.*\(and 2 more accesses, listed as related\)`
		p.hits) // want `field p.hits read without holding p.statsMu \(held at 2 of 2 other accesses\); reset runs on the goroutine`
}

func (p *pubsub) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.channels = nil
	p.patterns = nil
	p.schannels = nil
	return nil
}
