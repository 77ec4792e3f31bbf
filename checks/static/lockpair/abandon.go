package lockpair

// Locks of values the function made and never let go of (IL2002).

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// abandoned reports whether the lock r is a mutex of a value this
// function created (new(T), &T{}, a newX constructor of this package) that
// never leaves it: not returned, stored outside its own objects, sent,
// captured by a closure or a go statement, nor handed to a call together
// with anything that could keep it (a parameter, a global). Such a value
// is unreachable once the function returns, so a return that keeps its
// lock leaves nothing that could wait for it (a test's local buffer
// locked through WriteMode and dropped at t.Errorf; return).
// Callees of other packages are trusted not to start goroutines that
// keep an argument; this package's are checked for go statements.
func (w *walker) abandoned(r lockRef) bool {
	if r.root == nil || len(r.indexes) > 0 || !lockset.Fresh(r.root) {
		return false
	}
	local := map[ssa.Value]bool{}
	var work []ssa.Value
	add := func(v ssa.Value) {
		if !local[v] {
			local[v] = true
			work = append(work, v)
		}
	}
	add(r.root)
	// base strips field and index addresses down to the object.
	base := func(v ssa.Value) ssa.Value {
		for {
			switch x := v.(type) {
			case *ssa.FieldAddr:
				v = x.X
			case *ssa.IndexAddr:
				v = x.X
			default:
				return v
			}
		}
	}
	// own makes v (an address or object) local when its object is, or is
	// a fresh allocation of this function.
	own := func(v ssa.Value) bool {
		b := base(v)
		if local[b] {
			return true
		}
		if a, ok := b.(*ssa.Alloc); ok {
			add(a)
			return true
		}
		return false
	}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, u := range *refs {
			switch x := u.(type) {
			case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.ChangeType, *ssa.ChangeInterface, *ssa.MakeInterface, *ssa.Slice, *ssa.TypeAssert, *ssa.Extract:
				if val, ok := x.(ssa.Value); ok && isRef(val.Type()) {
					add(val)
				}
			case *ssa.Store:
				if x.Val == v && !own(x.Addr) {
					return false
				}
			case *ssa.MapUpdate:
				if (x.Key == v || x.Value == v) && !own(x.Map) {
					return false
				}
			case *ssa.Call:
				if !w.keepsLocal(x.Common(), local, own) {
					return false
				}
				if isRef(x.Type()) {
					add(x)
				}
			case *ssa.Phi, *ssa.Return, *ssa.Go, *ssa.Defer, *ssa.Send, *ssa.MakeClosure, *ssa.Select, *ssa.Panic, *ssa.Convert:
				return false
			}
		}
	}
	return true
}

// keepsLocal reports whether a call given a local value keeps it local:
// every argument that could hold a reference is local too, and a callee
// of this package starts no goroutine.
func (w *walker) keepsLocal(c *ssa.CallCommon, local map[ssa.Value]bool, own func(ssa.Value) bool) bool {
	args := c.Args
	if c.IsInvoke() {
		args = append([]ssa.Value{c.Value}, args...)
	} else if _, ok := c.Value.(*ssa.Function); !ok {
		if _, ok := c.Value.(*ssa.Builtin); !ok {
			return false // a func value: unknown code
		}
	}
	for _, a := range args {
		if _, ok := a.(*ssa.Const); ok || !mayHold(a.Type()) || local[a] {
			continue
		}
		if !own(a) {
			return false
		}
	}
	if fn := c.StaticCallee(); fn != nil && fn.Pkg != nil && fn.Pkg.Pkg == w.pass.Pkg && startsGoroutine(fn, map[*ssa.Function]bool{}) {
		return false
	}
	return true
}

// startsGoroutine reports whether fn, its closures or the functions of
// its package it calls (transitively) contain a go statement.
func startsGoroutine(fn *ssa.Function, seen map[*ssa.Function]bool) bool {
	if seen[fn] {
		return false
	}
	seen[fn] = true
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Go:
				return true
			case ssa.CallInstruction:
				if g := x.Common().StaticCallee(); g != nil && g.Pkg == fn.Pkg && len(g.Blocks) > 0 && startsGoroutine(g, seen) {
					return true
				}
			}
		}
	}
	for _, anon := range fn.AnonFuncs {
		if startsGoroutine(anon, seen) {
			return true
		}
	}
	return false
}

// mayHold reports whether a value of type t could hold a reference to
// another value: not a basic type, nor a slice, array, pointer or struct
// of such ([]byte, *int). The error of a call is taken as holding none.
func mayHold(t types.Type) bool {
	if types.Identical(t, types.Universe.Lookup("error").Type()) {
		return false
	}
	return holds(t, map[types.Type]bool{})
}

func holds(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Slice:
		return holds(u.Elem(), seen)
	case *types.Array:
		return holds(u.Elem(), seen)
	case *types.Pointer:
		return holds(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if holds(u.Field(i).Type(), seen) {
				return true
			}
		}
		return false
	case *types.Tuple:
		for i := 0; i < u.Len(); i++ {
			if holds(u.At(i).Type(), seen) && !types.Identical(u.At(i).Type(), types.Universe.Lookup("error").Type()) {
				return true
			}
		}
		return false
	}
	return true
}

// isRef reports whether a value derived from a local (a field address,
// a call's result) may be or point into it: anything but a basic value
// or an error.
func isRef(t types.Type) bool {
	if types.Identical(t, types.Universe.Lookup("error").Type()) {
		return false
	}
	if b, ok := t.Underlying().(*types.Basic); ok {
		return b.Kind() == types.UnsafePointer
	}
	if tu, ok := t.(*types.Tuple); ok {
		for i := 0; i < tu.Len(); i++ {
			if isRef(tu.At(i).Type()) {
				return true
			}
		}
		return false
	}
	return true
}
