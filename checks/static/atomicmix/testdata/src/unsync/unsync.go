// Package unsync: a handshake's state, driven by one function, whose
// nonce counter is bumped atomically out of habit; and its neighbours
// that are built for concurrent use.
package unsync

import "sync/atomic"

type Handshake struct {
	hash    []byte
	salt    []byte
	key     []byte
	counter uint32
}

func NewHandshake() *Handshake { return &Handshake{} }

func (h *Handshake) authenticate(data []byte) {
	h.hash = append(h.hash, data...)
}

func (h *Handshake) nextNonce() uint32 {
	return atomic.AddUint32(&h.counter, 1) - 1
}

func (h *Handshake) Encrypt(p []byte) []byte {
	out := append([]byte{byte(h.nextNonce())}, h.key...)
	out = append(out, p...)
	h.authenticate(out)
	return out
}

func (h *Handshake) Decrypt(c []byte) []byte {
	n := h.nextNonce()
	h.authenticate(c)
	return append(c, byte(n))
}

// MixKey resets the counter with the key: the type is not used from two
// goroutines (Encrypt and MixKey would race on key and hash anyway).
func (h *Handshake) MixKey(data []byte) {
	h.counter = 0 // want `plain write of h.counter races with its atomic accesses`
	h.salt = append(h.salt[:0], data...)
	h.key = h.salt
}

func handshake(secret []byte) []byte {
	h := NewHandshake()
	h.MixKey(secret)
	hello := h.Encrypt([]byte("hello"))
	h.MixKey(hello)
	return h.Decrypt(hello)
}

// A session that hands out its sequence numbers to concurrent senders
// (a channel is part of it): the reset races with them.
type Session struct {
	seq   uint32
	name  string
	ready chan struct{}
}

func (s *Session) next() uint32 { return atomic.AddUint32(&s.seq, 1) }

func (s *Session) Send(p []byte) uint32 {
	s.name = string(p)
	return s.next()
}

func (s *Session) Reset() {
	s.seq = 0 /* IL3002 */ // want `plain write of s.seq races with its atomic accesses`
	s.name = ""
}

// A counter whose adder writes nothing else: atomics made for sharing.
type Meter struct {
	hits  uint64
	label string
}

func (m *Meter) Hit() uint64 { return atomic.AddUint64(&m.hits, 1) }

func (m *Meter) Reset(label string) {
	m.hits = 0 /* IL3002 */ // want `plain write of m.hits races with its atomic accesses`
	m.label = label
}
