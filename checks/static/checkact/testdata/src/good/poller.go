package good

import (
	"context"
	"sync"
	"time"
)

// A poller whose tag is read and written back only by load, which Start
// calls once before it starts the one polling goroutine, and which that
// goroutine then calls in turn (growthbook's PollDataSource): one serial
// writer, no update can land between load's sections.
type fetched struct {
	tag  string
	body []byte
}

type fetcher interface {
	fetch(ctx context.Context, tag string) (fetched, error)
}

type Poller struct {
	src      fetcher
	interval time.Duration
	cancel   context.CancelFunc
	mu       sync.RWMutex
	ready    bool
	tag      string
	body     []byte
}

func newPoller(src fetcher, every time.Duration) *Poller {
	return &Poller{src: src, interval: every}
}

func (p *Poller) Start(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	p.cancel = cancel
	if err := p.load(ctx); err != nil {
		return err
	}
	p.mu.Lock()
	p.ready = true
	p.mu.Unlock()
	go p.poll(ctx)
	return nil
}

func (p *Poller) Body() []byte {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.body
}

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
	if r.tag != "" {
		p.mu.Lock()
		p.tag = r.tag
		p.body = r.body
		p.mu.Unlock()
	}
	return nil
}
