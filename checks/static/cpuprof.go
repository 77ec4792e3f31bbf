package static

// The vet tool's CPU: a profile of one package's passes, each pass's samples labelled with its name.

import (
	"context"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// cpuProfile serves INTERLEAVE_VET_CPUPROFILE=dir, for measuring where
// the vet tool's CPU goes: on a package go vet wants diagnostics of (not
// a dependency analyzed for facts only), the tool writes a CPU profile to
// dir/<package ID, "/", " " and brackets as "_">.pprof (the ID of a
// package with its tests is "p [p.test]") with each pass's samples labelled
// pass=<name>, so `go tool pprof -tags` prints the CPU of every pass,
// prerequisites included. The profile ends when the last pass of the run
// returns (what follows, writing facts and diagnostics, is not in it); if
// a pass fails, its dependents do not run and no profile is written.
func cpuProfile(cfg *vetConfig, args []string, analyzers []*analysis.Analyzer) {
	dir := os.Getenv("INTERLEAVE_VET_CPUPROFILE")
	if dir == "" || cfg == nil || cfg.VetxOnly {
		return
	}
	runs := runClosure(enabledByFlags(args, analyzers))
	name := filepath.Join(dir, profileName(cfg.ID))
	f, err := os.Create(name)
	if err != nil {
		return
	}
	if pprof.StartCPUProfile(f) != nil {
		f.Close()
		return
	}
	var mu sync.Mutex
	left := len(runs)
	wrapRuns(analyzers, func(a *analysis.Analyzer, run runFunc) runFunc {
		return func(pass *analysis.Pass) (res any, err error) {
			pprof.Do(context.Background(), pprof.Labels("pass", a.Name), func(context.Context) {
				res, err = run(pass)
			})
			mu.Lock()
			defer mu.Unlock()
			if runs[a] {
				delete(runs, a)
				if left--; left == 0 {
					pprof.StopCPUProfile()
					f.Close()
				}
			}
			return res, err
		}
	})
}

// profileName is the file name of package id's CPU profile.
func profileName(id string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune("/ []", r) {
			return '_'
		}
		return r
	}, id) + ".pprof"
}

// enabledByFlags is the analyzers a unitchecker invocation with args runs
// (analysisflags.Parse): those whose boolean flag is set true, if any is;
// otherwise every one not set false.
func enabledByFlags(args []string, analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	names := map[string]bool{}
	for _, a := range analyzers {
		names[a.Name] = true
	}
	set := map[string]bool{}
	anyTrue := false
	for _, arg := range args {
		name, ok := strings.CutPrefix(arg, "-")
		if !ok {
			continue
		}
		name = strings.TrimPrefix(name, "-")
		val := true
		if n, v, ok := strings.Cut(name, "="); ok {
			b, err := strconv.ParseBool(v)
			if err != nil {
				continue
			}
			name, val = n, b
		}
		if !names[name] {
			continue
		}
		set[name] = val
		anyTrue = anyTrue || val
	}
	var out []*analysis.Analyzer
	for _, a := range analyzers {
		v, ok := set[a.Name]
		if anyTrue && v || !anyTrue && (!ok || v) {
			out = append(out, a)
		}
	}
	return out
}

// runClosure is the analyzers and everything they require, transitively.
func runClosure(analyzers []*analysis.Analyzer) map[*analysis.Analyzer]bool {
	seen := map[*analysis.Analyzer]bool{}
	var walk func(a *analysis.Analyzer)
	walk = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, r := range a.Requires {
			walk(r)
		}
	}
	for _, a := range analyzers {
		walk(a)
	}
	return seen
}
