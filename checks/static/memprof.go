package static

// The vet tool's memory: bounding it (one heavy pass at a time, a GC target that follows the live heap) and measuring it.

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"
)

// memProfile serves INTERLEAVE_VET_MEMPROFILE=prefix, for measuring the
// vet tool's memory: whenever the live heap after a collection is 2 MiB
// above its largest value so far, the heap profile is written to
// prefix.peak.pprof and the figure to stderr. With
// INTERLEAVE_VET_MEMPROFILE_PASSES=1 as well, every pass (prerequisites
// included) ends with a collection, a line on stderr with its time and
// the live heap, and prefix.<pass>.pprof. Forced collections change the
// peak they measure; use the per-pass figures to see what each pass
// keeps.
func memProfile(analyzers []*analysis.Analyzer) {
	prefix := os.Getenv("INTERLEAVE_VET_MEMPROFILE")
	if prefix == "" {
		return
	}
	writeProfile := func(name string) {
		if f, err := os.Create(prefix + "." + name + ".pprof"); err == nil {
			pprof.WriteHeapProfile(f)
			f.Close()
		}
	}
	go func() {
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var peak uint64
		for range time.Tick(5 * time.Millisecond) {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak+(2<<20) {
				peak = v
				writeProfile("peak")
				fmt.Fprintf(os.Stderr, "memprof: peak live heap %d MiB\n", v>>20)
			}
		}
	}()
	if os.Getenv("INTERLEAVE_VET_MEMPROFILE_PASSES") == "" {
		return
	}
	wrapRuns(analyzers, func(a *analysis.Analyzer, run runFunc) runFunc {
		return func(pass *analysis.Pass) (any, error) {
			t0 := time.Now()
			res, err := run(pass)
			d := time.Since(t0)
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			fmt.Fprintf(os.Stderr, "memprof: %s %s: %v, live heap %d MiB, from the OS %d MiB\n", pass.Pkg.Path(), a.Name, d.Round(time.Millisecond), ms.HeapAlloc>>20, ms.Sys>>20)
			writeProfile(a.Name)
			return res, err
		}
	})
}

// heavyPasses keep lock state for every function of a package while they
// run; the other passes walk syntax and hold little.
var heavyPasses = map[string]bool{"guardedby": true, "rlockwrite": true, "lockpair": true, "lockorder": true, "lockblock": true, "threadsafe": true}

var heavyMu sync.Mutex

// serializeHeavyPasses makes the heavy passes' Run take one process-wide
// lock. A pass's prerequisites finish before its Run starts, so no Run
// waits for another while holding it.
func serializeHeavyPasses() {
	for _, a := range Analyzers() {
		if !heavyPasses[a.Name] || a.Run == nil {
			continue
		}
		run := a.Run
		a.Run = func(pass *analysis.Pass) (any, error) {
			heavyMu.Lock()
			defer heavyMu.Unlock()
			return run(pass)
		}
	}
}

// tuneGC sets the collector's target from the live heap after each
// collection (see gcPercent).
func tuneGC() {
	debug.SetGCPercent(400)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var sentinel func()
	arm := func() {
		// A finalizer runs after the collection that frees its object:
		// once per cycle.
		p := new([64]byte)
		runtime.SetFinalizer(p, func(*[64]byte) { sentinel() })
	}
	sentinel = func() {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			debug.SetGCPercent(gcPercent(sample[0].Value.Uint64()))
		}
		arm()
	}
	arm()
}

// gcPercent is the collector's target for a live heap of live bytes. The
// heap may grow by 64 MiB past a small live heap (GOGC up to 400: most
// packages, where collections would cost CPU and save nothing that
// matters), by the live heap itself from 64 MiB on (GOGC 100, what go vet
// runs with), and by less as the heap nears 1 GiB (down to GOGC 50). A
// target of 1 GiB for every heap let a package with 130 MiB live grow to
// five times that, twice go vet's peak.
func gcPercent(live uint64) int {
	const (
		headroom = 64 << 20
		target   = 1 << 30
	)
	if live == 0 {
		return 400
	}
	p := max(100, int(100*float64(headroom)/float64(live)))
	p = min(p, int(100*(float64(target)/float64(live)-1)))
	return min(max(p, 50), 400)
}
