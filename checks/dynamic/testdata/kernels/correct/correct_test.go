// Package correct holds the shapes of the bug kernels, fixed: the search must
// report nothing here.
package correct

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type account struct {
	id      int
	mu      sync.Mutex
	balance int
}

// transfer locks in a global order (by id), so two opposite transfers
// cannot deadlock.
func transfer(from, to *account, n int) {
	first, second := from, to
	if second.id < first.id {
		first, second = second, first
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	from.balance -= n
	to.balance += n
}

func TestLockOrder(t *testing.T) {
	a, b := &account{id: 1, balance: 10}, &account{id: 2, balance: 10}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); transfer(a, b, 1) }()
	go func() { defer wg.Done(); transfer(b, a, 2) }()
	wg.Wait()
	if a.balance+b.balance != 20 {
		t.Fatalf("money created: %d", a.balance+b.balance)
	}
}

type registry struct {
	mu    sync.RWMutex
	names map[string]int
}

func (r *registry) lookup(name string) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if name == "" {
		return r.countLocked()
	}
	return r.names[name]
}

func (r *registry) countLocked() int { return len(r.names) }

func (r *registry) add(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.names[name] = len(r.names)
}

func TestSingleRLock(t *testing.T) {
	r := &registry{names: map[string]int{"a": 0}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); r.lookup("") }()
	go func() { defer wg.Done(); r.add("b") }()
	wg.Wait()
}

type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func TestCounter(t *testing.T) {
	c := &counter{}
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() { defer wg.Done(); c.inc() }()
	}
	wg.Wait()
	if c.n != 3 {
		t.Fatalf("counter = %d, want 3", c.n)
	}
}

type gate struct {
	mu   sync.Mutex
	cond *sync.Cond
	open bool
}

func TestCondPredicateLoop(t *testing.T) {
	g := &gate{}
	g.cond = sync.NewCond(&g.mu)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		g.mu.Lock()
		for !g.open {
			g.cond.Wait()
		}
		g.mu.Unlock()
	}()
	go func() {
		defer wg.Done()
		g.mu.Lock()
		g.open = true
		g.cond.Signal()
		g.mu.Unlock()
	}()
	wg.Wait()
}

type cache struct {
	mu     sync.Mutex
	closed atomic.Bool
	data   map[string]string
}

func (c *cache) get(k string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed.Load() {
		return "", errors.New("closed")
	}
	return c.data[k], nil
}

func TestDeferUnlock(t *testing.T) {
	c := &cache{data: map[string]string{"k": "v"}}
	done := make(chan bool)
	go func() { c.closed.Store(true); done <- true }()
	c.get("k")
	<-done
	c.mu.Lock()
	c.data = nil
	c.mu.Unlock()
}

func fetch(key string) (int, error) {
	ch := make(chan int, 1)
	go func() { ch <- len(key) }()
	if key == "" {
		return 0, errors.New("empty key")
	}
	return <-ch, nil
}

// TestBufferedResult leaves nothing blocked: the buffered send completes
// even when nobody receives. The leaked-but-finished goroutine is no leak.
func TestBufferedResult(t *testing.T) {
	if n, err := fetch("abc"); err != nil || n != 3 {
		t.Fatalf("fetch(abc) = %d, %v", n, err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); fetch("") }()
	wg.Wait()
}

type notifier struct {
	once sync.Once
	done chan struct{}
}

func (n *notifier) shutdown() { n.once.Do(func() { close(n.done) }) }

func TestCloseOnce(t *testing.T) {
	n := &notifier{done: make(chan struct{})}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); n.shutdown() }()
	go func() { defer wg.Done(); n.shutdown() }()
	wg.Wait()
	<-n.done
}

func TestTimeoutWithBuffer(t *testing.T) {
	out := make(chan int, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(5 * time.Millisecond)
		out <- 7
	}()
	select {
	case <-out:
	case <-time.After(5 * time.Millisecond):
	}
	<-done
}

func TestPingPong(t *testing.T) {
	table := make(chan int)
	var served atomic.Bool
	var wg sync.WaitGroup
	play := func() {
		defer wg.Done()
		if served.CompareAndSwap(false, true) {
			table <- 0
		}
		for {
			ball := <-table
			if ball >= 2 {
				return
			}
			table <- ball + 1
			if ball+1 >= 2 {
				return
			}
		}
	}
	wg.Add(2)
	go play()
	go play()
	wg.Wait()
}

