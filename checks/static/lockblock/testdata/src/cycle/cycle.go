// Package cycle holds lock–channel and lock–WaitGroup cycles (IL6002)
// next to the look-alike idioms that are not cycles (IL6001 only).
package cycle

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Hub sends events under its lock to a consumer that takes the same lock
// for every event it handles: once the consumer waits for h.mu, the
// sender holding it waits for the consumer.
type Hub struct {
	mu     sync.Mutex
	events chan int
	seen   int
}

func NewHub() *Hub {
	h := &Hub{events: make(chan int)}
	go h.consume()
	return h
}

func (h *Hub) consume() {
	for ev := range h.events {
		h.mu.Lock()
		h.seen += ev
		h.mu.Unlock()
	}
}

func (h *Hub) Publish(ev int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events <- ev // want `send on channel h.events while holding h.mu, and every receiver needs h.mu: deadlock`
}

// Pool waits for its workers while holding the lock a worker takes for
// every job: a worker blocked on p.mu never reaches Done.
type Pool struct {
	mu   sync.Mutex
	wg   sync.WaitGroup
	quit chan struct{}
	jobs chan int
	done int
}

func NewPool(n int) *Pool {
	p := &Pool{quit: make(chan struct{}), jobs: make(chan int)}
	for i := 0; i < n; i++ {
		p.wg.Add(1)
		go p.work()
	}
	return p
}

func (p *Pool) work() {
	defer p.wg.Done()
	for {
		select {
		case <-p.quit:
			return
		case j := <-p.jobs:
			p.mu.Lock()
			p.done += j
			p.mu.Unlock()
		}
	}
}

func (p *Pool) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	close(p.quit)
	p.wg.Wait() // want `p.wg.Wait\(\) called while holding p.mu, and every Done needs p.mu: deadlock`
}

func (p *Pool) Submit(j int) {
	p.jobs <- j
}

// Gate waits for a signal that is only ever given under the same lock.
type Gate struct {
	mu     sync.Mutex
	opened chan struct{}
	isOpen bool
}

func NewGate() *Gate { return &Gate{opened: make(chan struct{})} }

func (g *Gate) Open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.isOpen {
		g.isOpen = true
		close(g.opened)
	}
}

func (g *Gate) Wait() {
	g.mu.Lock()
	defer g.mu.Unlock()
	<-g.opened // want `receive from channel g.opened while holding g.mu, and every sender needs g.mu: deadlock`
}

// Pair selects on two channels whose senders both need the lock.
type Pair struct {
	mu   sync.RWMutex
	a, b chan int
	n    int
}

func NewPair() *Pair { return &Pair{a: make(chan int), b: make(chan int)} }

func (p *Pair) SendA(v int) {
	p.mu.Lock()
	p.n++
	p.a <- v // want `send on channel p.a while holding p.mu, and every receiver needs p.mu: deadlock`
	p.mu.Unlock()
}

func (p *Pair) SendB(v int) {
	p.mu.RLock()
	p.b <- v // want `send on channel p.b while holding p.mu, and every receiver needs p.mu: deadlock`
	p.mu.RUnlock()
}

func (p *Pair) Take() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	select { // want `select while holding p.mu, and every partner of its cases needs p.mu: deadlock`
	case v := <-p.a:
		return v
	case v := <-p.b:
		return v
	}
}

// A package-level lock and channel.
var (
	regMu   sync.Mutex
	regCh   = make(chan string)
	entries []string
)

func Register(name string) {
	regMu.Lock()
	regCh <- name // want `send on channel regCh while holding regMu, and every receiver needs regMu: deadlock`
	regMu.Unlock()
}

func init() {
	go func() {
		for {
			regMu.Lock()
			entries = append(entries, <-regCh) // want `receive from channel regCh while holding regMu, and every sender needs regMu: deadlock`
			regMu.Unlock()
		}
	}()
}

