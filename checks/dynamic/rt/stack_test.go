package rt

import (
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestStackLeavesOutTool: a dump of every goroutine taken under control
// shows the program's goroutines (the caller first, without Stack's frame)
// and none of the tool's: the scheduler, the driver.
func TestStackLeavesOutTool(t *testing.T) {
	var dump, own string
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		done := make(chan struct{})
		Go(func() { Recv(done) })
		buf := make([]byte, 1<<20)
		dump = string(buf[:Stack(buf, true)])
		own = string(buf[:Stack(buf, false)])
		Close(done)
	}, nil)
	if rs[0].Outcome != "pass" {
		t.Fatalf("schedule: %+v", rs[0])
	}
	// One dump of every goroutine (the other is the caller's own): its
	// IDs are the runtime's, which a replay's may not be.
	if rs[0].Dumps != 1 {
		t.Errorf("Result.Dumps %d, want 1", rs[0].Dumps)
	}
	for _, d := range []string{dump, own} {
		first := strings.SplitN(d, "\n", 3)
		if len(first) < 2 || !strings.Contains(first[1], "TestStackLeavesOutTool.func") {
			t.Errorf("first frame is not the caller's:\n%s", d)
		}
	}
	if strings.Contains(dump, "(*sched).loop") || strings.Contains(dump, "RunSchedule(") {
		t.Errorf("the tool's goroutines are in the dump:\n%s", dump)
	}
	// The test's, its child and go test's main goroutine.
	if n := strings.Count("\n"+dump, "\ngoroutine "); n != 3 {
		t.Errorf("%d goroutines in the dump, want 3:\n%s", n, dump)
	}
}

// TestStackAsParked: in a dump taken under control, a goroutine blocked on
// a channel shows state "chan receive" and its own frame on top, and no
// goroutine shows the scheduler's frames (goleak's own TestAll compares
// them).
func TestStackAsParked(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		var dump string
		rs := RunSchedules(t, Config{Schedules: 1, Seed: seed, StepTimeout: 5 * time.Second}, func(t *testing.T) {
			started, done := make(chan struct{}), make(chan struct{})
			Go(func() {
				Close(started)
				Recv(done)
			})
			Go(func() {}) // may not have started at the dump
			Recv(started)
			Sleep(time.Millisecond) // the first child runs on until it blocks
			buf := make([]byte, 1<<20)
			dump = string(buf[:Stack(buf, true)])
			Close(done)
		}, nil)
		if rs[0].Outcome != "pass" {
			t.Fatalf("seed %d: schedule: %+v", seed, rs[0])
		}
		if strings.Contains(dump, "waitTurn") || strings.Contains(dump, "[semacquire") {
			t.Errorf("seed %d: the scheduler's frames or state in the dump:\n%s", seed, dump)
		}
		blocked := false
		for _, block := range strings.Split(dump, "\n\n") {
			lines := strings.Split(block, "\n")
			if len(lines) > 1 && strings.Contains(lines[1], "TestStackAsParked.func1.1(") {
				blocked = strings.Contains(lines[0], "[chan receive]:")
			}
		}
		if !blocked {
			t.Errorf("seed %d: the child blocked on done is not on top of its stack in state chan receive:\n%s", seed, dump)
		}
	}
}

// TestStackRunWaitAsGoTest: a test waiting in t.Run for its subtest shows,
// in a dump taken under control, what go test shows: testing.(*T).Run on
// top, state "chan receive" — the stack leak checkers pass as the test
// framework's (goleak's isTestStack); goleak's own TestFind failed on it.
func TestStackRunWaitAsGoTest(t *testing.T) {
	dump := dumpUnderControl(t, func(t *testing.T, take func()) {
		Run(t, "sub", func(*testing.T) { take() })
	})
	found := false
	for _, block := range strings.Split(dump, "\n\n") {
		lines := strings.Split(block, "\n")
		if len(lines) < 4 || !strings.Contains(block, "TestStackRunWaitAsGoTest.func1(") || strings.Contains(lines[1], "func1.1(") {
			continue
		}
		found = true
		if !strings.Contains(lines[0], "[chan receive]:") || !strings.HasPrefix(lines[1], "testing.(*T).Run(") || !strings.Contains(lines[3], "TestStackRunWaitAsGoTest.func1(") {
			t.Errorf("the test waiting for its subtest is not shown inside t.Run in state chan receive:\n%s", block)
		}
	}
	if !found {
		t.Errorf("no goroutine of the test waiting for its subtest in the dump:\n%s", dump)
	}
}

