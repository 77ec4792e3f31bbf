package numgoroutine

import (
	"runtime"
	"testing"
	"time"
)

type cmd struct {
	op    string
	topic string
}

type pubsub struct{ cmdChan chan cmd }

func newPubSub() *pubsub {
	ps := &pubsub{cmdChan: make(chan cmd)}
	go ps.start()
	return ps
}

func (ps *pubsub) start() {
	topics := map[string]int{}
loop:
	for c := range ps.cmdChan {
		switch c.op {
		case "shutdown":
			break loop
		case "sub":
			topics[c.topic]++
		}
	}
	for topic := range topics {
		delete(topics, topic)
	}
}

func (ps *pubsub) shutdown() { ps.cmdChan <- cmd{op: "shutdown"} }

// As pubsub's TestShutdown: the goroutine count is back to where it was
// once the command loop has returned.
func TestShutdown(t *testing.T) {
	start := runtime.NumGoroutine()
	newPubSub().shutdown()
	time.Sleep(time.Millisecond)
	if n := runtime.NumGoroutine(); n > start {
		t.Fatalf("goroutine leak: %d before, %d after", start, n)
	}
}

// A running goroutine is counted.
func TestCounted(t *testing.T) {
	start := runtime.NumGoroutine()
	ps := newPubSub()
	ps.cmdChan <- cmd{op: "sub", topic: "a"}
	if n := runtime.NumGoroutine(); n != start+1 {
		t.Errorf("%d goroutines with the loop running, want %d", n, start+1)
	}
	ps.shutdown()
}
