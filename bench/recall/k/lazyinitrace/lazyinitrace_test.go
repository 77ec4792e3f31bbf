// Package lazyinitrace: a client is created on first use without any
// synchronization.
package lazyinitrace

import (
	"sync"
	"testing"
)

type client struct{ addr string }

type pool struct {
	addr string
	c    *client
}

func (p *pool) get() *client {
	if p.c == nil { // unsynchronized check and set
		p.c = &client{addr: p.addr}
	}
	return p.c
}

func TestGet(t *testing.T) {
	p := &pool{addr: "db:5432"}
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			if p.get().addr != "db:5432" {
				t.Error("wrong address")
			}
		}()
	}
	wg.Wait()
}
