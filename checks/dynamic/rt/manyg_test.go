package rt

import (
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// manyGoroutines is a test of n publishers, n confirmers and n listeners
// (the shape of amqp091-go's TestConfirmsIsThreadSafe, written anew): a
// publisher takes a sequence number under a mutex and sends it, a
// confirmer receives one, records it under another mutex and passes it
// on, a listener hands it to the test, which receives n of them in a
// select with a timeout. Most of the 3n goroutines sit blocked on the
// same two channels for most of the schedule.
func manyGoroutines(n int) func() {
	return func() {
		var seqMu, confMu sync.Mutex
		seq, confirmed := 0, 0
		pub, conf, done := make(chan int), make(chan int), make(chan int)
		late := NewTimer(time.Minute)
		for i := 0; i < n; i++ {
			Go(func() {
				Lock(&seqMu)
				seq++
				v := seq
				Unlock(&seqMu)
				Send(pub, v)
			})
		}
		for i := 0; i < n; i++ {
			Go(func() {
				v := Recv(pub)
				Lock(&confMu)
				confirmed++
				Unlock(&confMu)
				Send(conf, v)
			})
		}
		for i := 0; i < n; i++ {
			Go(func() { Send(done, Recv(conf)) })
		}
		for i := 0; i < n; i++ {
			k := Select(false, RecvCase(done), RecvCase(late.C))
			select {
			case <-PickRecv(k, 0, done):
			case <-PickRecv(k, 1, late.C):
				panic("timed out")
			}
		}
		TimerStop(late)
	}
}

// BenchmarkManyGoroutines runs one schedule of manyGoroutines(n) per
// iteration and reports the cost of a decision (ns/decision, and the
// process's CPU time per decision, which a loaded machine changes less)
// and decisions per second: the goal is a cost that does not grow with n.
//
//	go test -run '^$' -bench ManyGoroutines -benchtime 3x ./checks/dynamic/rt
func BenchmarkManyGoroutines(b *testing.B) {
	defer func(c bool) { checkPassCounts = c }(checkPassCounts)
	checkPassCounts = false // its own cost grows with n
	for _, n := range []int{100, 1000, 3000} {
		for _, strat := range []string{"plain", "random"} {
			b.Run(strat+"/n="+strconv.Itoa(n), func(b *testing.B) {
				decisions := 0
				cpu0, _ := processCPU()
				for i := 0; i < b.N; i++ {
					res := RunFunc(Config{Strategy: strat, Seed: int64(i + 1), MaxSteps: 40 * n}, i, manyGoroutines(n))
					if res.Outcome != "pass" || res.Inconclusive != "" {
						b.Fatalf("%s: %s %s", res.Outcome, res.Message, res.Inconclusive)
					}
					decisions += len(res.Decisions)
				}
				cpu1, _ := processCPU()
				sec := b.Elapsed().Seconds()
				b.ReportMetric(sec*1e9/float64(decisions), "ns/decision")
				b.ReportMetric(float64(cpu1-cpu0)/float64(decisions), "cpu-ns/decision")
				b.ReportMetric(float64(decisions)/sec, "decisions/s")
				b.ReportMetric(float64(decisions)/float64(b.N), "decisions/op")
			})
		}
	}
}

// wokenAtOnce is a test of n goroutines that sleep the same millisecond,
// then each make three atomic operations and end (ants' TestAntsPool: a
// hundred thousand tasks that sleep 10ms): all n are ready at once, and
// each runs to its end in turn while the others wait.
func wokenAtOnce(n int) func() {
	return func() {
		var sum int32
		for i := 0; i < n; i++ {
			Go(func() {
				Sleep(time.Millisecond)
				for j := 0; j < 3; j++ {
					Atomic(&sum)
					atomic.AddInt32(&sum, 1)
				}
			})
		}
		Sleep(time.Second)
	}
}

// BenchmarkWokenAtOnce is BenchmarkManyGoroutines for wokenAtOnce: the
// cost of a decision among n ready goroutines, for each strategy.
//
//	go test -run '^$' -bench WokenAtOnce -benchtime 3x ./checks/dynamic/rt
func BenchmarkWokenAtOnce(b *testing.B) {
	defer func(c bool) { checkPassCounts = c }(checkPassCounts)
	checkPassCounts = false // its own cost grows with n
	for _, n := range []int{1000, 4000} {
		for _, strat := range []string{"plain", "random", "pct", "pos"} {
			b.Run(strat+"/n="+strconv.Itoa(n), func(b *testing.B) {
				decisions := 0
				for i := 0; i < b.N; i++ {
					res := RunFunc(Config{Strategy: strat, Seed: int64(i + 1), MaxSteps: 40 * n}, i, wokenAtOnce(n))
					if res.Outcome != "pass" || res.Inconclusive != "" {
						b.Fatalf("%s: %s %s", res.Outcome, res.Message, res.Inconclusive)
					}
					decisions += len(res.Decisions)
				}
				sec := b.Elapsed().Seconds()
				b.ReportMetric(sec*1e9/float64(decisions), "ns/decision")
				b.ReportMetric(float64(decisions)/float64(b.N), "decisions/op")
			})
		}
	}
}

// A decision among hundreds of blocked goroutines allocates nothing: the
// enabled ones are listed behind the ready ones in room kept for them
// (enabledList), not in lists grown anew at every decision, as they were
// while more goroutines were blocked than that room held. Counted over a
// whole schedule of manyGoroutines, whose 3n goroutines and their starts
// allocate too: 1.33 allocations per decision here, 1.97 when each
// decision grew the lists.
func TestManyBlockedDecisionsDoNotAllocate(t *testing.T) {
	const n = 300
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := RunFunc(Config{Strategy: "random", Seed: 1, MaxSteps: 40 * n}, 0, manyGoroutines(n))
	runtime.ReadMemStats(&after)
	if res.Outcome != "pass" || res.Inconclusive != "" {
		t.Fatalf("%s: %s %s", res.Outcome, res.Message, res.Inconclusive)
	}
	per := float64(after.Mallocs-before.Mallocs) / float64(len(res.Decisions))
	t.Logf("%d decisions, %.2f allocations per decision", len(res.Decisions), per)
	if per > 1.6 {
		t.Errorf("%.2f allocations per decision among %d goroutines, want under 1.6 (the goroutines' own)", per, 3*n)
	}
}
