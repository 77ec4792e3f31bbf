package lockset

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// maxAcquireDepth bounds the static calls followed by Acquirer.
const maxAcquireDepth = 3

// RelAcq is a lock a function may acquire, relative to one of its
// parameters (Param >= 0, receiver included) or a package-level lock
// (Global != nil): Fields below that root.
type RelAcq struct {
	Param  int
	Global *ssa.Global
	Fields string
	Mode   Mode
	Pos    token.Pos // the Lock call, in the function that makes it
	// When is a condition on a bool parameter that guards the Lock
	// (if needLock { mu.Lock() }): WhenParam < 0 when there is none.
	WhenParam int
	WhenValue bool
}

// guard returns the bool parameter test that dominates b in fn, if any.
func guard(fn *ssa.Function, b *ssa.BasicBlock) (int, bool) {
	for _, x := range fn.Blocks {
		if len(x.Instrs) == 0 || len(x.Succs) != 2 {
			continue
		}
		iff, ok := x.Instrs[len(x.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		p, ok := iff.Cond.(*ssa.Parameter)
		if !ok {
			continue
		}
		for i, q := range fn.Params {
			if q != p {
				continue
			}
			for s, succ := range x.Succs {
				if len(succ.Preds) == 1 && succ.Dominates(b) {
					return i, s == 0
				}
			}
		}
	}
	return -1, false
}

// BoolGuard returns the bool parameter whose test dominates b in fn, and
// the value for which b runs (if prev { ... }): -1 when there is none.
func BoolGuard(fn *ssa.Function, b *ssa.BasicBlock) (int, bool) { return guard(fn, b) }

// skipped reports whether r cannot happen for a call passing args: its
// guarding parameter gets the opposite constant.
func skipped(r RelAcq, args []ssa.Value) bool {
	if r.WhenParam < 0 || r.WhenParam >= len(args) {
		return false
	}
	k, ok := args[r.WhenParam].(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Bool {
		return false
	}
	return constant.BoolVal(k.Value) != r.WhenValue
}

// Acquirer computes, per function, the locks it may acquire on its
// parameters' objects or package-level, directly or through static calls
// into the same package (up to maxAcquireDepth deep).
type Acquirer struct {
	pkg  *types.Package
	skip func(*ssa.Function) bool
	memo map[*ssa.Function][]RelAcq
	rels map[*ssa.Function][]RelAcq // unlocks, same shape
	busy map[*ssa.Function]bool
}

// NewAcquirer returns an Acquirer for the functions of pkg; skip, if not
// nil, excludes functions (test files).
func NewAcquirer(pkg *types.Package, skip func(*ssa.Function) bool) *Acquirer {
	return &Acquirer{pkg: pkg, skip: skip, memo: map[*ssa.Function][]RelAcq{}, rels: map[*ssa.Function][]RelAcq{}, busy: map[*ssa.Function]bool{}}
}

// Acquires returns the locks fn may acquire (see Acquirer).
func (a *Acquirer) Acquires(fn *ssa.Function) []RelAcq { return a.acquires(fn, 0) }

// CallReleases returns the locks a call may unlock (a callee that drops
// its caller's lock around a blocking call and takes it back), as paths
// in the caller.
func (a *Acquirer) CallReleases(c *ssa.CallCommon, path func(ssa.Value) Path) []Path {
	callee := c.StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg != a.pkg {
		return nil
	}
	a.acquires(callee, 0)
	var out []Path
	for _, r := range a.rels[callee] {
		if skipped(r, c.Args) {
			continue
		}
		if r.Global != nil {
			out = append(out, Path{Root: r.Global, Fields: r.Fields})
		} else if r.Param < len(c.Args) {
			p := path(c.Args[r.Param])
			out = append(out, Path{Root: p.Root, Fields: p.Fields + r.Fields})
		}
	}
	return out
}

// CallAcquires returns the locks a call may acquire, as paths in the
// caller (path gives the caller's path of a value), with their mode and
// the Lock call's position.
func (a *Acquirer) CallAcquires(c *ssa.CallCommon, path func(ssa.Value) Path) []Held {
	callee := c.StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg != a.pkg {
		return nil
	}
	var out []Held
	for _, r := range a.Acquires(callee) {
		if skipped(r, c.Args) {
			continue
		}
		if r.Global != nil {
			out = append(out, Held{Lock: Path{Root: r.Global, Fields: r.Fields}, Mode: r.Mode, Pos: r.Pos})
			continue
		}
		if r.Param < len(c.Args) {
			p := path(c.Args[r.Param])
			out = append(out, Held{Lock: Path{Root: p.Root, Fields: p.Fields + r.Fields}, Mode: r.Mode, Pos: r.Pos})
		}
	}
	return out
}

func (a *Acquirer) acquires(fn *ssa.Function, depth int) []RelAcq {
	if r, ok := a.memo[fn]; ok {
		return r
	}
	if a.busy[fn] || depth > maxAcquireDepth || (a.skip != nil && a.skip(fn)) {
		return nil
	}
	a.busy[fn] = true
	defer delete(a.busy, fn)
	paramOf := func(p Path) (int, *ssa.Global) {
		if g, ok := p.Root.(*ssa.Global); ok {
			return -1, g
		}
		for i, q := range fn.Params {
			if q == p.Root {
				return i, nil
			}
		}
		return -1, nil
	}
	var out, rels []RelAcq
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if op, v := Classify(call.Common()); op == OpUnlock || op == OpRUnlock {
				p := PathOf(v)
				if i, g := paramOf(p); i >= 0 || g != nil {
					wp, wv := guard(fn, b)
					rels = append(rels, RelAcq{Param: i, Global: g, Fields: p.Fields, Pos: call.Pos(), WhenParam: wp, WhenValue: wv})
				}
				continue
			}
			if _, isCall := call.(*ssa.Call); !isCall {
				continue
			}
			if op, v := Classify(call.Common()); op == OpLock || op == OpRLock {
				mode := Exclusive
				if op == OpRLock {
					mode = Shared
				}
				p := PathOf(v)
				if i, g := paramOf(p); i >= 0 || g != nil {
					wp, wv := guard(fn, b)
					out = append(out, RelAcq{Param: i, Global: g, Fields: p.Fields, Mode: mode, Pos: call.Pos(), WhenParam: wp, WhenValue: wv})
				}
				continue
			}
			callee := call.Common().StaticCallee()
			if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg != a.pkg {
				continue
			}
			args := call.Common().Args
			lift := func(r RelAcq) (RelAcq, bool) {
				if skipped(r, args) {
					return RelAcq{}, false
				}
				// A guard passed on from this function's own parameter
				// (f(needLock) calling g(needLock)) stays a guard.
				when := -1
				if r.WhenParam >= 0 && r.WhenParam < len(args) {
					if p, ok := args[r.WhenParam].(*ssa.Parameter); ok {
						for i, q := range fn.Params {
							if q == p {
								when = i
							}
						}
					}
				}
				if when < 0 {
					if wp, wv := guard(fn, b); wp >= 0 {
						when, r.WhenValue = wp, wv // the call itself is guarded here
					}
				}
				r.WhenParam = when
				if r.Global != nil {
					return r, true
				}
				if r.Param >= len(args) {
					return RelAcq{}, false
				}
				p := PathOf(args[r.Param])
				if i, _ := paramOf(p); i >= 0 {
					return RelAcq{Param: i, Fields: p.Fields + r.Fields, Mode: r.Mode, Pos: r.Pos, WhenParam: r.WhenParam, WhenValue: r.WhenValue}, true
				}
				return RelAcq{}, false
			}
			for _, r := range a.acquires(callee, depth+1) {
				if l, ok := lift(r); ok {
					out = append(out, l)
				}
			}
			for _, r := range a.rels[callee] {
				if l, ok := lift(r); ok {
					rels = append(rels, l)
				}
			}
		}
	}
	a.memo[fn] = out
	a.rels[fn] = rels
	return out
}
