package setup

import (
	"sync"
	"testing"
)

func send(t *testing.T, c *Client, n int) {
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() { defer wg.Done(); c.Send() }()
	}
	wg.Wait()
}

func TestSendOne(t *testing.T) {
	c, err := Dial()
	if err != nil {
		t.Fatal(err)
	}
	send(t, c, 1)
}

func TestSendTwo(t *testing.T) {
	c, err := Dial()
	if err != nil {
		t.Fatal(err)
	}
	send(t, c, 2)
}

func TestSendThree(t *testing.T) {
	c, err := Dial()
	if err != nil {
		t.Fatal(err)
	}
	send(t, c, 3)
}

// TestCount fails another way: its own check, with no server.
func TestCount(t *testing.T) {
	var c Client
	send(t, &c, 2)
	if c.sent != 3 {
		t.Fatalf("sent %d, want 3", c.sent)
	}
}
