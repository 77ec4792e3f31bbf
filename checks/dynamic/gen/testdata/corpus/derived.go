package corpus

import (
	"strings"
	"sync"
)

// Feed collects lines. A Feed is safe for concurrent use by multiple
// goroutines, and so is the feed Tagged returns.
//
// (A tagged feed is not: its first Publish joins the tags into the prefix
// without the lock, so two Publishes on it race. A feed NewFeed returns
// has nothing to join and is fine: only the value Tagged returns shows it.)
type Feed struct {
	mu     sync.Mutex
	tags   []string
	lazy   bool // the tags are not joined into prefix yet
	prefix string
	lines  []string
}

// NewFeed returns an empty feed without tags.
func NewFeed() *Feed { return &Feed{} }

// Tagged returns a new, empty feed whose lines carry f's tags and tag.
func (f *Feed) Tagged(tag string) *Feed {
	f.mu.Lock()
	defer f.mu.Unlock()
	return &Feed{tags: append(append([]string(nil), f.tags...), tag), lazy: true}
}

// Publish adds a line and returns the number of lines.
func (f *Feed) Publish(s string) int {
	if f.lazy {
		f.prefix = strings.Join(f.tags, ",") + ": "
		f.lazy = false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lines = append(f.lines, f.prefix+s)
	return len(f.lines)
}

// Len is the number of lines.
func (f *Feed) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.lines)
}

// Stream is Feed done right: a tagged stream joins its tags once, under a
// sync.Once. A Stream is safe for concurrent use, and so is the stream
// Tagged returns.
type Stream struct {
	mu     sync.Mutex
	tags   []string
	once   sync.Once
	prefix string
	lines  []string
}

// NewStream returns an empty stream without tags.
func NewStream() *Stream { return &Stream{} }

// Tagged returns a new, empty stream whose lines carry s's tags and tag.
func (s *Stream) Tagged(tag string) *Stream {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &Stream{tags: append(append([]string(nil), s.tags...), tag)}
}

// Publish adds a line and returns the number of lines.
func (s *Stream) Publish(line string) int {
	s.once.Do(func() {
		if len(s.tags) > 0 {
			s.prefix = strings.Join(s.tags, ",") + ": "
		}
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, s.prefix+line)
	return len(s.lines)
}

// Len is the number of lines.
func (s *Stream) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.lines)
}
