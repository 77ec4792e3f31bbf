// Package globalstate registers an HTTP handler on the standard library's
// process-wide mux, as a test of an RPC-over-HTTP bus does: go test runs
// it once per process, a search runs it many times in one.
package globalstate

import (
	"net/http"
	"sync"
	"testing"
)

func TestRegisterHandler(t *testing.T) {
	var mu sync.Mutex
	hits := 0
	http.HandleFunc("/globalstate/bus", func(http.ResponseWriter, *http.Request) {
		mu.Lock()
		hits++
		mu.Unlock()
	})
	done := make(chan struct{})
	go func() {
		mu.Lock()
		hits = 0
		mu.Unlock()
		close(done)
	}()
	<-done
}
