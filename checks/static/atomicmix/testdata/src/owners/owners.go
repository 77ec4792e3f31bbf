// Package owners: plain writes of atomically accessed variables (IL3002
// where the write goes through the same owner path as an atomic access,
// marked /* IL3002 */; IL3001 otherwise).
package owners

import (
	"sync"
	"sync/atomic"
)

type counters struct {
	sent int64
	errs int64
}

// Conn counts lock-free; Reset zeroes a counter plainly while senders add.
type Conn struct {
	mu    sync.Mutex
	stats counters
	state int32
}

func NewConn() *Conn {
	c := &Conn{}
	c.stats.sent = 0 // constructor: not shared yet
	return c
}

func (c *Conn) Send() {
	atomic.AddInt64(&c.stats.sent, 1)
	if atomic.LoadInt32(&c.state) != 0 {
		atomic.AddInt64(&c.stats.errs, 1)
	}
}

func (c *Conn) SentNow() int64 { return atomic.LoadInt64(&c.stats.sent) }

func (c *Conn) Reset() {
	c.stats.sent = 0 /* IL3002 */ // want `plain write of c\.stats\.sent races with its atomic accesses`
}

// The lock does not order the write with the lock-free loads in Send.
func (c *Conn) Fail() {
	c.mu.Lock()
	c.state = 1 /* IL3002 */ // want `plain write of c\.state races`
	c.mu.Unlock()
}

// Pool embeds the same counters but only ever updates them under its
// lock: its owner path has no atomic access.
type Pool struct {
	mu    sync.Mutex
	stats counters
}

func (p *Pool) Put() {
	p.mu.Lock()
	p.stats.sent++ // want `plain write of p\.stats\.sent races`
	p.mu.Unlock()
}

var closed int32

func Closed() bool { return atomic.LoadInt32(&closed) == 1 }

func Close() {
	closed = 1 /* IL3002 */ // want `plain write of closed races`
}

// Run resets the counter after every worker is done: ordered by Wait.
func Run(c *Conn, n int) int64 {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Send()
			atomic.AddInt64(&c.stats.errs, 1)
		}()
	}
	wg.Wait()
	v := c.stats.errs
	c.stats.errs = 0 // want `plain write of c\.stats\.errs races`
	return v
}

// A plain read is IL3001's.
func (c *Conn) Sent() int64 {
	return c.stats.sent // want `plain read of c\.stats\.sent races`
}

// Weighted copies a shared value and sets the copy's weight before
// publishing it: the copy is the function's own until then.
func Weighted(c *Conn, w int32) *Conn {
	cp := *c
	cp.state = w
	return &cp
}

// Adjust may have replaced c by its own copy before the write (the same
// condition guards both): not evidence of a shared write.
func Adjust(c *Conn, own bool, w int32) *Conn {
	if own {
		cp := *c
		c = &cp
	}
	if own {
		c.state = w // want `plain write of c\.state races`
	}
	return c
}

// Journal is set up by a helper its opener calls on the value it builds,
// before starting the goroutine that shares it.
type Journal struct {
	seq uint64
}

func (j *Journal) Seq() uint64 { return atomic.LoadUint64(&j.seq) }

func (j *Journal) run() { atomic.AddUint64(&j.seq, 1) }

func (j *Journal) recover() { j.seq = 42 } // set-up only: silent

func (j *Journal) replay() { j.recover() }

func openJournal() *Journal {
	j := &Journal{}
	j.replay()
	go j.run()
	return j
}

// Buffer says it is not safe for concurrent use: its lock-free length is
// no evidence that writers and readers run at once.
//
// Buffer grows as it is written. It is NOT thread-safe.
type Buffer struct {
	off uint64
}

func (b *Buffer) Len() uint64 { return atomic.LoadUint64(&b.off) }

func (b *Buffer) Write(p []byte) {
	b.off += uint64(len(p)) // want `plain write of b\.off races`
}

// Committer publishes its timestamp with one atomic Store but never loads
// it atomically: there is no lock-free reader for a retry to race with.
type Committer struct {
	mu sync.Mutex
	ts uint64
}

func (c *Committer) Execute(ts uint64) { atomic.StoreUint64(&c.ts, ts) }

func (c *Committer) Retry(ts uint64) {
	c.mu.Lock()
	c.ts = ts // want `plain write of c\.ts races`
	c.mu.Unlock()
}

// Snmp's Copy fills a snapshot it made with its constructor: the copy is
// not shared yet.
type Snmp struct {
	sent uint64
}

func newSnmp() *Snmp { return new(Snmp) }

func (s *Snmp) Sent() { atomic.AddUint64(&s.sent, 1) }

func (s *Snmp) Copy() *Snmp {
	d := newSnmp()
	d.sent = atomic.LoadUint64(&s.sent) // ok: d is new
	return d
}

// CommitterProbe exposes the timestamp to tests: its load goes through
// another owner path, no lock-free reader of Committer's own.
type CommitterProbe struct{ *Committer }

func (p CommitterProbe) TS() uint64 { return atomic.LoadUint64(&p.ts) }

// Detail is merged atomically by concurrent aggregators, and filled
// plainly from a response by MergeFrom: no lock-free reader and no
// atomic access in MergeFrom, so nothing shows MergeFrom running beside
// Merge on one value.
type Detail struct {
	keys int64
	size int64
}

func (d *Detail) Merge(o *Detail) {
	atomic.AddInt64(&d.keys, o.keys) // want `plain read of o\.keys`
	atomic.AddInt64(&d.size, o.size) // want `plain read of o\.size`
}

func (d *Detail) MergeFrom(keys, size int64) {
	d.keys += keys // want `plain write of d\.keys races`
	d.size += size // want `plain write of d\.size races`
}

// Logger adds atomically until rotation is on, then plainly under its
// lock: the one method runs beside itself, so the plain add races with
// the atomic one of a call in flight.
type Logger struct {
	mu     sync.Mutex
	rotate int32
	out    int64
}

func (l *Logger) Write(n int) {
	if atomic.LoadInt32(&l.rotate) == 0 {
		atomic.AddInt64(&l.out, int64(n))
		return
	}
	l.mu.Lock()
	l.out += int64(n) /* IL3002 */ // want `plain write of l\.out races`
	l.mu.Unlock()
}

// Limiter reads the result of its atomic add: a lock-free reader.
type Limiter struct{ n int64 }

func (l *Limiter) Take(max int64) bool { return atomic.AddInt64(&l.n, 1) <= max }

func (l *Limiter) Reset() {
	l.n = 0 /* IL3002 */ // want `plain write of l\.n races`
}

// IDs hands out call IDs; reset is a test hook.
type IDs struct{ id uint64 }

func (g *IDs) Next() uint64 { return atomic.AddUint64(&g.id, 1) }

// reset is for testing only, and doesn't need to be thread safe.
func (g *IDs) reset() {
	g.id = 0 // want `plain write of g\.id races`
}

// Zero is documented, but claims nothing about concurrency.
func (g *IDs) Zero() {
	g.id = 0 /* IL3002 */ // want `plain write of g\.id races`
}
