// Package publishonce: a field set once, under a nil check, before the go
// statement whose goroutine reads it, is ordered by the go statement.
package publishonce

import (
	"context"
	"sync"
	"time"
)

type Mgr struct {
	ctx context.Context

	// All variables below here must be protected by the lock
	lk    sync.Mutex
	timer *time.Timer
	queue []int
}

func (m *Mgr) Add(n int) {
	m.lk.Lock()
	defer m.lk.Unlock()
	m.queue = append(m.queue, n)
	m.schedule()
}

// schedule is called with m.lk held.
func (m *Mgr) schedule() {
	if m.timer == nil {
		m.timer = time.NewTimer(time.Second)
		go func() {
			for {
				select {
				case <-m.ctx.Done():
					return
				case <-m.timer.C: // ok: set once, before this goroutine started
					m.lk.Lock()
					m.queue = nil
					m.lk.Unlock()
				}
			}
		}()
	} else {
		m.timer.Reset(time.Second)
	}
}

type Pump struct {
	ctx context.Context

	// All variables below here must be protected by the lock
	lk    sync.Mutex
	timer *time.Timer
	n     int
}

func (p *Pump) Add() {
	p.lk.Lock()
	defer p.lk.Unlock()
	p.n++
	p.restart()
}

// restart is called with p.lk held; it replaces the timer every time,
// while the goroutine of an earlier call still reads it.
func (p *Pump) restart() {
	p.timer = time.NewTimer(time.Second)
	go func() {
		select {
		case <-p.ctx.Done():
		case <-p.timer.C: // want `field p.timer read without holding p.lk`
			p.lk.Lock()
			p.n = 0
			p.lk.Unlock()
		}
	}()
}
