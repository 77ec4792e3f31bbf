// Package publish has a constructor that starts the goroutine reading its
// reader's stats and only then assigns them: the goroutine races with the
// field's write and, through the field, with the writes of the callee that
// built the stats. One cause, reached from two tests by two call paths.
// Reset's unlocked write of the count, read in the same collect, is
// another cause.
package publish

// Stats is what a reader records into.
type Stats struct {
	name string
}

func newStats(name string) *Stats {
	s := &Stats{}
	s.name = name
	return s
}

func (s *Stats) record() int { return len(s.name) }

// Reader collects once in the background.
type Reader struct {
	done  chan struct{}
	stats *Stats
	count int
}

// NewReader starts the reader, then publishes its stats (too late).
func NewReader(name string) *Reader {
	r := &Reader{done: make(chan struct{})}
	go r.run()

	r.stats = newStats(name)
	return r
}

// Open is NewReader through another caller.
func Open() *Reader { return NewReader("opened") }

func (r *Reader) run() {
	defer close(r.done)
	r.collect()
}

func (r *Reader) collect() int {
	n := r.count
	if st := r.stats; st != nil {
		n += st.record()
	}
	return n
}

// Reset clears the count without synchronization.
func (r *Reader) Reset() { r.count = 0 }

// Wait waits for the reader's goroutine.
func (r *Reader) Wait() { <-r.done }
