// Package routelitorder: routedrainorder's router, its routes in a map
// literal keyed by a struct holding the handler's pointer and its path,
// the keys' type elided ({front, "/api"}). Drain stops the handlers in the
// map's order; a handler relays to the next hop with a send blind to its
// own stop channel: when the hop is stopped first while a request is on
// its way, the relay blocks for good and Drain waits forever. Only that
// order fails.
package routelitorder

import (
	"runtime"
	"testing"
)

type handler struct {
	reqs, next chan string // next: the next hop's reqs (nil for the last)
	stop, done chan struct{}
	served     int
}

func (h *handler) serve() {
	defer close(h.done)
	for {
		select {
		case <-h.stop:
			return
		case r := <-h.reqs:
			if h.next != nil {
				h.next <- r // the bug: blind to stop
			} else {
				h.served++
			}
		}
	}
}

func (h *handler) shutdown() {
	close(h.stop)
	<-h.done
}

type route struct {
	h    *handler
	path string
}

type router struct {
	routes map[route]int // route -> weight
	front  *handler
}

func newRouter() *router {
	back := &handler{reqs: make(chan string), stop: make(chan struct{}), done: make(chan struct{})}
	front := &handler{reqs: make(chan string), next: back.reqs, stop: make(chan struct{}), done: make(chan struct{})}
	r := &router{routes: map[route]int{{front, "/api"}: 1, {back, "/api/v2"}: 1}, front: front}
	go front.serve()
	go back.serve()
	return r
}

// Drain stops every route's handler, in the map's order.
func (r *router) Drain() {
	for rt := range r.routes {
		rt.h.shutdown()
	}
}

func TestDrain(t *testing.T) {
	r := newRouter()
	r.front.reqs <- "GET /api/v2/items"
	runtime.Gosched() // the request moves on, most of the time
	r.Drain()
}
