package pools

import (
	"errors"
	"sync"
	"testing"
	"time"
)

// timers is shared by every write of the process: New makes a timer.
var timers = sync.Pool{New: func() any { return time.NewTimer(time.Hour) }}

type stream struct {
	mu     sync.Mutex
	closed bool
	buf    []byte
}

// write waits for room at most a second (the timer stands for that wait).
func (s *stream) write(b []byte) error {
	t := timers.Get().(*time.Timer)
	t.Reset(time.Second)
	defer func() {
		t.Stop()
		timers.Put(t)
	}()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("write: stream closed")
	}
	s.buf = append(s.buf, b...)
	return nil
}

func (s *stream) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}

// TestWriteAfterStart closes the stream once the writer has started, not
// once it has written: the close can come first. The schedule that shows
// it is usually found on a later schedule of a search process, after
// earlier ones left a timer in the pool; it must replay in a fresh one.
func TestWriteAfterStart(t *testing.T) {
	s := &stream{}
	started := make(chan struct{})
	written := make(chan error, 1)
	go func() {
		close(started)
		written <- s.write([]byte("hello"))
	}()
	<-started
	s.close()
	if err := <-written; err != nil {
		t.Fatalf("the write started before the close failed: %v", err)
	}
}
