// Package okhandlergowait: the correct twin of httphandlergo. The handler
// records the request on a goroutine of its own, counted by a WaitGroup
// the test waits on before it reads the audit log.
package okhandlergowait

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

type audit struct {
	mu    sync.Mutex
	wg    sync.WaitGroup
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
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			a.record(r.URL.Path)
		}()
		w.WriteHeader(http.StatusNoContent)
	}))
	resp, err := http.Get(srv.URL + "/x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	srv.Close()
	a.wg.Wait()
	if n := a.count(); n != 1 {
		t.Fatalf("audit has %d entries, want 1", n)
	}
}
