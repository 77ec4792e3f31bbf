// Package fixedport listens on a fixed local port, as tests of servers
// often do: go test runs it in one process at a time, a search runs it in
// several worker processes at once, and the second bind fails. Alone in a
// fresh process every schedule passes, so no failure is the schedule's.
package fixedport

import (
	"bufio"
	"net"
	"testing"
)

const addr = "127.0.0.1:47913"

func TestEchoOnFixedPort(t *testing.T) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	done := make(chan string)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			done <- ""
			return
		}
		defer c.Close()
		line, _ := bufio.NewReader(c).ReadString('\n')
		done <- line
	}()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write([]byte("ping\n")); err != nil {
		t.Fatal(err)
	}
	if got := <-done; got != "ping\n" {
		t.Errorf("server read %q, want ping", got)
	}
	c.Close()
}
