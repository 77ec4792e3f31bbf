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

// runs counts TestRareUnderGoTest's runs in this process.
var runs atomic.Int32

// TestRareUnderGoTest fails on every schedule under interleave (underTool
// stands for a difference of the tool's runtime that takes the failing
// order every time, as its len of a channel once did in cilium/workerpool's
// TestWorkerPoolLen) and under plain go test only now and then: here on
// every 20th run in one process, which three runs of go test never meet and
// a stress run (-count) does. It is the test's own failure: a finding
// labelled "plain go test fails too", not a note naming the tool.
func TestRareUnderGoTest(t *testing.T) {
	if n := runs.Add(1); n%20 == 0 || underTool() {
		t.Errorf("running workers: got 0, want 1")
	}
}
