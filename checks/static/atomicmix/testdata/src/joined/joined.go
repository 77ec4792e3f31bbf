// Package joined: a method resets counters before it starts the goroutines
// that add to them, and joins every one of them before it returns
// (certificate-transparency-go's Scanner.ScanLog). Only two overlapping
// calls of the method race: IL3001 (opt-in), not IL3002. The variants
// below break one condition each and stay IL3002.
package joined

import (
	"sync"
	"sync/atomic"
	"time"
)

type Scanner struct {
	processed int64
	matched   int64
	workers   int
}

// Scan resets the counters, starts a ticker goroutine it stops through an
// unbuffered channel on return and workers it waits for.
func (s *Scanner) Scan(items []int) int64 {
	s.processed = 0 // want `plain write of s\.processed races with its atomic accesses`
	s.matched = 0   // want `plain write of s\.matched races with its atomic accesses`

	stop := make(chan bool)
	go s.report(stop)
	defer func() {
		stop <- true
		close(stop)
	}()

	var wg sync.WaitGroup
	work := make(chan int)
	for w := 0; w < s.workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.match(work)
		}()
	}
	for _, it := range items {
		work <- it
	}
	close(work)
	wg.Wait()
	return atomic.LoadInt64(&s.processed)
}

func (s *Scanner) report(stop <-chan bool) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			_ = atomic.LoadInt64(&s.processed) + atomic.LoadInt64(&s.matched)
		}
	}
}

func (s *Scanner) match(work <-chan int) {
	for it := range work {
		s.count(it)
	}
}

func (s *Scanner) count(it int) {
	atomic.AddInt64(&s.processed, 1)
	if it%2 == 0 {
		atomic.AddInt64(&s.matched, 1)
	}
}

// Watched has a getter anyone may call during a scan: the reset races
// with it.
type Watched struct {
	done int64
}

func (w *Watched) Run(items []int) {
	w.done = 0 /* IL3002 */ // want `plain write of w\.done races with its atomic accesses`
	var wg sync.WaitGroup
	for range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			atomic.AddInt64(&w.done, 1)
		}()
	}
	wg.Wait()
}

func (w *Watched) Done() int64 { return atomic.LoadInt64(&w.done) }

// Detached does not wait for its workers: a second Run resets while the
// first one's workers still add.
type Detached struct {
	sent int64
}

func (d *Detached) Run(items []int) {
	d.sent = 0 /* IL3002 */ // want `plain write of d\.sent races with its atomic accesses`
	for range items {
		go func() {
			atomic.AddInt64(&d.sent, 1)
			_ = atomic.LoadInt64(&d.sent)
		}()
	}
}

// Flushing keeps counting after it was told to stop: the send returns
// before the goroutine's last atomic access.
type Flushing struct {
	seen int64
}

func (f *Flushing) Run(n int) {
	f.seen = 0 /* IL3002 */ // want `plain write of f\.seen races with its atomic accesses`
	stop := make(chan bool)
	go f.tick(stop)
	defer func() { stop <- true }()
	for i := 0; i < n; i++ {
		atomic.AddInt64(&f.seen, 1)
	}
}

func (f *Flushing) tick(stop <-chan bool) {
	for {
		select {
		case <-stop:
			atomic.AddInt64(&f.seen, 1)
			return
		default:
			_ = atomic.LoadInt64(&f.seen)
		}
	}
}

// Early returns between starting its workers and waiting for them.
type Early struct {
	hits int64
}

func (e *Early) Run(items []int) error {
	e.hits = 0 /* IL3002 */ // want `plain write of e\.hits races with its atomic accesses`
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		atomic.AddInt64(&e.hits, 1)
		_ = atomic.LoadInt64(&e.hits)
	}()
	if len(items) == 0 {
		return nil
	}
	wg.Wait()
	return nil
}

// Looped resets inside the loop that starts the goroutines.
type Looped struct {
	n int64
}

func (l *Looped) Run(rounds int) {
	var wg sync.WaitGroup
	for r := 0; r < rounds; r++ {
		l.n = 0 /* IL3002 */ // want `plain write of l\.n races with its atomic accesses`
		wg.Add(1)
		go func() {
			defer wg.Done()
			atomic.AddInt64(&l.n, 1)
			_ = atomic.LoadInt64(&l.n)
		}()
	}
	wg.Wait()
}

// Started is itself run as a goroutine by the package: two runs overlap.
type Started struct {
	n int64
}

func (s *Started) run() {
	s.n = 0 /* IL3002 */ // want `plain write of s\.n races with its atomic accesses`
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		atomic.AddInt64(&s.n, 1)
		_ = atomic.LoadInt64(&s.n)
	}()
	wg.Wait()
}

func (s *Started) Start() {
	go s.run()
	go s.run()
}
