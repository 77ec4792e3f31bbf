package lockpair

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
	"github.com/interleave-dev/interleave/checks/static/internal/locktype"
	"github.com/interleave-dev/interleave/checks/static/internal/passdoc"
)

//go:embed doc.go
var doc string

// Analyzer reports lock/unlock pairing errors: IL2002-IL2005.
var Analyzer = &analysis.Analyzer{
	Name:       "lockpair",
	Doc:        passdoc.MustExtract(doc, "lockpair"),
	URL:        "https://github.com/interleave-dev/interleave/tree/main/checks/static/lockpair",
	Requires:   []*analysis.Analyzer{locktype.Analyzer, buildssa.Analyzer, ctrlflow.Analyzer, inspect.Analyzer},
	Run:        run,
	FactTypes:  []analysis.Fact{(*lockFact)(nil), (*noReturnFact)(nil)},
	ResultType: reflect.TypeFor[*Result](),
}

// reportPanics makes panic(...) paths count as exits for lock-held-at-return.
// Off by default: a panic that keeps a lock is almost always an invariant
// check nobody recovers from.
var reportPanics bool

func init() {
	Analyzer.Flags.BoolVar(&reportPanics, "panics", false, "also report locks still held when a path panics")
}

// Result is the per-function lock activity lockpair saw, for passes that
// require it (lockorder). It is exported for that purpose only; lockorder
// empties it when done.
type Result struct {
	Funcs []*FuncLocks // in source order
}

// FuncLocks is one function's acquisitions and calls with the locks held
// at each (must-held on at least one path reaching it).
type FuncLocks struct {
	Fn       *ssa.Function
	Acquires []Acquire
	Calls    []Call
	// ReleasesCaller lists the classes of locks the function unlocks on
	// some path without having locked them: its caller's locks, dropped
	// around a callback (mu.Unlock(); cb(); mu.Lock()).
	ReleasesCaller []string
}

// HeldLock is a lock held at some point, and where it was acquired.
type HeldLock struct {
	Name  string // s.mu
	Class string // lock class, "" if none
	Mode  Mode
	Pos   token.Pos
}

// Acquire is a direct Lock or RLock.
type Acquire struct {
	Pos   token.Pos
	Name  string
	Class string
	Mode  Mode
	Held  []HeldLock
}

// Call is a call, with the locks held across it. Callee is nil for a
// call of a func value or an interface method (Common says what is
// called).
type Call struct {
	Pos    token.Pos
	Callee *ssa.Function
	Common *ssa.CallCommon
	Held   []HeldLock
}

// passContext holds the state of one run of the pass.
type passContext struct {
	pass      *analysis.Pass
	cfgs      *ctrlflow.CFGs
	calls     map[token.Pos]*ast.CallExpr // by Lparen
	summaries map[*ssa.Function]*summary
	busy      map[*ssa.Function]bool
	walkers   map[*ssa.Function]*walker
	enums     map[*types.Named][]string      // enumConsts by type
	signals   map[string]bool                // lock classes a handed-over callback releases; nil until asked
	exitHooks map[*ssa.Global]bool           // func variables that only hold non-returning functions (exithook.go)
	hookExits map[*types.Func]bool           // functions that end every path in an exit hook (exithook.go)
	fieldCall map[*ssa.Function]map[int]bool // calledFields by method (storedfunc.go)
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{}
	// Fast path: no sync import and no lock facts from dependencies means
	// no lock operation to follow.
	cfgs := pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs)
	pc := &passContext{pass: pass, cfgs: cfgs}
	// Before the fast path: a package without locks may define the exit
	// hooks and the functions ending in them that importers call.
	ssainfo := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	pc.exitHooks = pc.findExitHooks(ssainfo)
	pc.hookExits = pc.findHookExits(ssainfo)
	exportNoReturn(pass, cfgs, pc.hookExits) // for importers' calls and exit hooks (exithook.go)
	if !lockset.UsesLocks(pass.Pkg) && !hasLockFacts(pass) {
		return res, nil
	}
	pc.calls = map[token.Pos]*ast.CallExpr{}
	pc.summaries = map[*ssa.Function]*summary{}
	pc.busy = map[*ssa.Function]bool{}
	pc.walkers = map[*ssa.Function]*walker{}
	// Index call expressions so messages quote operands as written.
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	for n := range ins.PreorderSeq((*ast.CallExpr)(nil)) {
		call := n.(*ast.CallExpr)
		pc.calls[call.Lparen] = call
	}

	// Walk every source function once, callees first through summaryOf.
	funcs := ssainfo.SrcFuncs
	for _, fn := range funcs {
		pc.summaryOf(fn)
	}

	// Report, export facts, and hand the lock activity to lockorder.
	var diags []analysis.Diagnostic
	seen := map[string]bool{}
	for _, fn := range funcs {
		w := pc.walkerOf(fn)
		if w == nil {
			continue
		}
		res.Funcs = append(res.Funcs, w.locks)
		// One double-lock finding per (function, held lock): the later
		// re-locks of the lock taken at the same site are related.
		first := map[token.Pos]int{} // lock site -> index in diags
		more := map[int]int{}
		pds := append([]pendingDiag(nil), w.diags...)
		sort.SliceStable(pds, func(i, j int) bool { return pds[i].Pos < pds[j].Pos })
		for _, pd := range pds {
			if pd.keep != nil && !pd.keep() {
				continue
			}
			d := pd.Diagnostic
			k := d.Category + "@" + pass.Fset.Position(d.Pos).String()
			if seen[k] {
				continue
			}
			seen[k] = true
			// A re-lock by the next iteration of the Lock itself (site ==
			// position) is the same defect as the other re-locks of it.
			if d.Category == RuleDoubleLock && len(d.Related) > 0 {
				if i, ok := first[d.Related[0].Pos]; ok {
					diags[i].Related = append(diags[i].Related, analysis.RelatedInformation{Pos: d.Pos, End: d.End, Message: "locked again here"})
					for _, r := range d.Related[1:] {
						if !slices.ContainsFunc(diags[i].Related, func(o analysis.RelatedInformation) bool { return o.Pos == r.Pos && o.Message == r.Message }) {
							diags[i].Related = append(diags[i].Related, r)
						}
					}
					more[i]++
					continue
				}
				first[d.Related[0].Pos] = len(diags)
			}
			diags = append(diags, d)
		}
		for i, n := range more {
			diags[i].Message += fmt.Sprintf(" (and at %d more %s, listed as related)", n, checks.Plural(n, "place"))
		}
		// Facts only for functions other packages can call.
		if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() == pass.Pkg && obj.Exported() {
			if s := pc.summaries[fn]; s != nil && !s.empty() {
				pass.ExportObjectFact(obj, s.fact())
			}
		}
	}
	sort.SliceStable(diags, func(i, j int) bool { return diags[i].Pos < diags[j].Pos })
	for _, d := range diags {
		pass.Report(d)
	}
	return res, nil
}

