package lockorder

import (
	_ "embed"
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/locktype"
	"github.com/interleave-dev/interleave/checks/static/internal/passdoc"
	"github.com/interleave-dev/interleave/checks/static/lockblock"
	"github.com/interleave-dev/interleave/checks/static/lockpair"
)

//go:embed doc.go
var doc string

// Analyzer reports lock-order inversions: IL2101 and IL2102.
var Analyzer = &analysis.Analyzer{
	Name:      "lockorder",
	Doc:       passdoc.MustExtract(doc, "lockorder"),
	URL:       "https://github.com/interleave-dev/interleave/tree/main/checks/static/lockorder",
	Requires:  []*analysis.Analyzer{locktype.Analyzer, buildssa.Analyzer, lockpair.Analyzer, lockblock.Analyzer},
	Run:       run,
	FactTypes: []analysis.Fact{(*acquiresFact)(nil), (*orderFact)(nil)},
}

// edge is one "acquire Acq while holding Held" observation.
type edge struct {
	Held, Acq         string // lock classes
	HeldMode, AcqMode lockpair.Mode
	HeldName, AcqName string // as written at the site
	Func              string // enclosing function
	Chain             []string
	Where             string        // file:line
	pos, heldPos      token.Pos     // local edges only
	fn                *ssa.Function // local edges only
}

// passContext holds the state of one run of the pass.
type passContext struct {
	pass      *analysis.Pass
	funcs     map[*ssa.Function]*lockpair.FuncLocks
	acqs      map[*ssa.Function][]classAcq
	busy      map[*ssa.Function]bool
	srcFuncs  []*ssa.Function
	dyn       map[*ssa.CallCommon][]*ssa.Function // dynamic call targets (dynamic.go)
	params    map[*ssa.Function][]paramCall       // func parameters each function calls
	relCaller map[*ssa.Function]map[string]bool   // classes of caller locks each function may drop
}

func run(pass *analysis.Pass) (any, error) {
	// IL2102: both orders of two locks of one object.
	lb := pass.ResultOf[lockblock.Analyzer].(*lockblock.Result)
	instanceInversions(pass, lb.Locksets)
	lb.Locksets = nil // the only consumer: free it before the package is done
	res := pass.ResultOf[lockpair.Analyzer].(*lockpair.Result)
	if len(res.Funcs) == 0 {
		return nil, nil
	}
	pc := &passContext{
		pass:     pass,
		funcs:    map[*ssa.Function]*lockpair.FuncLocks{},
		acqs:     map[*ssa.Function][]classAcq{},
		busy:     map[*ssa.Function]bool{},
		srcFuncs: pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).SrcFuncs,
		params:   map[*ssa.Function][]paramCall{},
	}
	for _, f := range res.Funcs {
		pc.funcs[f.Fn] = f
	}

	// 1. What each function may acquire, transitively; exported as facts.
	for _, f := range res.Funcs {
		acq := pc.acquires(f.Fn)
		if obj, ok := f.Fn.Object().(*types.Func); ok && obj.Exported() && obj.Pkg() == pass.Pkg {
			if cp := pc.calledParams(f); len(acq) > 0 || len(cp) > 0 {
				pass.ExportObjectFact(obj, &acquiresFact{Acquires: acq, CallsParams: cp})
			}
		}
	}

	// 2. Every ordered pair observed in this package; exported so packages
	// that import this one see both halves of an inversion.
	// Only pairs other packages can reach count: those in exported
	// functions and in the functions they call.
	local := pc.edges(res)
	reach := pc.reachableFromExported(res)
	f := &orderFact{}
	for _, e := range local {
		if reach[e.fn] {
			f.Edges = append(f.Edges, e)
		}
	}
	if len(f.Edges) > 0 {
		pass.ExportPackageFact(f)
	}

	// 3. Inversions: a local pair whose reverse is seen here or in a
	// dependency, reported once per pair of classes.
	var deps []edge
	for _, pf := range pass.AllPackageFacts() {
		if of, ok := pf.Fact.(*orderFact); ok && pf.Package != pass.Pkg {
			deps = append(deps, of.Edges...)
		}
	}
	pc.report(local, deps)
	// lockorder is the only consumer of lockpair's result; the driver
	// keeps results until the whole package is done, so drop it here.
	res.Funcs = nil
	return nil, nil
}

