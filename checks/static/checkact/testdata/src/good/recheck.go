package good

import (
	"errors"
	"sync"
)

var errStale = errors.New("stale offer")

type offer struct{ format string }

type track struct{ format string }

func (t *track) retarget(o *offer) *track { return &track{format: o.format} }

// player commits a track prepared outside the lock only while the offer
// it was prepared for is still the pending one: every commit clears or
// replaces pending.
type player struct {
	mu      sync.Mutex
	cur     *track
	pending *offer
	stopped bool
}

func (p *player) Init(t *track) {
	p.mu.Lock()
	p.cur = t // set-up, before the value is shared
	p.mu.Unlock()
}

func (p *player) offerNext(o *offer) {
	p.mu.Lock()
	p.pending = o
	p.mu.Unlock()
}

func (p *player) withdraw() {
	p.mu.Lock()
	p.pending = nil
	p.mu.Unlock()
}

func (p *player) adopt(o *offer) error {
	p.mu.Lock()
	base := p.cur
	p.mu.Unlock()
	next := base.retarget(o) // slow, outside the lock
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped || p.pending != o {
		return errStale
	}
	p.cur = next // ok: the ticket p.pending was re-checked, and every commit clears it
	p.pending = nil
	return nil
}

// link runs its first handshake once: the second section leaves once
// peer is set, and sets peer itself.
type link struct {
	mu     sync.Mutex
	modes  []string
	peer   *track
	staged []string
}

func pick(local, remote []string) []string {
	var out []string
	for _, l := range local {
		for _, r := range remote {
			if l == r {
				out = append(out, l)
			}
		}
	}
	return out
}

func (l *link) handshake(remote []string, peer *track) error {
	l.mu.Lock()
	local := l.modes
	l.mu.Unlock()
	common := pick(local, remote)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.peer != nil {
		l.staged = common
		return nil
	}
	l.modes = common // ok: once-only, l.peer is set in this section
	l.peer = peer
	return nil
}

// commit runs only after the handshake set peer.
func (l *link) commit() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.peer == nil {
		return
	}
	l.modes = l.staged
}

// gate is the other branch: the write is inside if g.open == false.
type gate struct {
	mu    sync.Mutex
	width int
	open  bool
}

func (g *gate) openOnce(scale func(int) int) {
	g.mu.Lock()
	w := g.width
	g.mu.Unlock()
	w = scale(w)
	g.mu.Lock()
	if !g.open {
		g.width = w // ok: once-only, g.open is set in this section
		g.open = true
	}
	g.mu.Unlock()
}

// table bumps gen on every commit: the second section compares it with
// the generation its first section read.
type table struct {
	mu   sync.Mutex
	rows []string
	gen  int
}

func (t *table) Replace(rows []string) {
	t.mu.Lock()
	t.rows = rows
	t.gen++
	t.mu.Unlock()
}

func (t *table) extend(more func([]string) []string) {
	t.mu.Lock()
	rows, gen := t.rows, t.gen
	t.mu.Unlock()
	next := more(rows)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gen != gen {
		return
	}
	t.rows = next // ok: the generation was re-checked, and every commit steps it
	t.gen++
}

// media negotiates once: the second section leaves, staging the offer,
// once conn is set, and sets conn itself. Apply writes codecs only while
// something is staged, and staging happens only once conn is set, which
// nothing clears: it runs after the once-only step.
type media struct {
	mu     sync.Mutex
	codecs []string
	conn   *track
	ready  bool
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
	m.codecs = common // ok: once-only; apply writes only what was staged after conn was set
	m.conn = conn
	return nil
}

func (m *media) Apply() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ready {
		if len(m.staged) > 0 {
			m.codecs = m.staged
			m.staged = nil
		}
		return
	}
	m.ready = true
}

func (m *media) Rollback() {
	m.mu.Lock()
	m.staged = nil
	m.mu.Unlock()
}
