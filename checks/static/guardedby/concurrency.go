package guardedby

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/forkjoin"
	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// goRoot is a place where the package starts code on another goroutine:
// a go statement, a function handed to time.AfterFunc, WaitGroup.Go,
// errgroup's Go, or to a function of the package that runs its func
// argument in a go statement.
type goRoot struct {
	pos  token.Pos
	what string // "go statement", "time.AfterFunc", ...
	// held lists the mutex fields the starter holds at the start and
	// still holds while it waits afterwards (pq's resync): the goroutine
	// runs under that lock.
	held []*types.Var
	// wg is the WaitGroup field the goroutine is registered with (wg.Go,
	// or wg.Add before go and a deferred wg.Done), nil if none.
	wg *types.Var
}

// maxRoots bounds the roots remembered per function: two are enough to
// know that another root reaches it.
const maxRoots = 3

// concurrency holds RacerD's concurrency context per analyzed function:
// the goroutine roots it is reachable from by static calls in the
// package, and whether an exported function reaches it (code a caller
// may run on its own goroutine).
type concurrency struct {
	bg       map[*ssa.Function][]*goRoot
	exported map[*ssa.Function]bool
	// entry holds the functions an unprotected access may be reported
	// in: exported functions (callers run them on their goroutines) and
	// the functions a goroutine root starts, with that root. An access in
	// a helper is not reported: its callers may hold the lock in ways the
	// pass cannot follow.
	entry map[*ssa.Function][]*goRoot
	// wgs holds, per function, the WaitGroup fields of every root that
	// reaches it; loose marks a function some root without one reaches.
	wgs   map[*ssa.Function]map[*types.Var]bool
	loose map[*ssa.Function]bool
}

// starters are the calls outside the package that run a func argument on
// another goroutine: package path, receiver type ("" for a function),
// name, index of the func argument in CallCommon.Args.
var starters = []struct {
	pkg, recv, name string
	arg             int
}{
	{"time", "", "AfterFunc", 1},
	{"sync", "WaitGroup", "Go", 1},
	{"golang.org/x/sync/errgroup", "Group", "Go", 1},
	{"golang.org/x/sync/errgroup", "Group", "TryGo", 1},
}

// newConcurrency computes the context of results; skip tells the
// functions that are no entry (constructors, tests).
func newConcurrency(results []*lockset.Result, skip func(*lockset.Result) bool) *concurrency {
	c := &concurrency{bg: map[*ssa.Function][]*goRoot{}, exported: map[*ssa.Function]bool{}, entry: map[*ssa.Function][]*goRoot{},
		wgs: map[*ssa.Function]map[*types.Var]bool{}, loose: map[*ssa.Function]bool{}}
	byFn := map[*ssa.Function]*lockset.Result{}
	for _, r := range results {
		byFn[r.Fn] = r
	}
	// Functions of the package that run a func parameter on a goroutine
	// (go f(), go func() { f() }()): their callers' func arguments start
	// goroutines too.
	startsParam := map[*ssa.Function]map[int]bool{}
	for _, r := range results {
		top := topLevel(r.Fn)
		for _, fn := range r.Functions() {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					g, ok := instr.(*ssa.Go)
					if !ok {
						continue
					}
					for _, p := range startedParams(g, top) {
						if startsParam[top] == nil {
							startsParam[top] = map[int]bool{}
						}
						startsParam[top][p] = true
					}
				}
			}
		}
	}
	var fset *token.FileSet
	if len(results) > 0 && results[0].Fn.Prog != nil {
		fset = results[0].Fn.Prog.Fset
	}
	edges := map[*ssa.Function][]*ssa.Function{}
	var roots []struct {
		fn   *ssa.Function
		root *goRoot
	}
	addRoot := func(r *lockset.Result, instr ssa.Instruction, v ssa.Value, pos token.Pos, what string, wg *types.Var) {
		if fset != nil && strings.HasSuffix(fset.Position(pos).Filename, "_test.go") {
			return // a test's goroutine: tests are not analyzed
		}
		if f := funcOf(v); f != nil && byFn[f] != nil {
			roots = append(roots, struct {
				fn   *ssa.Function
				root *goRoot
			}{f, &goRoot{pos: pos, what: what, held: forkjoin.HeldAtWait(r, instr), wg: wg}})
		}
	}
	for _, r := range results {
		for _, fn := range r.Functions() {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					ci, ok := instr.(ssa.CallInstruction)
					if !ok {
						continue
					}
					common := ci.Common()
					if g, ok := instr.(*ssa.Go); ok {
						addRoot(r, instr, common.Value, g.Pos(), "go statement", forkjoin.StartWG(g, funcOf(g.Call.Value)))
						continue
					}
					callee := common.StaticCallee()
					if callee == nil {
						continue
					}
					if byFn[callee] != nil {
						edges[r.Fn] = append(edges[r.Fn], callee)
					}
					for _, s := range starters {
						if s.arg < len(common.Args) && calleeIs(common, s.pkg, s.recv, s.name) {
							what := s.name
							if s.recv == "" {
								what = s.pkg + "." + s.name
							}
							var wg *types.Var
							if s.pkg == "sync" {
								wg = forkjoin.WGField(common.Args[0])
							}
							addRoot(r, instr, common.Args[s.arg], instr.Pos(), what, wg)
						}
					}
					for i := range startsParam[callee] {
						if i < len(common.Args) {
							addRoot(r, instr, common.Args[i], instr.Pos(), callee.Name(), nil)
						}
					}
				}
			}
		}
	}
	for _, rt := range roots {
		if len(c.entry[rt.fn]) < maxRoots {
			c.entry[rt.fn] = append(c.entry[rt.fn], rt.root)
		}
		seen := map[*ssa.Function]bool{}
		stack := []*ssa.Function{rt.fn}
		for len(stack) > 0 {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[f] {
				continue
			}
			seen[f] = true
			if len(c.bg[f]) < maxRoots {
				c.bg[f] = append(c.bg[f], rt.root)
			}
			if rt.root.wg == nil {
				c.loose[f] = true
			} else {
				if c.wgs[f] == nil {
					c.wgs[f] = map[*types.Var]bool{}
				}
				c.wgs[f][rt.root.wg] = true
			}
			stack = append(stack, edges[f]...)
		}
	}
	var stack []*ssa.Function
	for _, r := range results {
		if r.Fn.Parent() == nil && (token.IsExported(r.Fn.Name()) || r.Fn.Signature.Recv() == nil && r.Fn.Name() == "main") && !skip(r) {
			stack = append(stack, r.Fn)
		}
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if c.exported[f] {
			continue
		}
		c.exported[f] = true
		stack = append(stack, edges[f]...)
	}
	return c
}

