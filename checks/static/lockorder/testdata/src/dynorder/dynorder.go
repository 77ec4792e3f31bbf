package dynorder // want package:"order dynorder\\.Node\\.mu -> dynorder\\.Usage\\.mu, dynorder\\.Usage\\.mu -> dynorder\\.Node\\.mu"

// Package dynorder has a lock order inversion reached through an
// interface call with eight implementations: the message names one of
// them, the same one on every run.

import "sync"

type Store interface{ Compact() }

type Usage struct {
	mu sync.Mutex
	n  int
}

func (u *Usage) add() {
	u.mu.Lock()
	u.n++
	u.mu.Unlock()
}

type AStore struct{ u *Usage }

func (s *AStore) Compact() { s.u.add() } // want Compact:"acquires dynorder\\.Usage\\.mu via dynorder\\.\\(\\*Usage\\)\\.add"

type BStore struct{ u *Usage }

func (s *BStore) Compact() { s.u.add() } // want Compact:"acquires dynorder\\.Usage\\.mu via dynorder\\.\\(\\*Usage\\)\\.add"

type CStore struct{ u *Usage }

func (s *CStore) Compact() { s.u.add() } // want Compact:"acquires dynorder\\.Usage\\.mu via dynorder\\.\\(\\*Usage\\)\\.add"

type DStore struct{ u *Usage }

func (s *DStore) Compact() { s.u.add() } // want Compact:"acquires dynorder\\.Usage\\.mu via dynorder\\.\\(\\*Usage\\)\\.add"

type EStore struct{ u *Usage }

func (s *EStore) Compact() { s.u.add() } // want Compact:"acquires dynorder\\.Usage\\.mu via dynorder\\.\\(\\*Usage\\)\\.add"

type FStore struct{ u *Usage }

func (s *FStore) Compact() { s.u.add() } // want Compact:"acquires dynorder\\.Usage\\.mu via dynorder\\.\\(\\*Usage\\)\\.add"

type GStore struct{ u *Usage }

func (s *GStore) Compact() { s.u.add() } // want Compact:"acquires dynorder\\.Usage\\.mu via dynorder\\.\\(\\*Usage\\)\\.add"

type HStore struct{ u *Usage }

func (s *HStore) Compact() { s.u.add() } // want Compact:"acquires dynorder\\.Usage\\.mu via dynorder\\.\\(\\*Usage\\)\\.add"

type Node struct {
	mu    sync.Mutex
	store Store
	u     *Usage
}

func NewNode(kind int, u *Usage) *Node {
	n := &Node{u: u}
	switch kind {
	case 0:
		n.store = &AStore{u}
	case 1:
		n.store = &BStore{u}
	case 2:
		n.store = &CStore{u}
	case 3:
		n.store = &DStore{u}
	case 4:
		n.store = &EStore{u}
	case 5:
		n.store = &FStore{u}
	case 6:
		n.store = &GStore{u}
	default:
		n.store = &HStore{u}
	}
	return n
}

func (n *Node) Apply() { // want Apply:"acquires dynorder\\.Node\\.mu, dynorder\\.Usage\\.mu via dynorder\\.\\(\\*AStore\\)\\.Compact \\(interface call\\) -> dynorder\\.\\(\\*Usage\\)\\.add"
	n.mu.Lock()
	defer n.mu.Unlock()
	n.store.Compact() // want `lock order inversion: u.mu \(dynorder.Usage.mu\) acquired via dynorder.\(\*AStore\).Compact \(interface call\) -> dynorder.\(\*Usage\).add while holding n.mu \(dynorder.Node.mu\)`
}

func (n *Node) Report() { // want Report:"acquires dynorder\\.Node\\.mu, dynorder\\.Usage\\.mu"
	n.u.mu.Lock()
	defer n.u.mu.Unlock()
	n.mu.Lock()
	n.mu.Unlock()
}
