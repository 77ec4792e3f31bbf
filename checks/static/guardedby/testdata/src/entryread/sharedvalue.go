package entryread

import "sync"

// Where the two old tests of "already shared" disagreed (IL1009 counted
// only writes through a parameter, package or captured variable; IL1008
// every write not on a created, unpublished value), one answer now.

// Berth's owner is written, under its lock, only after the berth from
// newBerth was registered in a package map: a reader that found it there
// runs beside the write, so the write confirms (IL1009).
type Berth struct {
	mu    sync.Mutex
	owner string
}

var berths = map[string]*Berth{}
var berthsMu sync.Mutex

func newBerth() (*Berth, error) { return &Berth{}, nil }

func OpenBerth(name, owner string) *Berth {
	b, _ := newBerth()
	berthsMu.Lock()
	berths[name] = b
	berthsMu.Unlock()
	b.mu.Lock()
	b.owner = owner
	b.mu.Unlock()
	return b
}

func (b *Berth) Owner() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.owner
}

func (b *Berth) Free() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.owner == ""
}

func (b *Berth) String() string {
	return b.owner // want `field b\.owner read without holding b\.mu in exported method String, while every write of it holds it and OpenBerth writes it on a shared value at line 28 \(held at 3 of 3 other accesses\)$`
}

// A Member is written under its lock after the registry looked it up in
// its map: a value loaded from shared memory is shared (IL1009).
type Member struct {
	mu   sync.Mutex
	addr string
}

type Registry2 struct {
	mu      sync.Mutex
	members map[string]*Member
}

func (r *Registry2) Move(id, addr string) {
	r.mu.Lock()
	m := r.members[id]
	r.mu.Unlock()
	m.mu.Lock()
	m.addr = addr
	m.mu.Unlock()
}

func (m *Member) Addr() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.addr
}

func (m *Member) Known() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.addr != ""
}

func (m *Member) String() string {
	return m.addr // want `field m\.addr read without holding m\.mu in exported method String, while every write of it holds it and Move writes it on a shared value at line 66 \(held at 3 of 3 other accesses\)$`
}

// A Tunnel's peer is written under its lock only while dial, a builder
// not named newX that returns a tunnel it made and kept to itself, and
// Connect set it up: set-up writes, not the locked writes IL1008 needs
// (IL1001 only).
type Tunnel struct {
	mu     sync.Mutex
	peer   string
	closed bool
}

type Dialer struct{ tunnels int }

func (d *Dialer) dial() (*Tunnel, error) {
	t := &Tunnel{}
	t.mu.Lock()
	t.peer = "pending"
	t.mu.Unlock()
	return t, nil
}

func (d *Dialer) Connect(peer string) (*Tunnel, error) {
	t, err := d.dial()
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.peer = peer
	t.mu.Unlock()
	return t, nil
}

func (t *Tunnel) Close() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	return t.peer
}

func (t *Tunnel) Peer() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.peer
}

func (t *Tunnel) String() string {
	return t.peer // want `field t\.peer read without holding t\.mu \(held at 3 of 3 other accesses\)$`
}
