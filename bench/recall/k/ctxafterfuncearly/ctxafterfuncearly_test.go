// Package ctxafterfuncearly: dial registers the context.AfterFunc that
// closes the connection before it stores the connection. A context
// canceled in between (or before) runs the function at once, in its own
// goroutine, on a nil connection.
package ctxafterfuncearly

import (
	"context"
	"sync"
	"testing"
)

type netConn struct{ closed chan struct{} }

func (n *netConn) close() { close(n.closed) }

type conn struct {
	mu   sync.Mutex
	nc   *netConn
	stop func() bool
}

func dial(ctx context.Context) *conn {
	c := &conn{}
	c.stop = context.AfterFunc(ctx, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.nc.close() // nil if the context was done before the store below
	})
	nc := &netConn{closed: make(chan struct{})}
	c.mu.Lock()
	c.nc = nc
	c.mu.Unlock()
	return c
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go cancel() // the caller's deadline
	c := dial(ctx)
	c.mu.Lock()
	nc := c.nc
	c.mu.Unlock()
	<-nc.closed
}
