package handoff

import (
	"context"
	"errors"
	"sync"
)

// Pool refreshes its members once at a time; latecomers wait for the
// running refresh. The mutex is embedded in an anonymous struct field.
type Pool struct {
	refresh struct {
		sync.Mutex
		cond    *sync.Cond
		running bool
		err     error
	}
	members []string
}

// Refresh starts a refresh or waits for the running one.
func (p *Pool) Refresh(ctx context.Context) error { // want Refresh:"acquires p.refresh.Mutex"
	p.refresh.Lock()
	if p.refresh.running {
		for p.refresh.running {
			p.refresh.cond.Wait()
		}
		err := p.refresh.err
		p.refresh.Unlock()
		return err
	}
	// Still locked: run takes it over and releases it.
	return p.run(ctx)
}

// TryRefresh starts a refresh unless one runs.
func (p *Pool) TryRefresh(ctx context.Context) error { // want TryRefresh:"acquires p.refresh.Mutex"
	p.refresh.Lock()
	if p.refresh.running {
		p.refresh.Unlock()
		return nil
	}
	return p.run(ctx)
}

// run is called with p.refresh held; it releases it before the slow part
// and takes it again at the end.
func (p *Pool) run(ctx context.Context) error {
	p.refresh.running = true
	p.refresh.Unlock()

	var err error
	defer func() {
		p.refresh.Lock()
		p.refresh.running = false
		p.refresh.err = err
		p.refresh.cond.Broadcast()
		p.refresh.Unlock()
	}()

	names, err := fetch(ctx)
	if err != nil {
		return err
	}
	p.members = names
	return nil
}

func fetch(ctx context.Context) ([]string, error) {
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return []string{"a"}, nil
}

// Cache hands its lock to a callee that releases it only on some paths.
type Cache struct {
	mu   sync.Mutex
	keys map[string]bool
}

func (c *Cache) Add(k string) error { // want Add:"acquires c.mu"
	c.mu.Lock()
	if c.keys[k] {
		c.mu.Unlock()
		return errors.New("dup")
	}
	return c.insert(k) // want `c.mu locked at line 83 is still held at this return`
}

// insert releases c.mu only when it stores the key.
func (c *Cache) insert(k string) error {
	if k == "" {
		return errors.New("empty")
	}
	c.keys[k] = true
	c.mu.Unlock()
	return nil
}