// startedParams returns the indexes of top's parameters that the go
// statement g runs: go f(), or a goroutine literal calling a captured f.
func startedParams(g *ssa.Go, top *ssa.Function) []int {
	var out []int
	param := func(v ssa.Value) {
		if p, ok := v.(*ssa.Parameter); ok {
			if _, isFunc := p.Type().Underlying().(*types.Signature); !isFunc {
				return
			}
			for i, q := range top.Params {
				if q == p {
					out = append(out, i)
				}
			}
		}
	}
	param(g.Call.Value)
	mc, ok := g.Call.Value.(*ssa.MakeClosure)
	if !ok {
		return out
	}
	lit, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return out
	}
	for _, b := range lit.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			v := c.Common().Value
			deref := false
			if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
				v, deref = u.X, true // a captured variable, boxed
			}
			fv, ok := v.(*ssa.FreeVar)
			if !ok {
				continue
			}
			for i, f := range lit.FreeVars {
				if f != fv || i >= len(mc.Bindings) {
					continue
				}
				b := mc.Bindings[i]
				if !deref {
					param(b)
					continue
				}
				if refs := b.Referrers(); refs != nil {
					for _, r := range *refs {
						if st, ok := r.(*ssa.Store); ok && st.Addr == b {
							param(st.Val)
						}
					}
				}
			}
		}
	}
	return out
}

// funcOf returns the function a func value runs: a function, a closure,
// or the method a bound method value wraps.
func funcOf(v ssa.Value) *ssa.Function {
	switch v := v.(type) {
	case *ssa.MakeClosure:
		return funcOf(v.Fn)
	case *ssa.Function:
		if v.Synthetic == "" {
			return v
		}
		if obj, ok := v.Object().(*types.Func); ok && v.Prog != nil {
			if f := v.Prog.FuncValue(obj); f != nil && f.Synthetic == "" {
				return f // a bound method value
			}
		}
		for _, b := range v.Blocks { // a bound method or thunk: what it calls
			for _, instr := range b.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok {
					if f := c.Common().StaticCallee(); f != nil {
						return f
					}
				}
			}
		}
	}
	return nil
}

