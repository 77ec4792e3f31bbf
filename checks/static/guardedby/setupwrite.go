package guardedby

// Writes that set a value up before it is published (IL1008).

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// setupWrite reports whether w, a write of field f, is made on a value
// its function created (new(T), &T{}, a newX constructor, also through
// x, err := newX()) before anything publishes it: no store, send, map
// entry, go statement, argument of another function's call, or closure
// that can read f takes the value on a path to the write (a method value
// of a method that does not touch f, as a subscription's onMsg, may).
// Readers that get the value from its creator run after such a write.
func setupWrite(w *obs, f *types.Var) bool {
	if w.instr == nil || w.path.Root == nil {
		return false
	}
	root := w.path.Root
	fresh := lockset.Fresh(root)
	if e, ok := root.(*ssa.Extract); ok && e.Index == 0 {
		if c, ok := e.Tuple.(*ssa.Call); ok {
			fresh = lockset.Fresh(c)
		}
	}
	if !fresh {
		return false
	}
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
			if publishes && mayRunBefore(u, w.instr) {
				return false
			}
		}
	}
	return true
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