// Loop is a shutdown barrier: Close holds the lock to keep new calls
// out while the loop, which never takes it, finishes.
type Loop struct {
	mu     sync.Mutex
	stop   chan struct{}
	exited chan struct{}
	closed bool
}

func NewLoop() *Loop {
	l := &Loop{stop: make(chan struct{}), exited: make(chan struct{})}
	go l.run()
	return l
}

func (l *Loop) run() {
	defer close(l.exited)
	<-l.stop
}

func (l *Loop) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.closed = true
	close(l.stop)
	<-l.exited // want `receive from channel l.exited while holding l.mu$`
}

// Bounded waits under a lock: a timer or the caller's context ends them.
type Bounded struct {
	mu    sync.Mutex
	reply chan int
	n     int
}

func NewBounded() *Bounded { return &Bounded{reply: make(chan int)} }

func (b *Bounded) Answer(v int) {
	b.mu.Lock()
	b.n++
	b.mu.Unlock()
	b.reply <- v
}

func (b *Bounded) Ask(ctx context.Context) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	select { // want `select without default while holding b.mu$`
	case v := <-b.reply:
		return v
	case <-ctx.Done():
		return 0
	case <-time.After(time.Second):
		return -1
	}
}

// Worker has one lock per instance; Fanout holds the pool's lock, never a
// worker's, while it hands work over.
type Worker struct {
	mu  sync.Mutex
	in  chan int
	sum int
}

func (w *Worker) run() {
	for v := range w.in {
		w.mu.Lock()
		w.sum += v
		w.mu.Unlock()
	}
}

type Fanout struct {
	mu      sync.Mutex
	workers []*Worker
}

func (f *Fanout) Start(n int) {
	for i := 0; i < n; i++ {
		w := &Worker{in: make(chan int)}
		f.workers = append(f.workers, w)
		go w.run()
	}
}

func (f *Fanout) Send(v int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, w := range f.workers {
		w.in <- v // want `send on channel w.in while holding f.mu$`
	}
}

// Option documents a blocking mode: the reader it waits for never takes
// the lock.
type Notifier struct {
	mu       sync.Mutex
	blocking bool
	out      chan int
}

func NewNotifier(blocking bool) *Notifier {
	return &Notifier{blocking: blocking, out: make(chan int)}
}

// Notify blocks until the reader takes v when the notifier is blocking.
func (n *Notifier) Notify(v int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.blocking {
		n.out <- v // want `send on channel n.out while holding n.mu$`
		return
	}
	select {
	case n.out <- v:
	default:
	}
}

func (n *Notifier) Next() int { return <-n.out }

// Dispatcher drops its lock around the callback-like wait for its
// workers, so the workers can take it.
type Dispatcher struct {
	mu    sync.Mutex
	wg    sync.WaitGroup
	count int
}

func (d *Dispatcher) Run(n int) {
	d.mu.Lock()
	for i := 0; i < n; i++ {
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			d.mu.Lock()
			d.count++
			d.mu.Unlock()
		}()
	}
	d.mu.Unlock()
	d.wg.Wait()
}

// Readers share a read lock: two holders do not exclude each other.
type Readers struct {
	mu   sync.RWMutex
	feed chan int
}

func NewReaders() *Readers { return &Readers{feed: make(chan int)} }

func (r *Readers) Push(v int) {
	r.mu.RLock()
	r.feed <- v // want `send on channel r.feed while holding r.mu$`
	r.mu.RUnlock()
}

func (r *Readers) Pull() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return <-r.feed // want `receive from channel r.feed while holding r.mu$`
}

// Handoff's channel escapes to a helper: its partners cannot all be seen.
type Handoff struct {
	mu sync.Mutex
	ch chan int
}

func NewHandoff() *Handoff {
	h := &Handoff{ch: make(chan int)}
	go drain(h.ch)
	return h
}

func drain(ch chan int) {
	for range ch {
	}
}

