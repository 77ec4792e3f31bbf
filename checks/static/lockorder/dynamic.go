package lockorder

import (
	"cmp"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
	"github.com/interleave-dev/interleave/checks/static/lockpair"
)

// Calls of func values and interface methods are resolved with a VTA call
// graph of this package (golang.org/x/tools/go/callgraph/vta): the
// functions and concrete types that can flow to the called value through
// assignments, fields, parameters and returns of this package's code. A
// value whose origin the package cannot see (a parameter of an exported
// function, a field only other packages set) resolves to nothing: no
// guess. Callees in other packages are followed through their facts.
//
// A callback passed to a function of another package is followed through
// that function's fact: it lists the parameters it calls while holding a
// lock (callbackFact), so the caller pairs those locks with what the
// callback it passes acquires.

// viaParam reports whether a dynamic call calls a parameter (fn(e)) or a
// method of one (l.Notify()). The call graph merges every caller's
// argument there (checkFor(t, f) would reach every closure any test
// passes), so these are followed per call site instead: a caller passing
// a function literal to a function that calls that parameter.
func viaParam(c *ssa.CallCommon) bool {
	_, ok := c.Value.(*ssa.Parameter)
	return ok
}

// dynamicTargets returns the functions the dynamic call c may call.
func (pc *passContext) dynamicTargets(c lockpair.Call) []*ssa.Function {
	if c.Common == nil {
		return nil
	}
	if pc.dyn == nil {
		pc.buildCallGraph()
	}
	return pc.dyn[c.Common]
}

// buildCallGraph resolves every dynamic call lockpair recorded.
func (pc *passContext) buildCallGraph() {
	pc.dyn = map[*ssa.CallCommon][]*ssa.Function{}
	want := map[*ssa.CallCommon]bool{}
	for _, f := range pc.funcs {
		for _, c := range f.Calls {
			if c.Callee == nil && c.Common != nil && !viaParam(c.Common) {
				want[c.Common] = true
			}
		}
	}
	if len(want) == 0 {
		return
	}
	funcs := map[*ssa.Function]bool{}
	for _, fn := range pc.srcFuncs {
		// VTA expects instantiated generics; generic bodies take no part.
		if fn.TypeParams().Len() == 0 && fn.Origin() == nil && (fn.Parent() == nil || fn.Parent().TypeParams().Len() == 0) {
			funcs[fn] = true
		}
	}
	// Bound method values (c.forget) are synthetic wrappers the call
	// graph needs as nodes too.
	for fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					if w, ok := mc.Fn.(*ssa.Function); ok && w.Synthetic != "" {
						funcs[w] = true
					}
				}
			}
		}
	}
	defer func() {
		// An SSA shape VTA does not handle leaves the calls unresolved
		// rather than failing the pass.
		if recover() != nil {
			pc.dyn = map[*ssa.CallCommon][]*ssa.Function{}
		}
	}()
	cg := vta.CallGraph(funcs, nil)
	if debugDyn {
		for _, n := range cg.Nodes {
			for _, e := range n.Out {
				if want[e.Site.Common()] {
					println("DYN", n.Func.String(), "->", e.Callee.Func.String(), e.Callee.Func.Synthetic)
				}
			}
		}
	}
	for _, n := range cg.Nodes {
		for _, e := range n.Out {
			if e.Site == nil || e.Callee == nil || e.Callee.Func == nil {
				continue
			}
			common := e.Site.Common()
			if !want[common] {
				continue
			}
			callee := e.Callee.Func
			if o := callee.Origin(); o != nil {
				callee = o
			}
			// A bound method wrapper (c.forget as a value) stands for
			// the method it calls.
			if callee.Synthetic != "" {
				if fn := lockset.WrappedCallee(callee); fn != nil {
					callee = fn
				}
			}
			if pc.inTestFile(callee) && !pc.inTestFile(n.Func) {
				// A test double (a mock transport) stands in for the
				// real one only in tests, whose lock orders are not
				// reported.
				continue
			}
			pc.dyn[common] = appendUnique(pc.dyn[common], callee)
		}
	}
	// The graph's nodes are a map: sort, so that a path through a call
	// with several callees names the same one on every run.
	for _, fs := range pc.dyn {
		slices.SortFunc(fs, func(a, b *ssa.Function) int {
			return cmp.Or(strings.Compare(a.String(), b.String()), cmp.Compare(a.Pos(), b.Pos()))
		})
	}
}