// TestStackCreatedByAsGoTest: a goroutine started by a go statement under
// control ends its part of a dump as go test's does: "created by" the
// function with the go statement, at its line, and no frame of the tool
// (goleak's own TestFind wants "created by go.uber.org/goleak.startBlockedG").
func TestStackCreatedByAsGoTest(t *testing.T) {
	dump := dumpUnderControl(t, func(t *testing.T, take func()) {
		started, done := make(chan struct{}), make(chan struct{})
		startBlocked(started, done)
		Recv(started)
		take()
		Close(done)
	})
	found := false
	for _, block := range strings.Split(dump, "\n\n") {
		if !strings.Contains(block, "[chan receive]") || !strings.Contains(block, "startBlocked") {
			continue
		}
		found = true
		if !strings.Contains(block, "\ncreated by github.com/interleave-dev/interleave/checks/dynamic/rt.startBlocked in goroutine ") ||
			!strings.Contains(block, "stack_test.go:") || strings.Contains(block, "childMain(") {
			t.Errorf("the goroutine's creator is not told as go test tells it:\n%s", block)
		}
	}
	if !found {
		t.Errorf("no started goroutine in the dump:\n%s", dump)
	}
}

// startBlocked has the go statement TestStackCreatedByAsGoTest's dump names.
//
//go:noinline
func startBlocked(started, done chan struct{}) {
	Go(func() {
		Close(started)
		Recv(done)
	})
}

// TestStackGoCallAsGoTest: for `go f(x)` the rewriter wraps the call in a
// closure (GoCall); go test's dump has no frame for the compiler's own
// wrapper of such a statement, so the dump under control has none for the
// closure either: the same functions, top to bottom, and the same creator.
func TestStackGoCallAsGoTest(t *testing.T) {
	frames := func(dump string) []string {
		for _, block := range strings.Split(dump, "\n\n") {
			if !strings.Contains(block, "blockedCall(") {
				continue
			}
			var fns []string
			for _, l := range strings.Split(block, "\n")[1:] {
				switch {
				case strings.HasPrefix(l, "created by "):
					fns = append(fns, strings.Fields(l)[2])
				case strings.HasSuffix(l, ")") && !strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, "runtime."):
					fns = append(fns, l[:strings.LastIndexByte(l, '(')])
				}
			}
			return fns
		}
		t.Fatalf("no goroutine in blockedCall in the dump:\n%s", dump)
		return nil
	}
	started, done := make(chan struct{}), make(chan struct{})
	go blockedCall(started, done)
	<-started
	buf := make([]byte, 1<<20)
	want := frames(string(buf[:runtime.Stack(buf, true)]))
	close(done)
	got := frames(dumpUnderControl(t, func(t *testing.T, take func()) {
		started, done := make(chan struct{}), make(chan struct{})
		startBlockedCall(started, done)
		Recv(started)
		take()
		Close(done)
	}))
	// The creators differ (the test and startBlockedCall): compare the
	// frames above "created by", and the creator under control.
	if len(got) != len(want) || len(got) < 2 || !slices.Equal(got[:len(got)-1], want[:len(want)-1]) || !strings.HasSuffix(got[len(got)-1], ".startBlockedCall") {
		t.Errorf("under control the goroutine's frames are\n\t%s\ngo test's are\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// startBlockedCall has `go blockedCall(started, done)` as the rewriter
// writes it.
//
//go:noinline
func startBlockedCall(started, done chan struct{}) {
	{
		_ila0, _ila1 := started, done
		GoCall(func() { blockedCall(_ila0, _ila1) })
	}
}

// blockedCall is the function TestStackGoCallAsGoTest's go statements call.
//
//go:noinline
func blockedCall(started, done chan struct{}) {
	if current() != nil {
		Close(started)
		Recv(done)
		return
	}
	close(started)
	<-done
}

// TestStackParallelAsGoTest: a parallel subtest paused until its parent's
// function returns shows, in a dump taken under control, testing.(*T).Parallel
// on top in state "chan receive", as under go test (goleak's own
// TestVerifyParallel failed on it).
func TestStackParallelAsGoTest(t *testing.T) {
	dump := dumpUnderControl(t, func(t *testing.T, take func()) {
		Run(t, "parent", func(t *testing.T) {
			Run(t, "parallel", func(t *testing.T) { Parallel(t) })
			Run(t, "serial", func(*testing.T) { take() })
		})
	})
	found := false
	for _, block := range strings.Split(dump, "\n\n") {
		lines := strings.Split(block, "\n")
		if len(lines) < 4 || !strings.Contains(block, "TestStackParallelAsGoTest.func1.1.1(") {
			continue
		}
		found = true
		if !strings.Contains(lines[0], "[chan receive]:") || !strings.HasPrefix(lines[1], "testing.(*T).Parallel(") {
			t.Errorf("the paused parallel subtest is not shown inside t.Parallel in state chan receive:\n%s", block)
		}
	}
	if !found {
		t.Errorf("no paused parallel subtest in the dump:\n%s", dump)
	}
}

// dumpUnderControl runs body as one controlled schedule, which must pass,
// and returns the dump of every goroutine (Stack) taken where body calls
// take.
func dumpUnderControl(t *testing.T, body func(t *testing.T, take func())) string {
	t.Helper()
	var dump string
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		body(t, func() {
			buf := make([]byte, 1<<20)
			dump = string(buf[:Stack(buf, true)])
		})
	}, nil)
	if rs[0].Outcome != "pass" {
		t.Fatalf("schedule: %+v", rs[0])
	}
	return dump
}
