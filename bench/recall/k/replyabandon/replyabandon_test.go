// Package replyabandon: requests carry an unbuffered reply channel. A
// caller that times out leaves its reply unread; the server, which serves
// requests one at a time, blocks on that reply for good, and every later
// request blocks with it.
package replyabandon

import (
	"strings"
	"testing"
	"time"
)

type request struct {
	key   string
	reply chan string
}

type server struct {
	reqs chan request
}

func (s *server) loop() {
	for r := range s.reqs {
		r.reply <- strings.ToUpper(r.key)
	}
}

func (s *server) get(key string, timeout time.Duration) (string, bool) {
	r := request{key: key, reply: make(chan string)} // unbuffered
	timer := time.After(timeout)
	select {
	case s.reqs <- r:
	case <-timer:
		return "", false
	}
	select {
	case v := <-r.reply:
		return v, true
	case <-timer:
		return "", false // the server blocks on r.reply
	}
}

func TestGet(t *testing.T) {
	s := &server{reqs: make(chan request)}
	go s.loop()
	defer close(s.reqs)
	s.get("a", 50*time.Millisecond) // may time out
	v, ok := s.get("b", time.Hour)
	if !ok || v != "B" {
		t.Fatalf("get(b) = %q, %v", v, ok)
	}
}