func appendUnique(fs []*ssa.Function, f *ssa.Function) []*ssa.Function {
	for _, g := range fs {
		if g == f {
			return fs
		}
	}
	return append(fs, f)
}

// callLabel is the chain entry for a call of target: its name, marked
// when the call was through a func value or an interface.
func callLabel(c lockpair.Call, target *ssa.Function) string {
	name := funcName(target)
	if c.Callee != nil {
		return name
	}
	if c.Common.IsInvoke() {
		return name + " (interface call)"
	}
	return name + " (func value)"
}

// callees returns what call c may call: its static callee, or the
// dynamic targets.
func (pc *passContext) callees(c lockpair.Call) []*ssa.Function {
	if c.Callee != nil {
		return []*ssa.Function{c.Callee}
	}
	return pc.dynamicTargets(c)
}

// calledParams lists, for fn, the parameters it calls (as func values),
// one entry per lock held at such a call (Held "" when none is).
func (pc *passContext) calledParams(f *lockpair.FuncLocks) []paramCall {
	var out []paramCall
	for _, c := range f.Calls {
		if c.Callee != nil || c.Common == nil || c.Common.IsInvoke() {
			continue
		}
		p, ok := c.Common.Value.(*ssa.Parameter)
		if !ok {
			continue
		}
		for i, q := range f.Fn.Params {
			if q != p {
				continue
			}
			if len(c.Held) == 0 {
				out = append(out, paramCall{Param: i, Where: pc.where(c.Pos)})
			}
			for _, h := range c.Held {
				if h.Class == "" {
					continue
				}
				out = append(out, paramCall{Param: i, Held: h.Class, HeldName: h.Name, HeldMode: h.Mode, Where: pc.where(c.Pos)})
			}
		}
	}
	return out
}

// funcArg returns the function a call passes as argument i, if it is a
// function or a function literal.
func funcArg(c *ssa.CallCommon, i int) *ssa.Function {
	if c == nil || i >= len(c.Args) {
		return nil
	}
	switch v := c.Args[i].(type) {
	case *ssa.Function:
		return v
	case *ssa.MakeClosure:
		if fn, ok := v.Fn.(*ssa.Function); ok {
			return fn
		}
	}
	return nil
}

// callbackEdges adds the pairs formed by a callback passed to a function
// of another package that calls it while holding a lock: the callee's lock,
// then whatever the callback acquires.
func (pc *passContext) callbackEdges(f *lockpair.FuncLocks, c lockpair.Call, name string, add func(edge)) {
	for _, p := range pc.paramCalls(c) {
		if p.Held == "" {
			continue
		}
		cb := funcArg(c.Common, p.Param)
		if cb == nil {
			continue
		}
		for _, a := range pc.acquires(cb) {
			chain := append([]string{funcName(c.Callee), funcName(cb) + " (callback, called at " + p.Where + ")"}, a.Chain...)
			add(edge{Held: p.Held, Acq: a.Class, HeldMode: p.HeldMode, AcqMode: a.Mode, HeldName: p.HeldName, AcqName: a.Name,
				Func: name, Chain: chain, Where: pc.where(c.Pos), pos: c.Pos, fn: f.Fn})
		}
	}
}

var debugDyn = false

// paramCalls returns what the static callee of c does with its func
// parameters: from its lock activity in this package, or its fact.
func (pc *passContext) paramCalls(c lockpair.Call) []paramCall {
	if c.Callee == nil {
		return nil
	}
	if f := pc.funcs[c.Callee]; f != nil {
		if ps, ok := pc.params[c.Callee]; ok {
			return ps
		}
		ps := pc.calledParams(f)
		pc.params[c.Callee] = ps
		return ps
	}
	obj, ok := c.Callee.Object().(*types.Func)
	if !ok || obj.Pkg() == pc.pass.Pkg {
		return nil
	}
	var fact acquiresFact
	if !pc.pass.ImportObjectFact(obj, &fact) {
		return nil
	}
	return fact.CallsParams
}

// callbacks returns the function literals and functions c passes to
// parameters its callee calls, each with a chain label.
func (pc *passContext) callbacks(c lockpair.Call) []*ssa.Function {
	var out []*ssa.Function
	for _, p := range pc.paramCalls(c) {
		if cb := funcArg(c.Common, p.Param); cb != nil {
			out = appendUnique(out, cb)
		}
	}
	return out
}
