// Package httphandlergo: an HTTP handler records the request on a
// goroutine of its own and answers at once; the test closes the server
// and reads the audit log, but nothing waits for that goroutine.
package httphandlergo

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

type audit struct {
	mu    sync.Mutex
	paths []string
}

func (a *audit) record(p string) {
	a.mu.Lock()
	a.paths = append(a.paths, p)
	a.mu.Unlock()
}

func (a *audit) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.paths)
}

func TestAudit(t *testing.T) {
	var a audit
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		go a.record(r.URL.Path) // outlives the response
		w.WriteHeader(http.StatusNoContent)
	}))
	resp, err := http.Get(srv.URL + "/x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	srv.Close()
	if n := a.count(); n != 1 {
		t.Fatalf("audit has %d entries, want 1", n)
	}
}
