package bad

import (
	"errors"
	"sync"
)

var errStale = errors.New("stale offer")

type offer struct{ format string }

type track struct{ format string }

func (t *track) retarget(o *offer) *track { return &track{format: o.format} }

// player re-checks its ticket, but its commit keeps the ticket: a second
// adopt of the same offer passes the check after the first committed.
type player struct {
	mu      sync.Mutex
	cur     *track
	pending *offer
}

func (p *player) adopt(o *offer) error {
	p.mu.Lock()
	base := p.cur
	p.mu.Unlock()
	next := base.retarget(o)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pending != o {
		return errStale
	}
	p.cur = next // want `p\.cur is written from next, read under p\.mu in an earlier critical section`
	return nil
}

// deck clears its ticket on commit, but swap writes cur without touching
// the ticket: its update, made between the sections, is lost.
type deck struct {
	mu      sync.Mutex
	cur     *track
	pending *offer
}

func (d *deck) swap(t *track) {
	d.mu.Lock()
	d.cur = t
	d.mu.Unlock()
}

func (d *deck) adopt(o *offer) error {
	d.mu.Lock()
	base := d.cur
	d.mu.Unlock()
	next := base.retarget(o)
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.pending != o {
		return errStale
	}
	d.cur = next // want `d\.cur is written from next, read under d\.mu in an earlier critical section`
	d.pending = nil
	return nil
}

// link tests peer in the second section but never sets it: every
// handshake takes the branch that writes.
type link struct {
	mu    sync.Mutex
	modes []string
	peer  *track
}

func pick(local, remote []string) []string { return append(local[:0:0], remote...) }

func (l *link) handshake(remote []string) error {
	l.mu.Lock()
	local := l.modes
	l.mu.Unlock()
	common := pick(local, remote)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.peer != nil {
		return nil
	}
	l.modes = common // want `l\.modes is written from common, read under l\.mu in an earlier critical section`
	return nil
}

// wire's handshake is once-only, but SetModes writes modes with no test
// of peer: it can run between the two sections.
type wire struct {
	mu    sync.Mutex
	modes []string
	peer  *track
}

func (w *wire) SetModes(m []string) {
	w.mu.Lock()
	w.modes = m
	w.mu.Unlock()
}

func (w *wire) handshake(remote []string, peer *track) error {
	w.mu.Lock()
	local := w.modes
	w.mu.Unlock()
	common := pick(local, remote)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.peer != nil {
		return nil
	}
	w.modes = common // want `w\.modes is written from common, read under w\.mu in an earlier critical section`
	w.peer = peer
	return nil
}

// table's ticket is a local copy of pending, and commits clear it: when
// pending was nil at the first read, a commit in between leaves it nil
// and the re-check passes.
type table struct {
	mu      sync.Mutex
	rows    []string
	pending *offer
}

func (t *table) Replace(rows []string) {
	t.mu.Lock()
	t.rows = rows
	t.pending = nil
	t.mu.Unlock()
}

func (t *table) extend(more func([]string) []string) {
	t.mu.Lock()
	rows, mine := t.rows, t.pending
	t.mu.Unlock()
	next := more(rows)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pending != mine {
		return
	}
	t.rows = next // want `t\.rows is written from next, read under t\.mu in an earlier critical section`
	t.pending = nil
}

// media stages offers outside the latch too (Stage tests nothing), so a
// staged apply can run between the two sections of a first negotiation.
type media struct {
	mu     sync.Mutex
	codecs []string
	conn   *track
	staged []string
}

func (m *media) negotiate(remote []string, conn *track) error {
	m.mu.Lock()
	local := m.codecs
	m.mu.Unlock()
	common := pick(local, remote)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.conn != nil {
		m.staged = common
		return nil
	}
	m.codecs = common // want `m\.codecs is written from common, read under m\.mu in an earlier critical section`
	m.conn = conn
	return nil
}

func (m *media) Stage(c []string) {
	m.mu.Lock()
	m.staged = c
	m.mu.Unlock()
}

func (m *media) Apply() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.staged) > 0 {
		m.codecs = m.staged
		m.staged = nil
	}
}

// call stages only once connected, but Hangup clears conn: a new first
// negotiation can follow an apply of what was staged before.
type call struct {
	mu     sync.Mutex
	codecs []string
	conn   *track
	staged []string
}

func (c *call) negotiate(remote []string, conn *track) error {
	c.mu.Lock()
	local := c.codecs
	c.mu.Unlock()
	common := pick(local, remote)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn != nil {
		c.staged = common
		return nil
	}
	c.codecs = common // want `c\.codecs is written from common, read under c\.mu in an earlier critical section`
	c.conn = conn
	return nil
}

func (c *call) Apply() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.staged) > 0 {
		c.codecs = c.staged
		c.staged = nil
	}
}

func (c *call) Hangup() {
	c.mu.Lock()
	c.conn = nil
	c.mu.Unlock()
}