func produce(out chan<- int, stop *atomic.Bool) {
	defer close(out)
	for i := range 3 {
		if stop.Load() {
			return
		}
		out <- i
	}
}

func TestProducerCloses(t *testing.T) {
	ch := make(chan int)
	var stop atomic.Bool
	done := make(chan int)
	var wg sync.WaitGroup
	wg.Add(1)
	go produce(ch, &stop)
	go func() {
		sum := 0
		for v := range ch {
			sum += v
		}
		done <- sum
	}()
	go func() { defer wg.Done(); stop.Store(true) }()
	<-done
	wg.Wait()
}

func TestCounterAtomic(t *testing.T) {
	var hits atomic.Int64
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); hits.Add(1) }()
	}
	wg.Wait()
	if hits.Load() != 2 {
		t.Fatalf("hits = %d, want 2", hits.Load())
	}
}

type server struct {
	mu    sync.Mutex
	conns map[int]bool
	ready chan bool
}

func newServer() *server {
	s := &server{ready: make(chan bool), conns: make(map[int]bool)}
	go s.loop()
	return s
}

func (s *server) loop() {
	s.mu.Lock()
	s.conns[1] = true
	s.mu.Unlock()
	s.ready <- true
}

func TestMapBeforeStart(t *testing.T) {
	s := newServer()
	<-s.ready
}

func TestWaitGroupAddBefore(t *testing.T) {
	var wg sync.WaitGroup
	var done atomic.Int32
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			done.Add(1)
		}()
	}
	wg.Wait()
	if n := done.Load(); n != 2 {
		t.Errorf("Wait returned with %d of 2 workers done", n)
	}
}

type sessions struct {
	mu      sync.Mutex
	m       map[string]int
	created int
}

func (s *sessions) open(user string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[user]; ok {
		return
	}
	s.m[user] = 1
	s.created++
}

func TestCheckAndActTogether(t *testing.T) {
	s := &sessions{m: map[string]int{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.open("ann") }()
	go func() { defer wg.Done(); s.open("ann") }()
	wg.Wait()
	if s.created != 1 {
		t.Errorf("created %d sessions for one user, want 1", s.created)
	}
}

// TestOfferOrDoItself offers a job to a worker with select default and does
// it itself when the worker is not receiving: either way it is done once.
func TestOfferOrDoItself(t *testing.T) {
	work := make(chan int)
	stop := make(chan struct{})
	var sum atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case v := <-work:
			sum.Add(int64(v))
		case <-stop:
		}
	}()
	select {
	case work <- 1:
	default:
		sum.Add(1)
	}
	close(stop)
	wg.Wait()
	if got := sum.Load(); got != 1 {
		t.Errorf("sum = %d, want 1", got)
	}
}

// readHeader closes its end of the pipe when it has the header: the
// renderer's next Write fails and it ends.
func readHeader(render func(io.Writer)) ([]string, error) {
	pr, pw := io.Pipe()
	defer pr.Close()
	go func() {
		render(pw)
		pw.Close()
	}()
	br := bufio.NewReader(pr)
	var header []string
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return header, err
		}
		if line == "\n" {
			return header, nil
		}
		header = append(header, strings.TrimSuffix(line, "\n"))
	}
}

func TestHeaderClosesReader(t *testing.T) {
	h, err := readHeader(func(w io.Writer) {
		io.WriteString(w, "a: 1\n")
		io.WriteString(w, "\n")
		io.WriteString(w, "body\n")
	})
	if err != nil || len(h) != 1 {
		t.Fatalf("header %q, %v", h, err)
	}
}

// watch rearms its timer with Stop and Reset alone: since Go 1.23 no
// stale value is left to drain.
func watch(beats <-chan struct{}, timeout time.Duration, n int) int {
	tm := time.NewTimer(timeout)
	got := 0
	for range n {
		select {
		case <-beats:
			got++
		case <-tm.C:
		}
		tm.Stop()
		tm.Reset(timeout)
	}
	return got
}

func TestHeartbeatNoDrain(t *testing.T) {
	beats := make(chan struct{}, 2)
	go func() {
		beats <- struct{}{}
		beats <- struct{}{}
	}()
	if got := watch(beats, 20*time.Millisecond, 2); got > 2 {
		t.Fatalf("%d beats, sent 2", got)
	}
}
