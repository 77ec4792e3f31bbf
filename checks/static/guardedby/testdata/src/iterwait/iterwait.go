// Package iterwait: an iterator whose Next waits on a sync.Cond built on
// its mutex and fetches more through a helper that releases the mutex
// around a call and defers a release of its own (gopkg.in/mgo.v2's Iter).
package iterwait

import (
	"errors"
	"sync"
)

type op struct {
	collection string
	cursor     int64
	limit      int32
}

type conn struct {
	mu   sync.Mutex
	refs int
}

func (c *conn) release() {
	c.mu.Lock()
	c.refs--
	c.mu.Unlock()
}

func (c *conn) send(it *Iter) { it.replied(nil, 0) }

type Server struct {
	mu   sync.Mutex
	free []*conn
}

func (s *Server) acquire() (*conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.free) == 0 {
		return nil, errors.New("no connection")
	}
	c := s.free[0]
	c.refs++
	return c, nil
}

type Iter struct {
	m       sync.Mutex
	reply   sync.Cond
	srv     *Server
	op      op
	docs    [][]byte
	pending int
	err     error
}

func (s *Server) Iter(coll string, limit int32) *Iter {
	it := &Iter{srv: s}
	it.op.collection = coll
	it.op.cursor = 1
	it.op.limit = limit
	it.reply.L = &it.m
	return it
}

// replied runs on the goroutine that reads the connection.
func (it *Iter) replied(docs [][]byte, cursor int64) {
	it.m.Lock()
	it.docs = append(it.docs, docs...)
	it.op.cursor = cursor
	it.pending--
	it.m.Unlock()
	it.reply.Broadcast()
}

// more is entered and left holding it.m; a panic of acquire is not
// recovered, so it cannot return without the lock.
func (it *Iter) more() {
	it.pending++
	it.m.Unlock()
	c, err := it.srv.acquire()
	it.m.Lock()
	if err != nil {
		it.err = err
		return
	}
	defer c.release()
	if it.op.limit > 0 {
		it.op.limit--
	}
	go c.send(it)
}

// Close ends the cursor.
func (it *Iter) Close() error {
	it.m.Lock()
	defer it.m.Unlock()
	if it.op.cursor == 0 {
		return it.err
	}
	it.op.cursor = 0
	it.op.limit = 0
	return nil
}

// Limit says how many documents are left to fetch.
func (it *Iter) Limit() int32 {
	it.m.Lock()
	defer it.m.Unlock()
	if it.op.cursor == 0 {
		return 0
	}
	return it.op.limit
}

func bad(coll string, d []byte) bool { return len(d) == 0 && coll == "" }

func (it *Iter) Next() ([]byte, bool) {
	it.m.Lock()
	for it.err == nil && len(it.docs) == 0 && it.op.cursor != 0 { // ok: held, more restores it and Wait re-locks it
		if it.pending == 0 {
			it.more()
		}
		it.reply.Wait()
	}
	if len(it.docs) == 0 {
		it.m.Unlock()
		return nil, false
	}
	d := it.docs[0]
	it.docs = it.docs[1:]
	it.m.Unlock()
	if bad(it.op.collection, d) { // ok: op.collection is written only while the iterator is built
		return nil, false
	}
	return d, true
}

// Cursor reads the sub-field replied writes under the lock.
func (it *Iter) Cursor() int64 {
	return it.op.cursor // want `field it.op read without holding it.m in exported method Cursor`
}

// moreRecovering recovers a panic of acquire: it may return without it.m.
func (it *Iter) moreRecovering() {
	defer func() { _ = recover() }()
	it.m.Unlock()
	c, err := it.srv.acquire()
	it.m.Lock()
	if err == nil {
		c.release()
	}
}

func (it *Iter) Fetch() int {
	it.m.Lock()
	it.moreRecovering()
	n := len(it.docs) // want `field it.docs read without holding it.m in exported method Fetch`
	it.m.Unlock()
	return n
}
