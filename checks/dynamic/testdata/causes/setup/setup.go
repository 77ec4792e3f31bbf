// Package setup: a client of a server that is not there (asynq's tests
// without Redis). Every test that needs it fails in its set-up, each at
// its own line with one message: one cause, one finding.
package setup

import (
	"os"
	"sync"
)

// Socket is where the server would listen; nothing creates it.
const Socket = "/nonexistent-interleave-kernel/server.sock"

// Client counts the requests it sent.
type Client struct {
	mu   sync.Mutex
	sent int
}

// Dial fails when the server's socket is not there.
func Dial() (*Client, error) {
	if _, err := os.Stat(Socket); err != nil {
		return nil, err
	}
	return &Client{}, nil
}

// Send counts one request.
func (c *Client) Send() {
	c.mu.Lock()
	c.sent++
	c.mu.Unlock()
}
