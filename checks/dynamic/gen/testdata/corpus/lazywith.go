package corpus

import (
	"strings"
	"sync"
)

// Journal records lines at levels. A Journal is safe for concurrent use,
// and so are the journals With and Lazy return.
//
// (Those Lazy returns are not: their sink tags itself on its first Log or
// With, replacing the embedded sink inside a sync.Once, while Enabled and
// Len, promoted from it, read the field without the Once. Only the first
// uses of a journal Lazy returned race: zap v1.26.0's WithLazy.)
type Journal struct {
	sink sink
}

// sink is where a journal's lines go.
type sink interface {
	Enabled(level int) bool
	With(tags []string) sink
	Write(level int, line string)
	Lines() int
}

// book keeps the lines of a journal and of the journals derived from it.
type book struct {
	mu    *sync.Mutex
	lines *[]string
	min   int
	tags  string
}

func (b *book) Enabled(level int) bool { return level >= b.min }

func (b *book) With(tags []string) sink {
	c := *b
	c.tags += strings.Join(tags, ",") + ": "
	return &c
}

func (b *book) Write(level int, line string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	*b.lines = append(*b.lines, b.tags+line)
}

func (b *book) Lines() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(*b.lines)
}

// lazySink tags its sink on first use.
type lazySink struct {
	sink
	once sync.Once
	tags []string
}

func (l *lazySink) init() { l.once.Do(func() { l.sink = l.sink.With(l.tags) }) }

func (l *lazySink) With(tags []string) sink { l.init(); return l.sink.With(tags) }

func (l *lazySink) Write(level int, line string) { l.init(); l.sink.Write(level, line) }

// NewJournal returns a journal that keeps the lines at min and above.
func NewJournal(min int) *Journal {
	return &Journal{sink: &book{mu: new(sync.Mutex), lines: new([]string), min: min}}
}

// With returns a journal whose lines carry tags.
func (j *Journal) With(tags ...string) *Journal {
	if len(tags) == 0 {
		return j
	}
	return &Journal{sink: j.sink.With(tags)}
}

// Lazy is With, tagging on first use.
func (j *Journal) Lazy(tags ...string) *Journal {
	if len(tags) == 0 {
		return j
	}
	return &Journal{sink: &lazySink{sink: j.sink, tags: tags}}
}

// Log records msg at level when the journal keeps that level.
func (j *Journal) Log(level int, msg string) {
	if !j.sink.Enabled(level) {
		return
	}
	j.sink.Write(level, msg)
}

// Enabled reports whether lines at level are kept.
func (j *Journal) Enabled(level int) bool { return j.sink.Enabled(level) }

// Len is the number of lines kept.
func (j *Journal) Len() int { return j.sink.Lines() }

// JournalOK is Journal done right: every method of its lazy sink tags it
// first, under the Once. A JournalOK is safe for concurrent use, and so
// are the journals With and Lazy return.
type JournalOK struct {
	sink sink
}

// onceSink tags its sink on first use, whichever method comes first.
type onceSink struct {
	s    sink
	once sync.Once
	tags []string
}

func (o *onceSink) get() sink {
	o.once.Do(func() { o.s = o.s.With(o.tags) })
	return o.s
}

func (o *onceSink) Enabled(level int) bool       { return o.get().Enabled(level) }
func (o *onceSink) With(tags []string) sink      { return o.get().With(tags) }
func (o *onceSink) Write(level int, line string) { o.get().Write(level, line) }
func (o *onceSink) Lines() int                   { return o.get().Lines() }

// NewJournalOK returns a journal that keeps the lines at min and above.
func NewJournalOK(min int) *JournalOK {
	return &JournalOK{sink: &book{mu: new(sync.Mutex), lines: new([]string), min: min}}
}

// With returns a journal whose lines carry tags.
func (j *JournalOK) With(tags ...string) *JournalOK {
	if len(tags) == 0 {
		return j
	}
	return &JournalOK{sink: j.sink.With(tags)}
}

// Lazy is With, tagging on first use.
func (j *JournalOK) Lazy(tags ...string) *JournalOK {
	if len(tags) == 0 {
		return j
	}
	return &JournalOK{sink: &onceSink{s: j.sink, tags: tags}}
}

// Log records msg at level when the journal keeps that level.
func (j *JournalOK) Log(level int, msg string) {
	if !j.sink.Enabled(level) {
		return
	}
	j.sink.Write(level, msg)
}

// Enabled reports whether lines at level are kept.
func (j *JournalOK) Enabled(level int) bool { return j.sink.Enabled(level) }

// Len is the number of lines kept.
func (j *JournalOK) Len() int { return j.sink.Lines() }
