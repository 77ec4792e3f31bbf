// A schedule's record of decisions, kept in chunks that appending never copies.

package rt

// chunkLen is how many entries a chunk of a log holds.
const chunkLen = 4096

// chunkLog is an append-only sequence kept in chunks of chunkLen: appending
// never copies what is recorded. Grown by append, TestPoolMetrics of
// alitto/pond (180,000 decisions) spent a third of its time under the
// race detector copying decisions and faulting in the copies. Its chunks
// are kept from one schedule to the next (reset).
type chunkLog[T any] struct {
	chunks [][]T
	n      int
}

// add appends v.
//
//go:norace
func (l *chunkLog[T]) add(v T) {
	c := l.n / chunkLen
	if c == len(l.chunks) {
		l.chunks = append(l.chunks, make([]T, chunkLen))
	}
	l.chunks[c][l.n%chunkLen] = v
	l.n++
}

// at is entry i, which must exist.
//
//go:norace
func (l *chunkLog[T]) at(i int) *T { return &l.chunks[i/chunkLen][i%chunkLen] }

// len is the number of entries.
func (l *chunkLog[T]) len() int { return l.n }

// reserve makes room for n entries in all, so that appending up to them
// never allocates (inside code a test measures).
func (l *chunkLog[T]) reserve(n int) {
	for len(l.chunks)*chunkLen < n {
		l.chunks = append(l.chunks, make([]T, chunkLen))
	}
}

// reset empties l and keeps its chunks for the next schedule.
func (l *chunkLog[T]) reset() { l.n = 0 }

// slice is a copy of the entries as one slice, copied one by one: a
// copy of slices tells the race detector of every byte read and written.
//
//go:norace
func (l *chunkLog[T]) slice() []T {
	out := make([]T, l.n)
	for i := range out {
		out[i] = l.chunks[i/chunkLen][i%chunkLen]
	}
	return out
}
