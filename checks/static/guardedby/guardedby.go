package guardedby

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
	"github.com/interleave-dev/interleave/checks/static/internal/locktype"
	"github.com/interleave-dev/interleave/checks/static/internal/passdoc"
	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

//go:embed doc.go
var doc string

// Analyzer reports IL1001 to IL1009 and IL5003 (rules.go).
var Analyzer = &analysis.Analyzer{
	Name:     "guardedby",
	Doc:      passdoc.MustExtract(doc, "guardedby"),
	Requires: []*analysis.Analyzer{locktype.Analyzer, buildssa.Analyzer},
	Run:      run,
}

// Inference thresholds for unannotated fields: the dominant sibling mutex
// must be held at no fewer than minLocked accesses and at no less than
// inferredThreshold of the counted accesses. checklocks suggests an
// annotation at 0.9; we report the unprotected accesses themselves, and
// 0.75 still means three protected accesses for every unprotected one.
const (
	minLocked         = 2
	inferredThreshold = 0.75
	// concurrentThreshold is the majority an inferred guard needs when
	// the unprotected access has goroutine evidence (IL1007).
	concurrentThreshold = 0.5
)

// passContext holds the state of one run.
type passContext struct {
	pass   *analysis.Pass
	syntax *lockset.Syntax
	guards map[*types.Var]guard
	reqs   map[*types.Func]requirement
	// ordered holds the functions documented with a call order.
	ordered map[*types.Func]bool
	// forbid holds the methods documented as called without a lock.
	forbid  map[*types.Func]forbidden
	results []*lockset.Result
	forks   map[*ssa.Function][]*types.Var // forkHeld, per goroutine literal
	// fields accumulates the counted accesses per field (origin object).
	fields map[*types.Var]*fieldInfo
	// docs holds the doc comments of the package's methods (IL1008),
	// built on first use.
	docs     map[types.Object]string
	typeDocs map[*types.TypeName]*ast.CommentGroup
	// closedOnly caches onlyClosed, per channel field.
	closedOnly map[*types.Var]bool
	// lockHelpers: per mutex field, the functions that lock it and
	// never unlock it (IL1009, sharedread.go).
	lockHelpers map[*types.Var]map[*types.Func]bool
	// helperCalls groups IL1002 by function and lock, in report order.
	helperCalls map[helperKey]*helperGroup
	helperOrder []*helperGroup
	order       []*types.Var
	// atomic holds the fields ever accessed through sync/atomic.
	atomic map[*types.Var]bool
	// promoted indexes the selectors of promoted fields by start.
	promoted map[token.Pos][]*ast.SelectorExpr
	// reported holds the positions already reported (IL5003 before
	// IL1004 and IL1001).
	reported map[token.Pos]bool
	// dcl holds the positions reported as double-checked locking.
	dcl map[token.Pos]bool
	// conc is the concurrency context of the package's functions.
	conc *concurrency
	// pub decides construction before publication (unpublishedWrite),
	// built on first use.
	pub *passutil.Publication
	// serial holds the functions under a single-goroutine contract
	// (serial.go), built on first use.
	serial map[*ssa.Function]bool
}

func run(pass *analysis.Pass) (any, error) {
	if !lockset.UsesLocks(pass.Pkg) {
		return nil, nil
	}
	pc := &passContext{
		pass:   pass,
		syntax: lockset.NewSyntax(pass.Files),
		guards: fieldGuards(pass),
		reqs:   requirements(pass),

		ordered: callOrdered(pass),
		forbid:  forbids(pass),
		fields:  map[*types.Var]*fieldInfo{},
		atomic:  map[*types.Var]bool{},
		dcl:     map[token.Pos]bool{},

		reported: map[token.Pos]bool{},
	}
	ssainfo := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	pc.results = lockset.New().Package(ssainfo.SrcFuncs, pc.entry) // lock state everywhere
	for _, r := range pc.results {
		if !pc.skipFunc(r) {
			pc.doubleChecked(r) // IL1003, first, so those reads are not reported twice
		}
	}
	for _, r := range pc.results {
		pc.collect(r) // count accesses per field
	}
	pc.reportThreadSafe() // IL5003
	pc.reportFields()     // IL1004, IL1001
	for _, r := range pc.results {
		pc.lockedCalls(r) // IL1002
	}
	pc.reportLockedCalls()
	return nil, nil
}

// entry returns the locks held on entry to fn: the receiver's mutex for
// methods that require it.
func (pc *passContext) entry(fn *ssa.Function) lockset.State {
	obj, ok := fn.Object().(*types.Func)
	if !ok || len(fn.Params) == 0 {
		return lockset.State{}
	}
	req, ok := pc.reqs[obj]
	if !ok || req.mutex == nil {
		return lockset.State{}
	}
	return lockset.NewState(lockset.Held{Lock: lockset.Path{Root: fn.Params[0]}.Child(req.mutex.Name()), Mode: req.mode})
}

// topLevel returns the declared function enclosing fn.
func topLevel(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

// skipFunc reports whether accesses in r are neither counted nor
// reported: package initializers, constructors, decoders (UnmarshalJSON)
// and test files.
func (pc *passContext) skipFunc(r *lockset.Result) bool {
	top := topLevel(r.Fn)
	if top.Signature.Recv() == nil && lockset.IsInitName(top.Name()) || lockset.IsConstructorName(top.Name()) || lockset.IsDecoder(top.Object()) {
		return true
	}
	if top.Synthetic != "" || noRace(top) {
		return true
	}
	if obj, ok := top.Object().(*types.Func); ok {
		if req, ok := pc.reqs[obj]; ok && req.mutex == nil {
			return true // fooLocked on a struct with several mutexes
		}
		if pc.ordered[obj] {
			return true // a documented call order stands in for the lock, as in a constructor
		}
	}
	name := pc.pass.Fset.Position(top.Pos()).Filename
	return strings.HasSuffix(name, "_test.go")
}

// noRace reports whether fn is marked //go:norace: its author accepts its
// races (nbio's IsClosed), the race detector ignores it, and so do we.
func noRace(fn *ssa.Function) bool {
	d, ok := fn.Syntax().(*ast.FuncDecl)
	if !ok || d.Doc == nil {
		return false
	}
	for _, c := range d.Doc.List {
		if strings.HasPrefix(c.Text, "//go:norace") {
			return true
		}
	}
	return false
}