// calleeIs reports whether c calls pkg.name or the method (*recv).name of pkg.
func calleeIs(c *ssa.CallCommon, pkg, recv, name string) bool {
	f := c.StaticCallee()
	if f == nil || f.Name() != name || f.Pkg == nil || f.Pkg.Pkg.Path() != pkg {
		return false
	}
	sig := f.Signature
	if recv == "" {
		return sig.Recv() == nil
	}
	if sig.Recv() == nil {
		return false
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Name() == recv
}

// concurrentWith returns an access of info that can run at the same time
// as o on another goroutine and conflicts with it (one of the two
// writes), with a description of the goroutine evidence: o is in an
// exported function and the other access is reached from a goroutine
// root (or, for a type that claims safety for concurrent use, from an
// exported function); or o is in a function a goroutine root starts and
// the other is reached from an exported function or another root.
func (pc *passContext) concurrentWith(o *obs, info *fieldInfo, mu *types.Var, claimed bool) (*obs, string) {
	c := pc.conc
	for _, o2 := range info.obs {
		if o2 == o || !o.write && !o2.write {
			continue
		}
		if o.sel != "" && o2.sel != "" && o.sel != o2.sel {
			continue // two fields of one embedded struct (c.sent, c.dropped)
		}
		a, b := o.fn, o2.fn
		if a == b {
			continue // one function: the same goroutine, unless started twice
		}
		if excludedByWiderLock(o, o2) {
			continue // a lock both hold, one exclusively (their callers' included)
		}
		aExp := a.Parent() == nil && token.IsExported(a.Name()) && !pc.setupOnly(a, info.field)
		if aExp {
			if rbs := c.bg[b]; len(rbs) > 0 && !c.joinedFor(o, b) {
				rb := rbs[0]
				return o2, fmt.Sprintf("%s runs on the goroutine started by the %s at %s, %s is exported", b.Name(), rb.what, pc.short(rb.pos), a.Name())
			}
			if claimed && c.exported[b] {
				return o2, "the type is documented as safe for concurrent use"
			}
		}
		for _, ra := range c.entry[a] {
			if heldVar(ra.held, mu) {
				continue // started under the lock
			}
			if c.exported[b] && !(ra.wg != nil && o2.joins()[ra.wg]) {
				return o2, fmt.Sprintf("%s runs on the goroutine started by the %s at %s, %s is reached from an exported function", a.Name(), ra.what, pc.short(ra.pos), b.Name())
			}
			for _, rb := range c.bg[b] {
				if rb.pos != ra.pos {
					return o2, fmt.Sprintf("%s runs on the goroutine started by the %s at %s, %s on the one started at %s", a.Name(), ra.what, pc.short(ra.pos), b.Name(), pc.short(rb.pos))
				}
			}
		}
	}
	return nil, ""
}

// excludedByWiderLock reports whether o and o2 both hold one lock, one of
// them exclusively, counting the locks every caller of their functions
// holds (lockset's caller classes): a store-wide lock that excludes the
// two even though neither holds the field's own guard.
func excludedByWiderLock(o, o2 *obs) bool {
	if o.r == nil || o2.r == nil || o.instr == nil || o2.instr == nil {
		return false
	}
	_, ok := lockset.Excluded(o.r.ClassesAt(o.instr), o2.r.ClassesAt(o2.instr))
	return ok
}

// excludedEverywhere reports whether every access that conflicts with o
// (the same field, one of the two a write, in another function) is
// excluded from it by a wider lock, and there is at least one: the
// documented guard is not the one the field relies on there.
func excludedEverywhere(o *obs, info *fieldInfo) bool {
	n := 0
	for _, o2 := range info.obs {
		if o2 == o || !o.write && !o2.write || o.fn == o2.fn {
			continue
		}
		if o.sel != "" && o2.sel != "" && o.sel != o2.sel {
			continue
		}
		if !excludedByWiderLock(o, o2) {
			return false
		}
		n++
	}
	return n > 0
}

// short formats pos as file:line.
func (pc *passContext) short(pos token.Pos) string {
	p := pc.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

func heldVar(vs []*types.Var, mu *types.Var) bool {
	for _, v := range vs {
		if v == mu.Origin() {
			return true
		}
	}
	return false
}

// Joined workers: a goroutine registered with a WaitGroup field (started
// by wg.Go, or by go after wg.Add with a deferred wg.Done) is over once
// the same value's wg.Wait() returns, so it is no evidence against an
// access that follows the Wait on every path (close(s.stopCh);
// s.wg.Wait(); s.parts = nil).

// joins returns the WaitGroup fields of o's own base that o's function
// waits for before o on every path (s.wg.Wait() before s.parts = nil).
func (o *obs) joins() map[*types.Var]bool {
	if o.r == nil || o.instr == nil || o.path.IsZero() {
		return nil
	}
	var out map[*types.Var]bool
	for _, w := range forkjoin.Waits(o.instr) {
		if o.r.Path(w.WG) != o.path.Child(w.Field.Name()) {
			continue
		}
		if out == nil {
			out = map[*types.Var]bool{}
		}
		out[w.Field] = true
	}
	return out
}

// joinedFor reports whether every goroutine that reaches fn is
// registered with a WaitGroup that o's function waits for before o.
func (c *concurrency) joinedFor(o *obs, fn *ssa.Function) bool {
	if len(c.bg[fn]) == 0 || c.loose[fn] {
		return false
	}
	j := o.joins()
	for wg := range c.wgs[fn] {
		if !j[wg] {
			return false
		}
	}
	return true
}

// joinedField reports whether o comes after the join of every goroutine
// that reaches another access of the field (and there is one): the
// inferred guard's evidence of sharing is gone.
func (c *concurrency) joinedField(o *obs, info *fieldInfo) bool {
	some := false
	for _, o2 := range info.obs {
		if o2.fn == o.fn || len(c.bg[o2.fn]) == 0 {
			continue
		}
		if !c.joinedFor(o, o2.fn) {
			return false
		}
		some = true
	}
	return some
}
