package bad // want package:"order bad.Server.mu -> bad.DB.mu"

import "sync"

type Server struct {
	mu    sync.Mutex
	db    *DB
	dirty bool
}

type DB struct {
	mu   sync.Mutex
	rows int
}

func (s *Server) Handle() { // want Handle:`acquires bad.DB.mu via bad.\(\*DB\).commit, bad.Server.mu`
	s.mu.Lock()
	defer s.mu.Unlock()
	s.db.commit() // want `lock order inversion: d.mu \(bad.DB.mu\) acquired via bad.\(\*DB\).commit while holding s.mu \(bad.Server.mu\), but bad.\(\*DB\).notify acquires bad.Server.mu while holding bad.DB.mu at calls.go:31 via bad.\(\*Server\).markDirty`
}

func (d *DB) commit() {
	d.mu.Lock()
	d.rows++
	d.mu.Unlock()
}

func (d *DB) notify(s *Server) {
	d.mu.Lock()
	defer d.mu.Unlock()
	s.markDirty()
}

func (s *Server) markDirty() {
	s.mu.Lock()
	s.dirty = true
	s.mu.Unlock()
}
