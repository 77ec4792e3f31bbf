package guardedby

import (
	"go/types"

	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/claim"
	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// A single-goroutine contract: an interface declared in the package whose
// doc disclaims concurrent use ("NOT safe for concurrent use. All calls
// … must be made from a single goroutine"), which the package converts
// its unexported type T to (the constructor returns the interface, and
// other packages cannot name T). Its callers
// serialize every call of its methods, so the methods of T that implement
// it, and the unexported functions only they call, run one at a time: an
// unlocked read in one of them races with no write made in another. A
// write anywhere else (a callback the package hands to a subscriber, a
// goroutine, a method outside the interface) still races.

// serialFuncs returns the functions of the package that run only under a
// single-goroutine contract, built on first use.
func (pc *passContext) serialFuncs() map[*ssa.Function]bool {
	if pc.serial != nil {
		return pc.serial
	}
	pc.serial = map[*ssa.Function]bool{}
	ifaces := claim.DisclaimedInterfaces(pc.pass.Files, pc.pass.TypesInfo)
	if len(ifaces) == 0 {
		return pc.serial
	}
	srcFuncs := pc.pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).SrcFuncs
	// Candidates: the contract's methods on types converted to it, and
	// the unexported functions and methods no interface of the package
	// can dispatch to.
	dispatched := map[string]bool{}
	for _, n := range pc.pass.Pkg.Scope().Names() {
		if iface, ok := pc.pass.Pkg.Scope().Lookup(n).Type().Underlying().(*types.Interface); ok {
			for i := 0; i < iface.NumMethods(); i++ {
				dispatched[iface.Method(i).Name()] = true
			}
		}
	}
	contract := map[*ssa.Function]bool{}
	for _, fn := range srcFuncs {
		if fn.Parent() != nil || fn.Synthetic != "" {
			continue
		}
		if recv := fn.Signature.Recv(); recv != nil {
			t := recv.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			for tn := range ifaces {
				iface := tn.Type().Underlying().(*types.Interface)
				if hasMethod(iface, fn.Name()) && !exportedType(t) && types.Implements(types.NewPointer(t), iface) && pc.convertedTo(t, tn.Type()) {
					contract[fn] = true
				}
			}
			if contract[fn] || fn.Object() == nil || fn.Object().Exported() || dispatched[fn.Name()] {
				continue
			}
		} else if fn.Object() == nil || fn.Object().Exported() || fn.Name() == "init" {
			continue
		}
		pc.serial[fn] = true
	}
	if len(contract) == 0 {
		pc.serial = map[*ssa.Function]bool{}
		return pc.serial
	}
	for fn := range contract {
		pc.serial[fn] = true
	}
	// Every use of a candidate in the package must be a call (or a
	// deferred call) from a serial function; an unexported candidate must
	// have one. Drop the others until nothing changes.
	uses := map[*ssa.Function][]ssa.Instruction{}
	var operands []*ssa.Value
	var scan func(fn *ssa.Function)
	scan = func(fn *ssa.Function) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok && c.Common().IsInvoke() {
					// A call through an interface may reach any contract
					// method of that name.
					for callee := range contract {
						if callee.Name() == c.Common().Method.Name() {
							uses[callee] = append(uses[callee], instr)
						}
					}
				}
				operands = instr.Operands(operands[:0])
				for _, op := range operands {
					if callee := usedFunc(*op); callee != nil && pc.serial[callee] {
						uses[callee] = append(uses[callee], instr)
					}
				}
			}
		}
		for _, anon := range fn.AnonFuncs {
			scan(anon)
		}
	}
	seen := map[*ssa.Function]bool{}
	for _, fn := range srcFuncs {
		if top := topLevel(fn); !seen[top] {
			seen[top] = true
			scan(top)
		}
	}
	for changed := true; changed; {
		changed = false
		for fn := range pc.serial {
			ok := contract[fn] || len(uses[fn]) > 0
			for _, u := range uses[fn] {
				ok = ok && pc.serialCall(u, fn)
			}
			if !ok {
				delete(pc.serial, fn)
				changed = true
			}
		}
	}
	return pc.serial
}

// usedFunc returns the declared function v names: the function itself,
// or the method a bound method value (s.handle) wraps.
func usedFunc(v ssa.Value) *ssa.Function {
	switch x := v.(type) {
	case *ssa.Function:
		if x.Synthetic != "" {
			return lockset.WrappedCallee(x)
		}
		return x
	case *ssa.MakeClosure:
		if fn, ok := x.Fn.(*ssa.Function); ok && fn.Synthetic != "" {
			return lockset.WrappedCallee(fn)
		}
	}
	return nil
}

// serialCall reports whether the use u of callee is a call or deferred
// call of it, made by a serial function (or a literal inlined into one).
func (pc *passContext) serialCall(u ssa.Instruction, callee *ssa.Function) bool {
	var c *ssa.CallCommon
	switch x := u.(type) {
	case *ssa.Call:
		c = &x.Call
	case *ssa.Defer:
		c = &x.Call
	default:
		return false // go statements, method values, stores: another goroutine may call it
	}
	if c.IsInvoke() {
		if c.Method.Name() != callee.Name() {
			return false
		}
	} else if c.StaticCallee() != callee {
		return false // passed as an argument
	}
	return pc.onSerial(u.Parent())
}

// onSerial reports whether code of fn runs on a serial function's
// goroutine: fn is serial, or a literal called or deferred in place by one.
func (pc *passContext) onSerial(fn *ssa.Function) bool {
	for fn.Parent() != nil {
		if !lockset.Inlined(fn) {
			return false
		}
		fn = fn.Parent()
	}
	return pc.serialFuncs()[fn]
}

// serialRead reports whether o, an unlocked read, and every write of its
// field (info's accesses, counted or not) run under one single-goroutine
// contract: they cannot overlap.
func (pc *passContext) serialRead(o *obs, info *fieldInfo) bool {
	if o.write || !pc.onSerial(o.instr.Parent()) {
		return false
	}
	for _, w := range info.obs {
		if w.write && !pc.onSerial(w.instr.Parent()) {
			return false
		}
	}
	return true
}

// exportedType reports whether other packages can name t, and so call its
// methods without the interface and its contract.
func exportedType(t types.Type) bool {
	n, ok := t.(*types.Named)
	return !ok || n.Obj().Exported()
}

func hasMethod(iface *types.Interface, name string) bool {
	for i := 0; i < iface.NumMethods(); i++ {
		if iface.Method(i).Name() == name {
			return true
		}
	}
	return false
}
