package static

// The vet tool on dependencies: go vet runs it on every dependency of the analyzed packages for facts only; what it computes there.

import (
	"encoding/json"
	"fmt"
	"go/types"
	"os"
	"reflect"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/interleave-dev/interleave/checks/static/lockblock"
)

// vetConfig is the part of go vet's per-package config (unitchecker.Config)
// the tool reads before unitchecker does.
type vetConfig struct {
	ID            string // "fmt [fmt.test]"
	ImportPath    string
	ModulePath    string
	ModuleVersion string
	VetxOnly      bool
	VetxOutput    string
}

// readVetConfig reads the config file a vet tool invocation names (its
// last argument, *.cfg), or returns nil: unitchecker then says what is
// wrong with the invocation.
func readVetConfig(args []string) *vetConfig {
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return nil
	}
	data, err := os.ReadFile(args[len(args)-1])
	if err != nil {
		return nil
	}
	var cfg vetConfig
	if json.Unmarshal(data, &cfg) != nil {
		return nil
	}
	return &cfg
}

// factsOnly prepares analyzers for a package go vet analyzes only for
// its facts (VetxOnly: a dependency of the packages named on the command
// line, of this module, another module or the standard library). Every
// fact kind the suite exports is read by a pass on the packages that
// import it, across modules too, so every fact is still computed:
// ctrlflow's no-return functions (log.Fatal: a path through it keeps
// its lock legitimately), lockpair's locks an exported function acquires,
// holds or releases (a dependency's Lock wrapper or embedded mutex),
// lockorder's classes a function acquires and the orders a package takes
// (inversions through a dependency), atomicmix's variables accessed
// atomically, syncarg's function arguments a function runs before it
// returns. What is skipped is the rest: the unitchecker driver runs
// every analyzer that depends on one with facts, and buildssa depends on
// ctrlflow, so without this guardedby, rlockwrite and lockblock would run
// their full analyses on every dependency and their diagnostics be
// dropped. lockblock is a prerequisite of lockorder, but only of its
// same-object inversions, which are diagnostics: it is skipped too.
func factsOnly(analyzers []*analysis.Analyzer) {
	need := map[*analysis.Analyzer]bool{}
	var keep func(a *analysis.Analyzer)
	keep = func(a *analysis.Analyzer) {
		if need[a] || a == lockblock.Analyzer {
			return
		}
		need[a] = true
		for _, r := range a.Requires {
			keep(r)
		}
	}
	seen := map[*analysis.Analyzer]bool{}
	var all []*analysis.Analyzer
	var walk func(a *analysis.Analyzer)
	walk = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		all = append(all, a)
		for _, r := range a.Requires {
			walk(r)
		}
	}
	for _, a := range analyzers {
		walk(a)
	}
	for _, a := range all {
		if len(a.FactTypes) > 0 {
			keep(a)
		}
	}
	for _, a := range all {
		if need[a] || a.Run == nil {
			continue
		}
		a.Run = func(*analysis.Pass) (any, error) { return zeroResult(a), nil }
	}
}

// zeroResult is an empty result of a's result type: nil, or a pointer to
// a zero value.
func zeroResult(a *analysis.Analyzer) any {
	if a.ResultType == nil {
		return nil
	}
	if a.ResultType.Kind() == reflect.Pointer {
		return reflect.New(a.ResultType.Elem()).Interface()
	}
	return reflect.Zero(a.ResultType).Interface()
}

// vetTrace serves INTERLEAVE_VET_TRACE=file, for measuring where the vet
// tool's time goes and which facts it computes: it appends a line per
// pass run ("run", package, pass, milliseconds, "facts-only" or
// "report") and per exported fact ("fact", package, pass, object, fact)
// to file. Several tool processes append to one file; each line is one
// write.
func vetTrace(cfg *vetConfig, analyzers []*analysis.Analyzer) {
	name := os.Getenv("INTERLEAVE_VET_TRACE")
	if name == "" || cfg == nil {
		return
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	var mu sync.Mutex
	line := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(f, format+"\n", args...)
	}
	mode := "report"
	if cfg.VetxOnly {
		mode = "facts-only"
	}
	line("pkg\t%s\t%s\t%s\t%s", cfg.ImportPath, cfg.ModulePath, cfg.ModuleVersion, mode)
	wrapRuns(analyzers, func(a *analysis.Analyzer, run runFunc) runFunc {
		return func(pass *analysis.Pass) (any, error) {
			obj, pkg := pass.ExportObjectFact, pass.ExportPackageFact
			pass.ExportObjectFact = func(o types.Object, fact analysis.Fact) {
				line("fact\t%s\t%s\t%s\t%v", cfg.ImportPath, a.Name, o.Name(), fact)
				obj(o, fact)
			}
			pass.ExportPackageFact = func(fact analysis.Fact) {
				line("fact\t%s\t%s\t-\t%v", cfg.ImportPath, a.Name, fact)
				pkg(fact)
			}
			t0 := time.Now()
			res, err := run(pass)
			line("run\t%s\t%s\t%d\t%s", cfg.ImportPath, a.Name, time.Since(t0).Milliseconds(), mode)
			return res, err
		}
	})
}

// runFunc is an analyzer's Run.
type runFunc = func(*analysis.Pass) (any, error)

// wrapRuns replaces the Run of every analyzer in analyzers and of those
// they require, each once, by wrap's function of it.
func wrapRuns(analyzers []*analysis.Analyzer, wrap func(a *analysis.Analyzer, run runFunc) runFunc) {
	for a := range runClosure(analyzers) {
		if a.Run != nil {
			a.Run = wrap(a, a.Run)
		}
	}
}
