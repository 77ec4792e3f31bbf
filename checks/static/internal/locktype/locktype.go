// Package locktype defines an Analyzer that decides which of a
// package's own types with Lock and Unlock methods are locks, by their
// method bodies (lockset.LockMethods), and hands the decision to the
// packages that import them (an object fact per lock type). Every pass
// that asks lockset about custom lock types requires it: it registers
// the package's lock types and those of its dependencies
// (lockset.RegisterLockType) before the pass runs.
package locktype

import (
	"fmt"
	"go/types"
	"reflect"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// Analyzer decides the custom lock types of a package.
var Analyzer = &analysis.Analyzer{
	Name:       "locktype",
	Doc:        "decide which of a package's types with Lock and Unlock methods are plain locks",
	Run:        run,
	FactTypes:  []analysis.Fact{(*lockFact)(nil)},
	ResultType: reflect.TypeFor[*Result](),
}

// lockFact marks a custom lock type and lists its plain lock methods.
type lockFact struct {
	Methods []string
}

// AFact implements analysis.Fact.AFact.
func (*lockFact) AFact() {}

func (f *lockFact) String() string { return fmt.Sprintf("lock %v", f.Methods) }

// Result lists the lock types visible in the package: its own and its
// dependencies' (for tests and reports; passes ask lockset).
type Result struct {
	Types map[*types.TypeName][]string
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{Types: map[*types.TypeName][]string{}}
	for _, f := range pass.AllObjectFacts() {
		tn, ok := f.Object.(*types.TypeName)
		fact, isLock := f.Fact.(*lockFact)
		if !ok || !isLock {
			continue
		}
		lockset.RegisterLockType(tn, fact.Methods)
		res.Types[tn] = fact.Methods
	}
	known := func(tn *types.TypeName) []string {
		var f lockFact
		if pass.ImportObjectFact(tn, &f) {
			return f.Methods
		}
		return nil
	}
	for tn, ms := range lockset.LockMethods(pass.Files, pass.TypesInfo, pass.Pkg, known) {
		lockset.RegisterLockType(tn, ms)
		res.Types[tn] = ms
		pass.ExportObjectFact(tn, &lockFact{Methods: slices.Clone(ms)})
	}
	return res, nil
}
