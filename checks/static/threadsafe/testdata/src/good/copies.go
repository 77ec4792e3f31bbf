package good

import "sync"

// Dialer creates connections. All methods are thread-safe (radix's Dialer
// shape: a configuration value).
type Dialer struct {
	mu       sync.Mutex
	dials    int
	AuthUser string
	DB       string
}

func (d *Dialer) Dial() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.dials++
	return d.dials
}

// fromURL fills a copy of d: the caller's Dialer is not written.
func fromURL(user string, d Dialer) Dialer {
	d.AuthUser = user // ok: a by-value copy
	return d
}

// Range is a thread-safe interval.
type Range struct {
	mu   sync.Mutex
	Lo   int
	Hi   int
	seen int
}

func (r *Range) Touch() {
	r.mu.Lock()
	r.seen++
	r.mu.Unlock()
}

// UnmarshalText decodes into the value being built.
func (r *Range) UnmarshalText(b []byte) error {
	r.Lo, r.Hi = 0, len(b) // ok: a decoder, like a constructor
	return nil
}