func (pc *passContext) walkerOf(fn *ssa.Function) *walker { return pc.walkers[fn] }

// summaryOf returns fn's summary, walking fn first if it belongs to this
// package. known is false for a function being walked (recursion) or a
// dependency without a fact.
func (pc *passContext) summaryOf(fn *ssa.Function) (s *summary, known bool) {
	if fn.Pkg != nil && fn.Pkg.Pkg == pc.pass.Pkg && len(fn.Blocks) > 0 {
		if s, ok := pc.summaries[fn]; ok {
			return s, s != nil
		}
		if pc.busy[fn] {
			return nil, false
		}
		pc.busy[fn] = true
		w := newWalker(pc, fn)
		if locksInYield(fn) {
			w.gaveUp = true
		} else {
			w.run()
		}
		delete(pc.busy, fn)
		if w.gaveUp {
			pc.summaries[fn] = nil
			return nil, false
		}
		w.checkHeldAtReturn()
		w.checkLoopLeaks()
		s := w.summarize()
		pc.summaries[fn] = s
		pc.walkers[fn] = w
		w.drop()
		return s, true
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == pc.pass.Pkg {
		return nil, false
	}
	var f lockFact
	if !pc.pass.ImportObjectFact(obj, &f) {
		// No fact: the dependency does nothing to locks we can name.
		return &summary{}, true
	}
	return f.summary(), true
}

// noReturn reports whether a call of fn never returns: ctrlflow says so,
// or it ends every path in an exit hook (this package's, or another's
// that exported noReturnFact for it: klog.FlushAndExit).
func (pc *passContext) noReturn(fn *types.Func) bool {
	if pc.cfgs != nil && pc.cfgs.NoReturn(fn) || pc.hookExits[fn] {
		return true
	}
	return fn.Pkg() != nil && fn.Pkg() != pc.pass.Pkg && pc.pass.ImportObjectFact(fn, new(noReturnFact))
}

// receiverText is the source text of the receiver of the method call
// whose '(' is at pos: "s.mu" for s.mu.Lock().
func (pc *passContext) receiverText(pos token.Pos) string {
	call := pc.calls[pos]
	if call == nil {
		return ""
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return types.ExprString(sel.X)
	}
	return ""
}

// funText is the source text of the function operand of the call at pos.
func (pc *passContext) funText(pos token.Pos) string {
	if call := pc.calls[pos]; call != nil {
		return types.ExprString(call.Fun)
	}
	return ""
}

// funcEnd is the closing brace of fn, where an implicit return happens.
func (pc *passContext) funcEnd(fn *ssa.Function) token.Pos {
	switch s := fn.Syntax().(type) {
	case *ast.FuncDecl:
		if s.Body != nil {
			return s.Body.Rbrace
		}
	case *ast.FuncLit:
		return s.Body.Rbrace
	}
	return fn.Pos()
}

// globalName names a package-variable lock of a summary from the
// caller's side: qualified when the variable is in another package.
func (pc *passContext) globalName(a AbsLock) string {
	id := strings.TrimPrefix(a.Root, "g:")
	i := strings.LastIndex(id, ".")
	if i < 0 {
		return a.Name
	}
	path, name := id[:i], id[i+1:]
	if path == pc.pass.Pkg.Path() {
		return a.Name
	}
	qual := path[strings.LastIndex(path, "/")+1:]
	for _, imp := range pc.pass.Pkg.Imports() {
		if imp.Path() == path {
			qual = imp.Name()
		}
	}
	return qual + "." + name + strings.TrimPrefix(a.Name, name)
}
