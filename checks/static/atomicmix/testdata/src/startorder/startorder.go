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

// OpenMeta opens the store without starting anything, guarded like
// Open: once Open started the merger, s.root is set and it is skipped.
func (s *Index) OpenMeta() error {
	if s.root == nil {
		err := s.openStore()
		if err != nil {
			return err
		}
	}
	return nil
}

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

// Cache fills itself lazily on a guard no starting call shares: Get may
// run beside the refresher, so fill's write races.
type Cache struct {
	ids   *int
	next  uint64
	tasks sync.WaitGroup
}

func (c *Cache) Start() {
	c.tasks.Add(1)
	go c.refresh()
}

func (c *Cache) refresh() {
	defer c.tasks.Done()
	atomic.AddUint64(&c.next, 1)
}

func (c *Cache) Get() uint64 {
	if c.ids == nil {
		c.fill()
	}
	return atomic.LoadUint64(&c.next)
}

func (c *Cache) fill() {
	v := 1
	c.ids = &v
	c.next = 0 /* IL3002 */ // want `plain write of c\.next races with its atomic accesses`
}

// Store opens under a guard its open does not set: not set-up.
type Store struct {
	path  string
	db    *int
	seq   uint64
	tasks sync.WaitGroup
}

func (s *Store) Open() error {
	if s.db == nil {
		s.open()
	}
	s.tasks.Add(1)
	go s.flusher()
	return nil
}

func (s *Store) OpenPath() {
	if s.path == "" {
		s.open()
	}
}

func (s *Store) open() {
	v := 0
	s.db = &v
	s.seq = 1 /* IL3002 */ // want `plain write of s\.seq races with its atomic accesses`
}

func (s *Store) flusher() {
	defer s.tasks.Done()
	_ = atomic.AddUint64(&s.seq, 1)
}

// Journal opens lazily after starting its flusher: the guarded open
// may run beside it.
type Journal struct {
	db    *int
	seq   uint64
	tasks sync.WaitGroup
}

func (j *Journal) Open() {
	j.tasks.Add(1)
	go j.flusher()
	if j.db == nil {
		j.open()
	}
}

func (j *Journal) Sync() {
	if j.db == nil {
		j.open()
	}
}

func (j *Journal) open() {
	v := 0
	j.db = &v
	j.seq = 2 /* IL3002 */ // want `plain write of j\.seq races with its atomic accesses`
}

func (j *Journal) flusher() {
	defer j.tasks.Done()
	_ = atomic.AddUint64(&j.seq, 1)
}
