package bad

import (
	"context"
	"sync"
	"time"
)

// Pollers like good/poller.go's where load does not run on one serial
// goroutine: a second entry calls it from any goroutine, or Start starts
// a poller per source.
type fetched struct{ tag string }

type fetcher interface {
	fetch(ctx context.Context, tag string) (fetched, error)
}

type Poller struct {
	src      fetcher
	interval time.Duration
	mu       sync.RWMutex
	tag      string
}

func (p *Poller) Start(ctx context.Context) error {
	if err := p.load(ctx); err != nil {
		return err
	}
	go p.poll(ctx)
	return nil
}

// Refresh calls load from the caller's goroutine, beside the poller.
func (p *Poller) Refresh(ctx context.Context) error { return p.load(ctx) }

func (p *Poller) poll(ctx context.Context) {
	t := time.NewTicker(p.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			p.load(ctx)
		}
	}
}

func (p *Poller) load(ctx context.Context) error {
	p.mu.RLock()
	tag := p.tag
	p.mu.RUnlock()
	r, err := p.src.fetch(ctx, tag)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.tag = r.tag // want `p.tag is written from r, read under p.mu in an earlier critical section`
	p.mu.Unlock()
	return nil
}

// MultiPoller starts one poller goroutine per source: they run load on
// the same value side by side.
type MultiPoller struct {
	srcs []fetcher
	mu   sync.Mutex
	tag  string
}

func (m *MultiPoller) Start(ctx context.Context) {
	for _, s := range m.srcs {
		go m.poll(ctx, s)
	}
}

func (m *MultiPoller) poll(ctx context.Context, s fetcher) {
	for ctx.Err() == nil {
		m.load(ctx, s)
	}
}

func (m *MultiPoller) load(ctx context.Context, s fetcher) {
	m.mu.Lock()
	tag := m.tag
	m.mu.Unlock()
	if r, err := s.fetch(ctx, tag); err == nil {
		m.mu.Lock()
		m.tag = r.tag // want `m.tag is written from r, read under m.mu in an earlier critical section`
		m.mu.Unlock()
	}
}

// LatePoller's Start calls load after it started the poller: the two run
// side by side.
type LatePoller struct {
	src fetcher
	mu  sync.Mutex
	tag string
}

func (l *LatePoller) Start(ctx context.Context) {
	go l.poll(ctx)
	l.load(ctx)
}

func (l *LatePoller) poll(ctx context.Context) {
	for ctx.Err() == nil {
		l.load(ctx)
	}
}

func (l *LatePoller) load(ctx context.Context) {
	l.mu.Lock()
	tag := l.tag
	l.mu.Unlock()
	if r, err := l.src.fetch(ctx, tag); err == nil {
		l.mu.Lock()
		l.tag = r.tag // want `l.tag is written from r, read under l.mu in an earlier critical section`
		l.mu.Unlock()
	}
}
