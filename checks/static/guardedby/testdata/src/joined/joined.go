// Package joined: fields cleared by a Close that first stops and joins
// the background workers (close(stopCh); wg.Wait()), and near misses.
package joined

import "sync"

type part struct{ n int }

// Store keeps parts and runs background workers until MustClose.
type Store struct {
	stopCh chan struct{}
	wg     sync.WaitGroup

	// partsLock protects the fields below.
	partsLock sync.Mutex
	parts     []*part
	hot       *part
}

func Open() *Store {
	s := &Store{stopCh: make(chan struct{})}
	s.wg.Go(s.watchRetention)
	s.runMerger()
	return s
}

func (s *Store) runMerger() {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.merge()
	}()
}

func (s *Store) watchRetention() {
	for {
		s.dropStale()
		select {
		case <-s.stopCh:
			return
		default:
		}
	}
}

func (s *Store) dropStale() {
	s.partsLock.Lock()
	s.parts = s.parts[:0]
	s.hot = nil
	s.partsLock.Unlock()
}

func (s *Store) merge() {
	<-s.stopCh
	s.partsLock.Lock()
	s.hot = &part{}
	s.partsLock.Unlock()
}

// MustClose stops the workers and waits for them before it clears the
// parts: no worker runs any more.
func (s *Store) MustClose() {
	close(s.stopCh)
	s.wg.Wait()
	s.parts = nil
	s.hot = nil
}

// Queue's flusher is started with a bare go statement: the WaitGroup the
// close waits for does not join it.
type Queue struct {
	stopCh chan struct{}
	wg     sync.WaitGroup

	// mu protects the fields below.
	mu      sync.Mutex
	pending []int
}

func NewQueue() *Queue {
	q := &Queue{stopCh: make(chan struct{})}
	go q.flusher()
	return q
}

func (q *Queue) flusher() {
	for {
		select {
		case <-q.stopCh:
			return
		default:
		}
		q.mu.Lock()
		q.pending = q.pending[:0]
		q.mu.Unlock()
	}
}

func (q *Queue) Close() {
	close(q.stopCh)
	q.wg.Wait()
	q.pending = nil // want `field q.pending written without holding q.mu.*flusher runs on the goroutine started by the go statement`
}

// Pool joins its workers, but clears the field before the join.
type Pool struct {
	stopCh chan struct{}
	wg     sync.WaitGroup

	// mu protects the fields below.
	mu    sync.Mutex
	tasks []int
}

func NewPool() *Pool {
	p := &Pool{stopCh: make(chan struct{})}
	p.wg.Go(p.work)
	return p
}

func (p *Pool) work() {
	for {
		select {
		case <-p.stopCh:
			return
		default:
		}
		p.mu.Lock()
		p.tasks = append(p.tasks, 1)
		p.mu.Unlock()
	}
}

func (p *Pool) Close() {
	close(p.stopCh)
	p.tasks = nil // want `field p.tasks written without holding p.mu.*work runs on the goroutine started by the Go at`
	p.wg.Wait()
}

// Parser has no guard comment: p.mu is inferred from its accesses.
type Parser struct {
	stopCh chan struct{}
	wg     sync.WaitGroup
	mu     sync.Mutex
	lines  []string
}

func (p *Parser) Start() {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		p.flushLoop()
	}()
}

func (p *Parser) flushLoop() {
	for {
		select {
		case <-p.stopCh:
			return
		default:
		}
		p.mu.Lock()
		p.lines = p.lines[:0]
		p.mu.Unlock()
	}
}

func (p *Parser) Add(s string) {
	p.mu.Lock()
	p.lines = append(p.lines, s)
	p.mu.Unlock()
}

func (p *Parser) MustClose() {
	close(p.stopCh)
	p.wg.Wait()
	p.lines = nil
}

// Handover waits for another parser's workers, not p's.
func (p *Parser) Handover(q *Parser) {
	q.wg.Wait()
	p.lines = nil // want `field p.lines written without holding p.mu \(held at 4 of 5 other accesses\); flushLoop runs on the goroutine`
}
