package rt

import (
	"net"
	"testing"
	"time"
)

// TestLeftInIOBesideUnreadTicker: a test returns leaving a goroutine in
// real I/O (an accept loop) and a time.Tick nobody receives from (redcon's
// TestPubSub): the schedule ends after a few fires of the ticker, the
// goroutine left behind as go test leaves it. Before, each of 1,000 fires
// waited up to a second of real time for the goroutine.
func TestLeftInIOBesideUnreadTicker(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	defer ln.Close()
	before := leftFiresStopped
	r := RunFunc(Config{Seed: 1, StepTimeout: 5 * time.Second}, 0, func() {
		started := make(chan bool)
		Go(func() {
			Send(started, true)
			ln.Accept()
		})
		Recv(started)
		Tick(30 * time.Second)
	})
	if r.Outcome != "pass" {
		t.Errorf("outcome %s %q, want pass", r.Outcome, r.Message)
	}
	if leftFiresStopped == before {
		t.Error("the ticker's fires went on after the test returned, each waiting for the goroutine in real I/O")
	}
}