// acquires returns the lock classes fn may acquire, directly or through
// calls, each with the call chain that reaches it.
func (pc *passContext) acquires(fn *ssa.Function) []classAcq {
	if a, ok := pc.acqs[fn]; ok {
		return a
	}
	f := pc.funcs[fn]
	if f == nil {
		obj, ok := fn.Object().(*types.Func)
		if !ok || obj.Pkg() == pc.pass.Pkg {
			return nil
		}
		var fact acquiresFact
		if pc.pass.ImportObjectFact(obj, &fact) {
			return fact.Acquires
		}
		return nil
	}
	if pc.busy[fn] {
		return nil // recursion: the cycle adds nothing new
	}
	pc.busy[fn] = true
	defer delete(pc.busy, fn)
	var out []classAcq
	seen := map[string]bool{}
	for _, a := range f.Acquires {
		if a.Class != "" && !seen[a.Class] {
			seen[a.Class] = true
			out = append(out, classAcq{Class: a.Class, Name: a.Name, Mode: a.Mode, Where: pc.where(a.Pos)})
		}
	}
	// via adds what fn acquires, its chains behind prefix.
	via := func(fn *ssa.Function, prefix ...string) {
		for _, a := range pc.acquires(fn) {
			if seen[a.Class] || len(a.Chain)+len(prefix) > maxChain {
				continue
			}
			seen[a.Class] = true
			a.Chain = slices.Concat(prefix, a.Chain)
			out = append(out, a)
		}
	}
	for _, c := range f.Calls {
		for _, callee := range pc.callees(c) {
			via(callee, callLabel(c, callee))
		}
		// A callback this call passes to a function that calls it.
		for _, cb := range pc.callbacks(c) {
			via(cb, funcName(c.Callee), funcName(cb)+" (callback)")
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Class < out[j].Class })
	pc.acqs[fn] = out
	return out
}

// maxChain bounds the call chains kept in facts: GCatch found depth 6
// enough, and longer chains make unreadable messages.
const maxChain = 6

func (pc *passContext) edges(res *lockpair.Result) []edge {
	var out []edge
	seen := map[string]bool{}
	add := func(e edge) {
		// Two instances of one class (a.mu then b.mu of the same type)
		// are not reported: see doc.go.
		if e.Held == "" || e.Acq == "" || e.Held == e.Acq {
			return
		}
		k := fmt.Sprintf("%s|%s|%d", e.Held, e.Acq, e.pos)
		if seen[k] {
			return
		}
		seen[k] = true
		out = append(out, e)
	}
	for _, f := range res.Funcs {
		if pc.inTestFile(f.Fn) {
			continue // lock orders taken only by tests: see doc.go
		}
		name := funcName(f.Fn)
		for _, a := range f.Acquires {
			for _, h := range a.Held {
				add(edge{Held: h.Class, Acq: a.Class, HeldMode: h.Mode, AcqMode: a.Mode, HeldName: h.Name, AcqName: a.Name,
					Func: name, Where: pc.where(a.Pos), pos: a.Pos, heldPos: h.Pos, fn: f.Fn})
			}
		}
		for _, c := range f.Calls {
			pc.callbackEdges(f, c, name, add)
			if len(c.Held) == 0 {
				continue
			}
			for _, callee := range pc.callees(c) {
				for _, a := range pc.acquires(callee) {
					chain := append([]string{callLabel(c, callee)}, a.Chain...)
					for _, h := range c.Held {
						if pc.mayReleaseCaller(callee, h.Class) {
							continue // the callee drops h around what it calls
						}
						add(edge{Held: h.Class, Acq: a.Class, HeldMode: h.Mode, AcqMode: a.Mode, HeldName: h.Name, AcqName: a.Name,
							Func: name, Chain: chain, Where: pc.where(c.Pos), pos: c.Pos, heldPos: h.Pos, fn: f.Fn})
					}
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return pc.before(out[i].pos, out[j].pos) })
	return out
}

// reachableFromExported returns the functions of this package that an
// exported function reaches through static calls.
func (pc *passContext) reachableFromExported(res *lockpair.Result) map[*ssa.Function]bool {
	reach := map[*ssa.Function]bool{}
	var visit func(fn *ssa.Function)
	visit = func(fn *ssa.Function) {
		if reach[fn] {
			return
		}
		reach[fn] = true
		if f := pc.funcs[fn]; f != nil {
			for _, c := range f.Calls {
				for _, callee := range append(pc.callees(c), pc.callbacks(c)...) {
					if pc.funcs[callee] != nil {
						visit(callee)
					}
				}
			}
		}
	}
	for _, f := range res.Funcs {
		if obj, ok := f.Fn.Object().(*types.Func); ok && obj.Exported() {
			visit(f.Fn)
		}
	}
	return reach
}

// conflict reports whether two holders of one RWMutex exclude each other.
func conflict(a, b lockpair.Mode) bool { return a == lockpair.Write || b == lockpair.Write }

// deadlocks reports whether edges e and r (its reverse) can deadlock two
// goroutines without a third: each lock's two uses must conflict.
func deadlocks(e, r edge) bool {
	return conflict(e.HeldMode, r.AcqMode) && conflict(e.AcqMode, r.HeldMode)
}

func (pc *passContext) report(local, deps []edge) {
	// Visit edges in source order, so the site reported and the reverse
	// edge chosen do not depend on the order functions were enumerated.
	pc.sortEdges(local)
	pc.sortEdges(deps)
	done := map[string]bool{}
	for _, e := range local {
		pair := e.Held + "|" + e.Acq
		if e.Acq < e.Held {
			pair = e.Acq + "|" + e.Held
		}
		if done[pair] {
			continue
		}
		var rev *edge
		for i := range local {
			r := &local[i]
			if r.Held == e.Acq && r.Acq == e.Held && deadlocks(e, *r) {
				rev = r
				break
			}
		}
		if rev == nil {
			for i := range deps {
				r := &deps[i]
				if r.Held == e.Acq && r.Acq == e.Held && deadlocks(e, *r) {
					rev = r
					break
				}
			}
		}
		if rev == nil {
			continue
		}
		done[pair] = true
		// Report at the earlier site in this package, the other in Related.
		first, second := e, *rev
		if rev.pos.IsValid() && pc.before(rev.pos, e.pos) {
			first, second = *rev, e
		}
		var related []analysis.RelatedInformation
		if second.pos.IsValid() {
			related = append(related, analysis.RelatedInformation{Pos: second.pos,
				Message: fmt.Sprintf("%s acquired here while holding %s%s", second.AcqName, second.HeldName, via(second.Chain))})
		}
		if first.heldPos.IsValid() {
			related = append(related, analysis.RelatedInformation{Pos: first.heldPos,
				Message: first.HeldName + " acquired here"})
		}
		pc.pass.Report(analysis.Diagnostic{
			Pos:      first.pos,
			Category: RuleLockOrderInversion,
			Message: fmt.Sprintf("lock order inversion: %s (%s) acquired%s while holding %s (%s), but %s acquires %s while holding %s at %s%s: goroutines on both paths can deadlock",
				first.AcqName, display(first.Acq), via(first.Chain), first.HeldName, display(first.Held),
				second.Func, display(second.Acq), display(second.Held), second.Where, via(second.Chain)),
			Related: related,
		})
	}
}

// sortEdges orders edges by site, then by the classes involved.
func (pc *passContext) sortEdges(es []edge) {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.pos != b.pos {
			return pc.before(a.pos, b.pos)
		}
		if a.Where != b.Where {
			return a.Where < b.Where
		}
		if a.heldPos != b.heldPos {
			return pc.before(a.heldPos, b.heldPos)
		}
		if a.Held != b.Held {
			return a.Held < b.Held
		}
		return a.Acq < b.Acq
	})
}

