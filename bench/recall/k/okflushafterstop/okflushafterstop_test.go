// Package okflushafterstop: Close waits for the loop to return before
// its own flush. Must not be reported.
package okflushafterstop

import (
	"sync"
	"testing"
	"time"
)

type sink struct {
	mu     sync.Mutex
	lines  []string
	closed bool
	late   int
}

func (s *sink) write(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		s.late++
		return
	}
	s.lines = append(s.lines, line)
}

func (s *sink) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}

type logger struct {
	mu   sync.Mutex
	buf  []string
	out  *sink
	stop chan struct{}
	done chan struct{}
}

func newLogger(out *sink) *logger {
	l := &logger{out: out, stop: make(chan struct{}), done: make(chan struct{})}
	go l.run()
	return l
}

func (l *logger) run() {
	defer close(l.done)
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			l.flush()
		}
	}
}

func (l *logger) log(s string) {
	l.mu.Lock()
	l.buf = append(l.buf, s)
	l.mu.Unlock()
}

func (l *logger) flush() {
	l.mu.Lock()
	b := l.buf
	l.buf = nil
	l.mu.Unlock()
	for _, s := range b {
		l.out.write(s)
	}
}

func (l *logger) close() {
	close(l.stop)
	<-l.done
	l.flush()
	l.out.close()
}

func TestClose(t *testing.T) {
	s := &sink{}
	l := newLogger(s)
	l.log("a")
	l.log("b")
	time.Sleep(time.Millisecond)
	l.log("c")
	l.close()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.late != 0 || len(s.lines) != 3 {
		t.Fatalf("%d lines written, %d after close", len(s.lines), s.late)
	}
}
