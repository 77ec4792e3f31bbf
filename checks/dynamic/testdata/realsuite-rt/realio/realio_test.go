package realio

import (
	"io"
	"net"
	"testing"
	"time"
)

// A request travels through a real TCP connection to an echo goroutine
// and back, while the test waits with a timeout and then measures the
// round trip, as yamux's Ping does: the reply must win over the timeout
// and the round trip must take some time.
func TestRoundTrip(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		io.Copy(c, c)
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := 0; i < 3; i++ {
		got := make(chan error, 1)
		go func() {
			buf := make([]byte, 4)
			_, err := io.ReadFull(c, buf)
			got <- err
		}()
		start := time.Now()
		if _, err := c.Write([]byte("ping")); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-got:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(250 * time.Millisecond):
			t.Fatal("no reply within 250ms")
		}
		if rtt := time.Since(start); rtt <= 0 {
			t.Fatalf("round trip took %v", rtt)
		}
	}
}
