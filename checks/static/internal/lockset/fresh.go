package lockset

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Fresh reports whether the root of a path denotes a value created in the
// function being analyzed, so that it is not shared yet: a local
// variable or composite literal (&T{}, new(T), var t T), a variable that
// only ever holds such values, or the result of a constructor of the
// same package (a function named newX or NewX). A free variable of a
// function literal is resolved in the enclosing function.
//
// Like checklocks' fresh-allocation rule, this does not track whether the
// value escapes before the access: precision before recall.
func Fresh(root ssa.Value) bool { return fresh(root, 0) }

func fresh(v ssa.Value, depth int) bool {
	if depth > 6 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Alloc:
		elem := x.Type().Underlying().(*types.Pointer).Elem()
		if _, ok := elem.Underlying().(*types.Pointer); !ok {
			return true // the object itself is local
		}
		// A local variable holding a pointer: fresh if every value stored
		// in it is.
		stores := 0
		for _, u := range *x.Referrers() {
			if st, ok := u.(*ssa.Store); ok && st.Addr == x {
				if !fresh(st.Val, depth+1) {
					return false
				}
				stores++
			}
		}
		return stores > 0
	case *ssa.UnOp:
		return fresh(x.X, depth+1)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if !fresh(e, depth+1) {
				return false
			}
		}
		return len(x.Edges) > 0
	case *ssa.Call:
		callee := x.Call.StaticCallee()
		return callee != nil && x.Parent() != nil && callee.Pkg == x.Parent().Pkg && IsConstructorName(callee.Name())
	case *ssa.FreeVar:
		fn := x.Parent()
		idx := -1
		for i, fv := range fn.FreeVars {
			if fv == x {
				idx = i
			}
		}
		refs := fn.Referrers()
		if idx < 0 || refs == nil {
			return false
		}
		for _, u := range *refs {
			if mc, ok := u.(*ssa.MakeClosure); ok && idx < len(mc.Bindings) {
				return fresh(mc.Bindings[idx], depth+1)
			}
		}
	}
	return false
}

// IsConstructorName reports whether a function name says it builds a new
// value: newX, NewX, or new/New alone.
func IsConstructorName(name string) bool {
	if i := strings.IndexByte(name, '$'); i >= 0 {
		name = name[:i] // function literal of a constructor: NewX$1
	}
	return strings.HasPrefix(name, "new") || strings.HasPrefix(name, "New")
}

// IsInitName reports whether an SSA function name is a package
// initializer: init or init#N.
func IsInitName(name string) bool {
	return name == "init" || strings.HasPrefix(name, "init#") || strings.HasPrefix(name, "init$")
}

// IsDecoder reports whether obj is a method that decodes its arguments
// into its receiver (UnmarshalJSON, UnmarshalText, GobDecode, DecodeMsg,
// FromProto): it takes arguments, returns at most an error, and is named
// Unmarshal*, Decode*, GobDecode or From*. It fills a value being built,
// like a constructor; decoding into a value others use is no concurrent
// use that any type supports.
func IsDecoder(obj types.Object) bool {
	fn, ok := obj.(*types.Func)
	if !ok || fn.Signature().Recv() == nil {
		return false
	}
	sig := fn.Signature()
	if sig.Params().Len() == 0 || sig.Results().Len() > 1 {
		return false
	}
	if sig.Results().Len() == 1 && !types.Identical(sig.Results().At(0).Type(), types.Universe.Lookup("error").Type()) {
		return false
	}
	for _, p := range []string{"Unmarshal", "Decode", "GobDecode", "From"} {
		if rest, ok := strings.CutPrefix(fn.Name(), p); ok && (rest == "" || rest[0] >= 'A' && rest[0] <= 'Z') {
			return true
		}
	}
	return false
}
