// Package leftover leaves a goroutine behind that the scheduler cannot see
// (started by context.AfterFunc in a dependency, which the rewriter leaves
// as written) holding a package-level mutex. Plain go test runs the test
// once and passes; a second schedule in the same process would find the
// mutex held.
package leftover

import (
	"context"
	"sync"
	"testing"

	"watchdep"
)

var (
	mu      sync.Mutex
	entries int
	never   = make(chan struct{})
)

func TestLeavesLockedWatcher(t *testing.T) {
	mu.Lock()
	entries++
	mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	watchdep.OnDone(ctx, func() {
		mu.Lock()
		<-never // the watcher never returns, and never unlocks
	})
	cancel()
}
