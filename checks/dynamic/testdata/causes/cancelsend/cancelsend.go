// Package cancelsend asks a backend goroutine through one helper, send,
// that does not look at its context before its select: with the context
// canceled already, the select may still send (Go picks among ready cases
// at random), and the backend's answer then wins over the cancellation.
// Two tests, each of another method, fail at that one select with no
// preemption: one cause, one finding. After the reply, Get and Has copy
// the key to whichever of two logs has room, three times, counting what
// the second took: selects whose choice no failure hangs on, which
// shrinking takes back to their first case (the run then leaves the
// recorded schedule, which had the count's steps).
package cancelsend

import (
	"context"
	"sync/atomic"
)

type request struct {
	key   string
	reply chan string
}

// Store answers look-ups from its own goroutine.
type Store struct {
	in   chan request
	data map[string]string
	logA chan string
	logB chan string
	inB  atomic.Int64
}

// New starts a Store holding data.
func New(data map[string]string) *Store {
	s := &Store{in: make(chan request, 4), data: data, logA: make(chan string, 8), logB: make(chan string, 8)}
	go s.loop()
	return s
}

// Close stops the Store's goroutine.
func (s *Store) Close() { close(s.in) }

func (s *Store) loop() {
	for r := range s.in {
		r.reply <- s.data[r.key]
	}
}

// log copies key to a log with room.
func (s *Store) log(key string) {
	select {
	case s.logA <- key:
	case s.logB <- key:
		s.inB.Add(1)
	}
}

// send hands r to the backend and waits for its reply, unless ctx ends.
func send(ctx context.Context, in chan request, r request) (string, error) {
	select {
	case <-ctx.Done():
	case in <- r:
	}
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case v := <-r.reply:
		return v, nil
	}
}

// Get returns key's value.
func (s *Store) Get(ctx context.Context, key string) (string, error) {
	v, err := send(ctx, s.in, request{key: key, reply: make(chan string, 1)})
	s.logThrice(key)
	return v, err
}

// Has reports whether key has a value.
func (s *Store) Has(ctx context.Context, key string) (bool, error) {
	v, err := send(ctx, s.in, request{key: key, reply: make(chan string, 1)})
	s.logThrice(key)
	return v != "", err
}

func (s *Store) logThrice(key string) {
	for i := 0; i < 3; i++ {
		s.log(key)
	}
}
