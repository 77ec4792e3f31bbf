// Package wgaddinside: a stage calls Add (through a helper, which vet's
// waitgroup check does not follow) inside the goroutine it counts,
// so Wait can return before the stage has registered. The yields give the
// stage its usual head start under the real scheduler.
package wgaddinside

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

type pipeline struct {
	wg   sync.WaitGroup
	done atomic.Int32
}

// track registers a running stage; it must be called before the go
// statement that starts it.
func (p *pipeline) track() { p.wg.Add(1) }

func (p *pipeline) stage() {
	go func() {
		p.track() // too late: inside the goroutine it counts
		defer p.wg.Done()
		p.done.Add(1)
	}()
}

func TestPipeline(t *testing.T) {
	p := &pipeline{}
	p.stage()
	for range 6 {
		runtime.Gosched() // let the stage start
	}
	p.wg.Wait()
	if n := p.done.Load(); n != 1 {
		t.Fatalf("%d stages done, want 1", n)
	}
}
