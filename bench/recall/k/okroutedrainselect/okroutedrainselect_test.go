// Package okroutedrainselect: routedrainorder's router with the relaying
// send selecting on the handler's stop channel: whatever order Drain
// stops the handlers in (a map keyed by a struct holding a pointer), every
// handler ends.
package okroutedrainselect

import (
	"runtime"
	"testing"
)

type handler struct {
	reqs, next chan string
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
				select {
				case h.next <- r:
				case <-h.stop:
					return
				}
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
	routes map[route]int
	front  *handler
}

func newRouter() *router {
	back := &handler{reqs: make(chan string), stop: make(chan struct{}), done: make(chan struct{})}
	front := &handler{reqs: make(chan string), next: back.reqs, stop: make(chan struct{}), done: make(chan struct{})}
	r := &router{routes: map[route]int{}, front: front}
	r.routes[route{front, "/api"}] = 1
	r.routes[route{back, "/api/v2"}] = 1
	go front.serve()
	go back.serve()
	return r
}

func (r *router) Drain() {
	for rt := range r.routes {
		rt.h.shutdown()
	}
}

func TestDrain(t *testing.T) {
	r := newRouter()
	r.front.reqs <- "GET /api/v2/items"
	runtime.Gosched()
	r.Drain()
}
