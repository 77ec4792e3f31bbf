// Package sharedprovider has a process-wide default provider, as a
// telemetry library does: the first client made in a process creates and
// owns it and adds under one lock; every later client borrows it and, the
// bug, reads the total and writes it back in two locked sections, so two
// borrowers' adds can lose one. Only a process's second or later run of a
// test can fail: an earlier run must have made the provider. And a
// borrower's run takes other steps than the owner's, so an earlier run
// replayed as the first of a process leaves its recorded schedule.
package sharedprovider

import "sync"

// Provider totals what its clients add.
type Provider struct {
	mu    sync.Mutex
	total int
}

var (
	defaultMu sync.Mutex
	defaultP  *Provider
)

// Client adds into the default provider.
type Client struct {
	p        *Provider
	borrowed bool
}

// NewClient returns a client of the default provider, made by the first
// call of the process.
func NewClient() *Client {
	defaultMu.Lock()
	defer defaultMu.Unlock()
	if defaultP == nil {
		defaultP = &Provider{}
		return &Client{p: defaultP}
	}
	return &Client{p: defaultP, borrowed: true}
}

// Add adds n to the provider's total.
func (c *Client) Add(n int) {
	p := c.p
	if !c.borrowed {
		p.mu.Lock()
		p.total += n
		p.mu.Unlock()
		return
	}
	p.mu.Lock()
	v := p.total
	p.mu.Unlock()
	p.mu.Lock()
	p.total = v + n // the bug: another add may have come in between
	p.mu.Unlock()
}

// Total is the provider's total.
func (c *Client) Total() int {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	return c.p.total
}
