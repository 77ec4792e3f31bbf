package lockpair

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
)

// lockFact is exported for a function that acquires, keeps or releases
// locks its caller can name (through a parameter, the receiver or a
// package variable), so callers in other packages see through the call.
type lockFact struct {
	Acquires   []AbsLock // locked (and, unless in Holds, released) on every returning path
	Holds      []AbsLock // still held at every return
	Releases   []AbsLock // released from the caller's state on every return
	MayRelease []AbsLock // released on some path
}

// AFact implements analysis.Fact.AFact.
func (*lockFact) AFact() {}

func (f *lockFact) String() string {
	var parts []string
	add := func(verb string, ls []AbsLock) {
		if len(ls) == 0 {
			return
		}
		var names []string
		for _, l := range ls {
			n := l.Name
			if l.Mode == Read {
				n += " (read)"
			}
			names = append(names, n)
		}
		parts = append(parts, verb+" "+strings.Join(names, ", "))
	}
	add("acquires", f.Acquires)
	add("holds", f.Holds)
	add("releases", f.Releases)
	return strings.Join(parts, "; ")
}

func (s *summary) empty() bool {
	return len(s.acquires) == 0 && len(s.holds) == 0 && len(s.releases) == 0
}

func (s *summary) fact() *lockFact {
	return &lockFact{Acquires: s.acquires, Holds: s.holds, Releases: s.releases, MayRelease: s.mayRelease}
}

func (f *lockFact) summary() *summary {
	return &summary{acquires: f.Acquires, holds: f.Holds, releases: f.Releases, mayRelease: f.MayRelease}
}

// noReturnFact is exported for an exported package-level function that
// never returns (os.Exit, log.Fatal): importers may store it in an exit
// hook (var OsExit = os.Exit), and ctrlflow's own fact is private to it.
// It is also exported for an exported exit hook (findExitHooks), which
// importers may call (klog.OsExit(1)).
type noReturnFact struct{}

// AFact implements analysis.Fact.AFact.
func (*noReturnFact) AFact() {}

func (*noReturnFact) String() string { return "noreturn" }

// exportNoReturn exports noReturnFact for the package's exported
// functions that ctrlflow finds never return, and for its exported
// functions and methods that end every path in an exit hook (hookExits).
func exportNoReturn(pass *analysis.Pass, cfgs *ctrlflow.CFGs, hookExits map[*types.Func]bool) {
	scope := pass.Pkg.Scope()
	for _, name := range scope.Names() {
		fn, ok := scope.Lookup(name).(*types.Func)
		if ok && fn.Exported() && cfgs.NoReturn(fn) && !hookExits[fn] {
			pass.ExportObjectFact(fn, &noReturnFact{})
		}
	}
	for fn := range hookExits {
		if fn.Exported() {
			pass.ExportObjectFact(fn, &noReturnFact{})
		}
	}
}

// hasLockFacts reports whether a dependency exported a lockFact.
func hasLockFacts(pass *analysis.Pass) bool {
	for _, f := range pass.AllObjectFacts() {
		if _, ok := f.Fact.(*lockFact); ok {
			return true
		}
	}
	return false
}
