package rt

import (
	"runtime"
	"slices"
	"sync"
	"testing"
)

// BenchmarkRandDraw measures a controlled math/rand draw, which is no
// scheduling point but finds its goroutine (current) at each call
// (go test -bench RandDraw -benchmem): go-retry's jitter loops draw
// 100,000 times.
func BenchmarkRandDraw(b *testing.B) {
	b.ReportAllocs()
	var sum int
	res := RunFunc(Config{Seed: 1}, 0, func() {
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			sum += MathRand.Intn(10)
		}
	})
	if res.Outcome != "pass" {
		b.Fatalf("%s: %s", res.Outcome, res.Message)
	}
}

// BenchmarkGoid measures goid at a stack 20 frames deep.
func BenchmarkGoid(b *testing.B) {
	var deep func(int) uint64
	deep = func(k int) uint64 {
		if k > 0 {
			return deep(k-1) + 1
		}
		var s uint64
		for i := 0; i < b.N; i++ {
			s += goid()
		}
		return s
	}
	deep(20)
}

// Where goid reads the stack (goidOffset -1: off amd64, an overlaid
// runtime), a controlled goroutine drawing in a loop with no scheduling
// point is found by its thread after hotIDs draws, not by reading its
// stack at each (go-retry's 100,000 draws looked hung); a goroutine
// outside control drawing meanwhile is never taken for it and draws from
// the standard library; the lock ends at the next scheduling point. The
// draws are the schedule's stream as before.
func TestHotGoroutineByThread(t *testing.T) {
	if gettid() == 0 {
		t.Skip("no thread ids here: every goroutine is found by goid")
	}
	defer func(off int) { goidOffset = off }(goidOffset)
	goidOffset = -1
	const draws = 5000
	var got []int
	var reads uint64
	var foreignFound, stillLocked int
	body := func() {
		var mu sync.Mutex
		before := goidCalls
		for i := 0; i < draws; i++ {
			got = append(got, MathRand.Intn(1000))
		}
		reads = goidCalls - before
		// Outside control, meanwhile: never the locked goroutine.
		done := make(chan bool)
		go func() {
			for i := 0; i < 200; i++ {
				if current() != nil {
					foreignFound++
				}
			}
			close(done)
		}()
		for i := 0; i < 200; i++ {
			got = append(got, MathRand.Intn(1000))
		}
		<-done
		Lock(&mu)
		Unlock(&mu)
		if g := current(); g.tid != 0 || active.lockedG != nil {
			stillLocked++
		}
	}
	res := RunFunc(Config{Seed: 7}, 0, body)
	if res.Outcome != "pass" {
		t.Fatalf("%s: %s", res.Outcome, res.Message)
	}
	if reads > 2*hotIDs {
		t.Errorf("%d draws read the stack %d times, want at most %d", draws, reads, 2*hotIDs)
	}
	if foreignFound != 0 {
		t.Errorf("a goroutine outside control was taken for the locked one %d times", foreignFound)
	}
	if stillLocked != 0 {
		t.Errorf("still locked to its thread after a scheduling point")
	}
	// The same stream as a schedule of the same seed whose goroutine is
	// found by goid at every draw (a scheduling point between draws
	// unlocks it).
	if !slices.Equal(got, drawsWithPoints(t, draws+200)) {
		t.Errorf("the draws differ from the schedule's stream")
	}
}

// Where goid reads runtime.g, a hot goroutine is not locked to its
// thread: finding it costs a load, where the thread's id would cost a
// system call at each draw. Its draws are the schedule's stream.
func TestHotGoroutineNotLockedWithFastGoid(t *testing.T) {
	if goidOffset < 0 {
		t.Skip("goid reads the stack here")
	}
	const draws = 5000
	var locked, stackReads int
	var got []int
	res := RunFunc(Config{Seed: 7}, 0, func() {
		reads := stackGoidCalls
		for i := 0; i < draws; i++ {
			got = append(got, MathRand.Intn(1000))
			if g := current(); g.tid != 0 || active.lockedG != nil {
				locked++
			}
		}
		stackReads = int(stackGoidCalls - reads)
	})
	if res.Outcome != "pass" {
		t.Fatalf("%s: %s", res.Outcome, res.Message)
	}
	if locked != 0 || stackReads != 0 {
		t.Errorf("%d draws: locked to the thread at %d, %d stack reads; want none", draws, locked, stackReads)
	}
	if !slices.Equal(got, drawsWithPoints(t, draws)) {
		t.Errorf("the draws differ from the schedule's stream")
	}
}

// drawsWithPoints is the stream of n draws of a schedule of seed 7 whose
// goroutine is found by goid at every draw (a scheduling point every
// hotIDs/2 draws unlocks it).
func drawsWithPoints(t *testing.T, n int) []int {
	t.Helper()
	var got []int
	res := RunFunc(Config{Seed: 7}, 0, func() {
		var mu sync.Mutex
		for i := 0; i < n; i++ {
			got = append(got, MathRand.Intn(1000))
			if i%(hotIDs/2) == 0 {
				Lock(&mu)
				Unlock(&mu)
			}
		}
	})
	if res.Outcome != "pass" {
		t.Fatalf("%s: %s", res.Outcome, res.Message)
	}
	return got
}

// On amd64 goid reads the id from the goroutine's runtime.g, not from
// runtime.Stack's traceback (about a microsecond a frame): the same id as
// the stack's header, in fresh goroutines at any depth and after their
// stacks grew and moved.
func TestGoidFromG(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("goid reads the stack off amd64")
	}
	if goidOffset < 0 {
		t.Fatal("start-up did not find the id in runtime.g")
	}
	var deep func(k int, f func())
	deep = func(k int, f func()) {
		var pad [512]byte // grows the stack: it is copied and moves
		if k > 0 {
			deep(k-1, f)
			pad[k%len(pad)]++
			return
		}
		f()
	}
	var wg sync.WaitGroup
	for d := 0; d < 64; d += 7 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			deep(d, func() {
				reads := stackGoidCalls
				got := goid()
				if stackGoidCalls != reads {
					t.Errorf("depth %d: goid read the stack", d)
				}
				if want := stackGoid(); got != want {
					t.Errorf("depth %d: goid %d, the stack says %d", d, got, want)
				}
			})
		}()
	}
	wg.Wait()
}
