// Package okhandlergodone: the correct twin of httphandlergo. The handler
// records the request on a goroutine of its own and waits for it to be
// done before it answers.
package okhandlergodone

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
		done := make(chan struct{})
		go func() {
			defer close(done)
			a.record(r.URL.Path)
		}()
		<-done
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	for i := 0; i < 2; i++ {
		resp, err := http.Get(srv.URL + "/x")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if n := a.count(); n != 2 {
		t.Fatalf("audit has %d entries, want 2", n)
	}
}
