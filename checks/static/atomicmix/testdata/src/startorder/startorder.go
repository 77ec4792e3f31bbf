// Package startorder: plain writes made while a value is set up, before the
// goroutines that access it atomically are started (bleve's scorch Open:
// loadFromBolt sets nextSegmentID, then go mergerLoop adds to it).
package startorder

import (
	"sync"
	"sync/atomic"
)

type Index struct {
	nextID uint64
	gen    uint64
	root   *int
	tasks  sync.WaitGroup
}

// Open loads the persisted state, then starts the index's goroutines.
func (s *Index) Open() error {
	if s.root == nil {
		if err := s.openStore(); err != nil {
			return err
		}
	}
	s.tasks.Add(1)
	go s.mergerLoop()
	return nil
}

func (s *Index) openStore() error {
	v := 0
	s.root = &v
	return s.load()
}

func (s *Index) load() error {
	s.nextID = s.maxOnDisk() // silent: before Open starts the merger
	s.nextID++
	return nil
}

func (s *Index) maxOnDisk() uint64 { return 7 }

func (s *Index) mergerLoop() {
	defer s.tasks.Done()
	for i := 0; i < 3; i++ {
		id := atomic.AddUint64(&s.nextID, 1)
		_ = id
		atomic.AddUint64(&s.gen, 1)
	}
}

// Batch runs after Open, beside the merger.
func (s *Index) Batch() uint64 {
	return atomic.AddUint64(&s.nextID, 1) + atomic.LoadUint64(&s.gen)
}

// Rewind runs beside the merger: its plain write races.
func (s *Index) Rewind() {
	s.rewind()
}

func (s *Index) rewind() {
	s.gen = 0 /* IL3002 */ // want `plain write of s\.gen races with its atomic accesses`
}

// Restart writes after it started the merger: the write races with it.
func (s *Index) Restart() {
	s.tasks.Add(1)
	go s.mergerLoop()
	s.reload()
}

func (s *Index) reload() {
	s.nextID = 0 /* IL3002 */ // want `plain write of s\.nextID races with its atomic accesses`
}