func (h *Handoff) Put(v int) {
	h.mu.Lock()
	h.ch <- v // want `send on channel h.ch while holding h.mu$`
	h.mu.Unlock()
}

// Buffered holds its lock across a send on a channel with room.
type Buffered struct {
	mu  sync.Mutex
	sig chan struct{}
}

func NewBuffered() *Buffered { return &Buffered{sig: make(chan struct{}, 1)} }

func (b *Buffered) Kick() {
	b.mu.Lock()
	b.sig <- struct{}{}
	b.mu.Unlock()
}

func (b *Buffered) Wait() {
	<-b.sig
	b.mu.Lock()
	b.mu.Unlock()
}

// Router's consumer takes the lock in a method it calls for each value.
type Router struct {
	mu    sync.Mutex
	in    chan int
	total int
}

func NewRouter() *Router {
	r := &Router{in: make(chan int)}
	go r.loop()
	return r
}

func (r *Router) loop() {
	for v := range r.in {
		r.add(v)
	}
}

func (r *Router) add(v int) {
	r.mu.Lock()
	r.total += v
	r.mu.Unlock()
}

func (r *Router) Route(v int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.in <- v // want `send on channel r.in while holding r.mu, and every receiver needs r.mu: deadlock`
}

// Relay's consumer locks another object, not the relay.
type Relay struct {
	mu   sync.Mutex
	in   chan int
	sink *Sink
}

type Sink struct {
	mu sync.Mutex
	n  int
}

func (s *Sink) add(v int) {
	s.mu.Lock()
	s.n += v
	s.mu.Unlock()
}

func NewRelay(s *Sink) *Relay {
	r := &Relay{in: make(chan int), sink: s}
	go r.loop()
	return r
}

func (r *Relay) loop() {
	for v := range r.in {
		r.sink.add(v)
	}
}

func (r *Relay) Send(v int) {
	r.mu.Lock()
	r.in <- v // want `send on channel r.in while holding r.mu$`
	r.mu.Unlock()
}

// Monitor's goroutines count themselves in under the lock that Stop
// holds while waiting: a goroutine that has not added yet is not waited
// for, and one that has never takes the lock again.
type Monitor struct {
	mu   sync.Mutex
	wg   sync.WaitGroup
	quit chan struct{}
}

func NewMonitor() *Monitor { return &Monitor{quit: make(chan struct{})} }

func (m *Monitor) register() {
	m.mu.Lock()
	m.wg.Add(1)
	m.mu.Unlock()
}

func (m *Monitor) run() {
	m.register()
	defer m.wg.Done()
	<-m.quit
}

func (m *Monitor) Start() { go m.run() }

func (m *Monitor) Stop() {
	m.mu.Lock()
	defer m.mu.Unlock()
	select {
	case <-m.quit:
	default:
		close(m.quit)
	}
	m.wg.Wait() // want `m.wg.Wait\(\) called while holding m.mu$`
}

// Cleaner's Start announces itself under stopMu (stopped = false) before
// it releases the lock and waits; Stop sends only when it sees that flag
// under stopMu: the receiver it waits for is already past its Lock.
type Cleaner struct {
	stopMu  sync.Mutex
	stopped bool
	stopCh  chan struct{}
	ticks   chan int
}

func NewCleaner() *Cleaner {
	return &Cleaner{stopped: true, stopCh: make(chan struct{}), ticks: make(chan int)}
}

func (c *Cleaner) Start() {
	c.stopMu.Lock()
	if !c.stopped {
		c.stopMu.Unlock()
		return
	}
	c.stopped = false
	c.stopMu.Unlock()
	for {
		select {
		case <-c.stopCh:
			return
		case <-c.ticks:
		}
	}
}

func (c *Cleaner) Stop() {
	c.stopMu.Lock()
	defer c.stopMu.Unlock()
	if c.stopped {
		return
	}
	c.stopCh <- struct{}{} // want `send on channel c.stopCh while holding c.stopMu$`
	c.stopped = true
}

