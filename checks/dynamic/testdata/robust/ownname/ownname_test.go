// Package ownname holds a test that reads its own name: go test's name
// must be what it sees, under the scheduler and in the plain go test run
// that labels its finding.
package ownname

import (
	"strings"
	"sync"
	"testing"
)

// TestOwnName loses an update on some schedules (a read and a write under
// two critical sections) and checks its own name at the same line: plain
// go test passes it (the name is right, the update is not lost but rarely).
func TestOwnName(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			v := n
			mu.Unlock()
			mu.Lock()
			n = v + 1
			mu.Unlock()
		}()
	}
	wg.Wait()
	test, _, _ := strings.Cut(t.Name(), "/")
	if n != 2 || test != "TestOwnName" {
		t.Fatalf("n = %d in %s", n, test)
	}
}