// before orders positions by file name, then offset. token.Pos order is
// the order files joined the file set, which go/packages' parallel
// parsing does not fix: the go vet driver and the in-process one would
// report an inversion at different sites.
func (pc *passContext) before(a, b token.Pos) bool { return before(pc.pass.Fset, a, b) }

func before(fset *token.FileSet, a, b token.Pos) bool {
	if !a.IsValid() || !b.IsValid() {
		return !a.IsValid() && b.IsValid()
	}
	pa, pb := fset.PositionFor(a, false), fset.PositionFor(b, false)
	if pa.Filename != pb.Filename {
		return pa.Filename < pb.Filename
	}
	return pa.Offset < pb.Offset
}

func via(chain []string) string {
	if len(chain) == 0 {
		return ""
	}
	return " via " + strings.Join(chain, " -> ")
}

// display shortens a lock class to package name, type and field: the
// class "example.com/bank.Account.mu" reads "bank.Account.mu".
func display(class string) string {
	return class[strings.LastIndex(class, "/")+1:]
}

func funcName(fn *ssa.Function) string {
	if fn.Parent() != nil {
		return funcName(fn.Parent()) + " (func literal)"
	}
	name := fn.Name()
	if recv := fn.Signature.Recv(); recv != nil {
		t := recv.Type()
		ptr := ""
		if p, ok := t.(*types.Pointer); ok {
			t, ptr = p.Elem(), "*"
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			name = "(" + ptr + n.Obj().Name() + ")." + name
		}
	}
	if fn.Pkg != nil && fn.Pkg.Pkg != nil {
		name = fn.Pkg.Pkg.Name() + "." + name
	}
	return name
}

// mayReleaseCaller reports whether fn, or a function of this package it
// calls (transitively, statically), unlocks a lock of class cls it did not
// lock: the caller's lock, dropped before what follows (nats' stores
// unlock around their update callback).
func (pc *passContext) mayReleaseCaller(fn *ssa.Function, cls string) bool {
	if pc.relCaller == nil {
		pc.relCaller = map[*ssa.Function]map[string]bool{}
	}
	var visit func(fn *ssa.Function, depth int) map[string]bool
	visit = func(fn *ssa.Function, depth int) map[string]bool {
		if m, ok := pc.relCaller[fn]; ok {
			return m
		}
		m := map[string]bool{}
		pc.relCaller[fn] = m // recursion: what is known so far
		f := pc.funcs[fn]
		if f == nil || depth > maxChain {
			return m
		}
		for _, c := range f.ReleasesCaller {
			m[c] = true
		}
		for _, c := range f.Calls {
			if c.Callee == nil {
				continue
			}
			for k := range visit(c.Callee, depth+1) {
				m[k] = true
			}
		}
		return m
	}
	return visit(fn, 0)[cls]
}

// inTestFile reports whether fn is declared in a _test.go file.
func (pc *passContext) inTestFile(fn *ssa.Function) bool {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return strings.HasSuffix(pc.pass.Fset.Position(fn.Pos()).Filename, "_test.go")
}

func (pc *passContext) where(pos token.Pos) string {
	p := pc.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}
