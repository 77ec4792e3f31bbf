package static

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
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
	seen := map[*analysis.Analyzer]bool{}
	var wrap func(a *analysis.Analyzer)
	wrap = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, r := range a.Requires {
			wrap(r)
		}
		run := a.Run
		if run == nil {
			return
		}
		a.Run = func(pass *analysis.Pass) (any, error) {
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
	}
	for _, a := range analyzers {
		wrap(a)
	}
}
