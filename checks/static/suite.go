// Package static lists interleave's static thread-safety passes and runs
// them over loaded packages. Each pass declares its rule IDs and texts in
// its own package's rules.go; this package adds the rules of the
// suppression directives (directives.go) and of go vet's waitgroup pass
// (waitgroup.go). suite.go lists the passes; run.go runs them in process,
// vettool.go under go vet -vettool (vetdeps.go: facts only on
// dependencies), memprof.go bounds the vet tool's memory; precision.go
// holds the measured precision that decides what a pull request is shown.
// Helpers shared by the passes are in internal/.
//
// Rule ID families (IDs are never reused):
//
//	IL0xxx  the tool itself (suppression directives)
//	IL1xxx  guarded-by: fields accessed with and without their mutex
//	IL2xxx  lock discipline: RLock writes, pairing, lock order
//	IL3xxx  atomics mixed with plain access
//	IL4xxx  check-then-act
//	IL5xxx  types that claim to be safe for concurrent use
//	IL6xxx  blocking and WaitGroup misuse
//	IL9xxx  dynamic failures (registered by package checks)
package static

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/waitgroup"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/static/atomicmix"
	"github.com/interleave-dev/interleave/checks/static/checkact"
	"github.com/interleave-dev/interleave/checks/static/guardedby"
	"github.com/interleave-dev/interleave/checks/static/lockblock"
	"github.com/interleave-dev/interleave/checks/static/lockorder"
	"github.com/interleave-dev/interleave/checks/static/lockpair"
	"github.com/interleave-dev/interleave/checks/static/rlockwrite"
	"github.com/interleave-dev/interleave/checks/static/threadsafe"
)

// Pass is one analyzer and the rules it reports. A pass that reports more
// than one rule sets Diagnostic.Category to the rule ID; a diagnostic with
// no category belongs to the pass's first rule.
type Pass struct {
	Analyzer *analysis.Analyzer
	Rules    []checks.Rule
}

// Passes is the suite, in the order passes run. interleave check and
// interleave-vet both run exactly this list. Each pass declares its rules
// (IDs and texts) in its own package's rules.go.
var Passes = []Pass{
	{guardedby.Analyzer, guardedby.Rules},
	{rlockwrite.Analyzer, rlockwrite.Rules},
	{lockpair.Analyzer, lockpair.Rules},
	{lockorder.Analyzer, lockorder.Rules},
	{atomicmix.Analyzer, atomicmix.Rules},
	{checkact.Analyzer, checkact.Rules},
	{threadsafe.Analyzer, threadsafe.Rules},
	{lockblock.Analyzer, lockblock.Rules},
	{waitgroup.Analyzer, WaitGroupRules},
}

// Analyzers returns the suite's analyzers in order.
func Analyzers() []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(Passes))
	for i, p := range Passes {
		out[i] = p.Analyzer
	}
	return out
}

func init() {
	checks.Register(Directive...)
	for _, p := range Passes {
		checks.Register(p.Rules...)
	}
}