// Ticker announces itself too, but takes the lock again before every
// receive: a Stop holding it blocks the next iteration.
type Ticker struct {
	mu      sync.Mutex
	running bool
	n       int
	stop    chan struct{}
}

func NewTicker() *Ticker { return &Ticker{stop: make(chan struct{})} }

func (t *Ticker) Run() {
	t.mu.Lock()
	t.running = true
	t.mu.Unlock()
	for {
		t.mu.Lock()
		t.n++
		t.mu.Unlock()
		<-t.stop
	}
}

func (t *Ticker) Stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.running {
		t.stop <- struct{}{} // want `send on channel t.stop while holding t.mu, and every receiver needs t.mu: deadlock`
	}
}

// fifo is a bounded cache whose keys queue in a buffered channel, every
// send and receive under mu (stanza's regex cache): the receive runs only
// when the buffer is full and the send only when it has room, so neither
// blocks. IL6001 still names the receive under the lock.
type fifo struct {
	mu    sync.Mutex
	keys  chan string
	cache map[string]int
}

func newFIFO(size int) *fifo {
	return &fifo{keys: make(chan string, size), cache: map[string]int{}}
}

func (f *fifo) add(k string, v int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.keys) == cap(f.keys) {
		delete(f.cache, <-f.keys) // want `receive from channel f.keys while holding f.mu$`
	}
	f.cache[k] = v
	f.keys <- k // want `send on channel f.keys while holding f.mu$`
}

// stale tests the buffer in one critical section and receives in another:
// a sender may have come and gone, and so may other receivers.
type stale struct {
	mu   sync.Mutex
	keys chan string
}

func newStale() *stale { return &stale{keys: make(chan string, 4)} }

func (s *stale) put(k string) {
	s.mu.Lock()
	s.keys <- k
	s.mu.Unlock()
}

func (s *stale) pop() string {
	s.mu.Lock()
	n := len(s.keys)
	s.mu.Unlock()
	if n == 0 {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return <-s.keys // want `receive from channel s.keys while holding s.mu, and every sender needs s.mu: deadlock`
}

// full is unbuffered: len == cap always holds, and the receive blocks.
type full struct {
	mu   sync.Mutex
	keys chan string
}

func newFull() *full { return &full{keys: make(chan string)} }

func (f *full) put(k string) {
	f.mu.Lock()
	f.keys <- k // want `send on channel f.keys while holding f.mu, and every receiver needs f.mu: deadlock`
	f.mu.Unlock()
}

func (f *full) pop() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.keys) == cap(f.keys) {
		return <-f.keys // want `receive from channel f.keys while holding f.mu, and every sender needs f.mu: deadlock`
	}
	return ""
}

// A one-shot close: the WaitGroup is counted once when the connection is
// made, and its only Done runs in the Close that wins the CAS, under the
// same lock and before its own Wait. Every later Close finds it at zero.
type ldapConn struct {
	mu      sync.Mutex
	closing uint32
	wg      sync.WaitGroup
	msgs    chan int
}

func newLdapConn() *ldapConn {
	c := &ldapConn{msgs: make(chan int, 10)}
	c.wg.Add(1)
	return c
}

func (c *ldapConn) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if atomic.CompareAndSwapUint32(&c.closing, 0, 1) {
		close(c.msgs)
		c.wg.Done()
	}
	c.wg.Wait() // want `c.wg.Wait\(\) called while holding c.mu$`
}

// A stop that marks itself done, then waits for workers whose deferred
// Done runs after they took the same lock: the workers' Done needs it.
type stopper struct {
	mu sync.Mutex
	wg sync.WaitGroup
	n  int
}

func (s *stopper) start() {
	s.wg.Add(2)
	go s.work()
}

func (s *stopper) work() {
	defer s.wg.Done()
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

func (s *stopper) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wg.Done()
	s.wg.Wait() // want `s.wg.Wait\(\) called while holding s.mu, and every Done needs s.mu: deadlock`
}
