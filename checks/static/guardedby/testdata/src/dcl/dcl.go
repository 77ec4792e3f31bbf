package dcl

import (
	"sync"
	"sync/atomic"
)

type Config struct{ Name string }

type Lazy struct {
	mu  sync.Mutex
	cfg *Config
}

func load() *Config { return &Config{Name: "x"} }

func (l *Lazy) Get() *Config {
	if l.cfg == nil { // want `double-checked locking: field l.cfg read without holding l.mu, then checked again and written under it`
		l.mu.Lock()
		if l.cfg == nil {
			l.cfg = load()
		}
		l.mu.Unlock()
	}
	return l.cfg
}

// Safe checks only under the lock.
func (l *Lazy) Safe() *Config {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cfg == nil {
		l.cfg = load()
	}
	return l.cfg
}

// Fast double-checks an atomic flag: the idiom sync.Once uses.
type Fast struct {
	mu   sync.Mutex
	done atomic.Bool
	v    int
}

func (f *Fast) Get() int {
	if !f.done.Load() { // ok: atomic flag
		f.mu.Lock()
		if !f.done.Load() {
			f.v = 1
			f.done.Store(true)
		}
		f.mu.Unlock()
	}
	return f.v
}

// Checked reads the field once without the lock and never rechecks it.
type Checked struct {
	mu sync.Mutex
	n  int
}

func (c *Checked) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}
