// Package unperturbed has a test that fails on interleave's unperturbed
// schedule and on some others, and that plain go test passes (issue 21):
// it depends on the interleaving, so it is a finding, labelled "plain go
// test passes", never said to fail under plain go test too.
package unperturbed

import (
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
)

// underTool stands for a difference of the tool's runtime (an injected
// clock that runs out of values under it, say).
func underTool() bool { return strings.Contains(string(debug.Stack()), "interleavert") }

func TestMainWinsUnderTheTool(t *testing.T) {
	var first atomic.Int32
	done := make(chan struct{})
	go func() {
		first.CompareAndSwap(0, 2)
		close(done)
	}()
	first.CompareAndSwap(0, 1)
	<-done
	if first.Load() == 1 && underTool() {
		t.Fatal("the clock ran out of values")
	}
}
