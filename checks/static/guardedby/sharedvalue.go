package guardedby

// One test of "could another goroutine see this value at this write?",
// for IL1008 (a locked write that counts) and IL1009 (the write that
// confirms it).

import (
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// sharedAt reports whether the value whose field f the write w writes may
// be seen by another goroutine at the write. It is not when its function
// created it (new(T), &T{}, a newX constructor, a package function that
// returns only values it created and kept to itself; also through
// x, err := f()) and nothing published it on a path to the write: no
// store, send, map entry, go statement, argument of another function's
// call, or closure that can read f (a method value of a method that does
// not touch f, as a subscription's onMsg, may be handed out). Readers
// that get the value from its creator run after such a set-up write.
// Everything else is shared: a parameter or receiver, a package variable,
// a closure's captured variable (the closure may run on any goroutine), a
// value loaded from memory or returned by another call, a created value
// after it was published.
func sharedAt(w *obs, f *types.Var) bool {
	if w.instr == nil || w.path.Root == nil {
		return true
	}
	if _, ok := w.path.Root.(*ssa.FreeVar); ok {
		return true
	}
	return !createdUnpublished(w.path.Root, w.instr, f, 0)
}

// createdUnpublished reports whether v, a value of at's function, was
// created there (or returned by a call that creates it) and is not
// published before at.
func createdUnpublished(v ssa.Value, at ssa.Instruction, f *types.Var, depth int) bool {
	created := lockset.Fresh(v)
	if !created {
		var call *ssa.Call
		switch x := v.(type) {
		case *ssa.Call:
			call = x
		case *ssa.Extract:
			if x.Index == 0 {
				call, _ = x.Tuple.(*ssa.Call)
			}
		}
		if call != nil {
			created = lockset.Fresh(call) || returnsCreated(call, f, depth)
		}
	}
	return created && !publishedBefore(v, at, f)
}

// returnsCreated reports whether call is a call of a function of the
// same package whose every return yields, as its first result, nil or a
// value it created and did not publish (a builder not named newX:
// dial, open).
func returnsCreated(call *ssa.Call, f *types.Var, depth int) bool {
	callee := call.Call.StaticCallee()
	if depth >= 3 || callee == nil || call.Parent() == nil || callee.Pkg != call.Parent().Pkg || len(callee.Blocks) == 0 {
		return false
	}
	rets := 0
	for _, b := range callee.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) == 0 {
			return false
		}
		r := ret.Results[0]
		if c, ok := r.(*ssa.Const); ok && (c.Value == nil || c.Value.Kind() == constant.Unknown) {
			continue // return nil, err
		}
		if !createdUnpublished(r, ret, f, depth+1) {
			return false
		}
		rets++
	}
	return rets > 0
}

// publishedBefore reports whether something may publish root (store it,
// send it, put it in a map, hand it to a go statement, another
// function's call or a closure that can read f) before at.
func publishedBefore(root ssa.Value, at ssa.Instruction, f *types.Var) bool {
	vals := []ssa.Value{root}
	seen := map[ssa.Value]bool{root: true}
	for len(vals) > 0 {
		v := vals[len(vals)-1]
		vals = vals[:len(vals)-1]
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, u := range *refs {
			publishes := false
			switch x := u.(type) {
			case *ssa.ChangeType, *ssa.MakeInterface:
				if d := x.(ssa.Value); !seen[d] {
					seen[d] = true
					vals = append(vals, d)
				}
			case *ssa.Store:
				publishes = x.Val == v
			case *ssa.MapUpdate:
				publishes = x.Key == v || x.Value == v
			case *ssa.Send, *ssa.Go, *ssa.Defer, *ssa.Phi, *ssa.Select:
				publishes = true
			case *ssa.MakeClosure:
				publishes = !boundWithout(x, f)
			case *ssa.Call:
				publishes = !ownMethodCall(x.Common(), v)
			}
			if publishes && mayRunBefore(u, at) {
				return true
			}
		}
	}
	return false
}

// ownMethodCall reports whether c is a call of a method with v as its
// receiver only.
func ownMethodCall(c *ssa.CallCommon, v ssa.Value) bool {
	fn := c.StaticCallee()
	if fn == nil || fn.Signature.Recv() == nil || len(c.Args) == 0 || c.Args[0] != v {
		return false
	}
	for _, a := range c.Args[1:] {
		if a == v {
			return false
		}
	}
	return true
}

// boundWithout reports whether mc is a method value (x.onMsg) of a
// method of this program that does not access f.
func boundWithout(mc *ssa.MakeClosure, f *types.Var) bool {
	obj, ok := mc.Fn.(*ssa.Function).Object().(*types.Func)
	if !ok || mc.Fn.(*ssa.Function).Synthetic == "" {
		return false
	}
	m := mc.Fn.(*ssa.Function).Prog.FuncValue(obj)
	if m == nil || len(m.Blocks) == 0 {
		return false
	}
	for _, fn := range append([]*ssa.Function{m}, m.AnonFuncs...) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.FieldAddr:
					if g := lockset.FieldOf(x); g != nil && g.Origin() == f.Origin() {
						return false
					}
				case *ssa.Field:
					if g := lockset.FieldOf(x); g != nil && g.Origin() == f.Origin() {
						return false
					}
				case ssa.CallInstruction:
					if c := x.Common().StaticCallee(); c != nil && c.Pkg == m.Pkg && c != m {
						return false // it may reach f through a call
					}
				}
			}
		}
	}
	return true
}

// mayRunBefore reports whether a may run before b in their function.
func mayRunBefore(a, b ssa.Instruction) bool {
	ab, bb := a.Block(), b.Block()
	if ab == nil || bb == nil || a.Parent() != b.Parent() {
		return true
	}
	if ab == bb {
		for _, i := range ab.Instrs {
			if i == a {
				return true
			}
			if i == b {
				break
			}
		}
	}
	return lockset.BlocksReach(ab.Succs, bb)
}
