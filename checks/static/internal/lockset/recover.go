package lockset

// Whether a function's recover block is a path: a deferred call may stop
// a panic.

import (
	"strings"

	"golang.org/x/tools/go/ssa"
)

// mayRecover reports whether a deferred call of fn may stop a panic, so
// that fn.Recover returns: recover() stops a panic only when the
// deferred function itself calls it. A deferred call whose callee is
// unknown (an interface method, a function value, a function of another
// package outside the standard library) may; one of the standard library
// or a builtin other than recover does not.
func mayRecover(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok && deferMayRecover(&d.Call) {
				return true
			}
		}
	}
	return false
}

func deferMayRecover(c *ssa.CallCommon) bool {
	if c.IsInvoke() {
		return true
	}
	var callee *ssa.Function
	switch v := c.Value.(type) {
	case *ssa.Builtin:
		return v.Name() == "recover"
	case *ssa.Function:
		callee = v
	case *ssa.MakeClosure:
		callee, _ = v.Fn.(*ssa.Function)
	}
	if callee == nil {
		return true // a function value
	}
	if callee.Synthetic != "" {
		if w := WrappedCallee(callee); w != nil {
			callee = w
		}
	}
	if len(callee.Blocks) == 0 {
		return !standard(callee)
	}
	return callsRecover(callee)
}

// callsRecover reports whether fn's own body calls the builtin recover.
func callsRecover(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				if bi, ok := c.Common().Value.(*ssa.Builtin); ok && bi.Name() == "recover" {
					return true
				}
			}
		}
	}
	return false
}

// standard reports whether fn is declared in the standard library (its
// package path's first element has no dot).
func standard(fn *ssa.Function) bool {
	obj := fn.Object()
	if obj == nil || obj.Pkg() == nil {
		return false
	}
	first, _, _ := strings.Cut(obj.Pkg().Path(), "/")
	return !strings.Contains(first, ".")
}
