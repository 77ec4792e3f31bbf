package lockpair

import (
	"strings"

	"golang.org/x/tools/go/ssa"
)

// handedUnlocks returns the keys of the mutexes whose Unlock (or RUnlock)
// method value fn hands to someone else: stored, passed or put in a
// literal rather than called here (server.NotifyStartedFunc =
// wait.Unlock). Such a mutex is a signal another goroutine releases; a
// second Lock waits for it rather than deadlocking. So is a mutex that a
// function literal handed elsewhere unlocks (a callback whose goroutine
// does defer wait.Unlock()).
func (w *walker) handedUnlocks() map[string]bool {
	var out map[string]bool
	for _, b := range w.fn.Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || !escapes(mc) {
				continue
			}
			fn, ok := mc.Fn.(*ssa.Function)
			if !ok {
				continue
			}
			var bound []ssa.Value
			if isBoundUnlock(fn) && len(mc.Bindings) == 1 {
				bound = mc.Bindings
			} else {
				// A literal handed elsewhere that unlocks a mutex it
				// captured, itself or in a goroutine it starts.
				for i := range unlockedFreeVars(fn, 0) {
					bound = append(bound, mc.Bindings[i])
				}
			}
			for _, b := range bound {
				r, ok := w.refOf(b)
				if !ok {
					continue
				}
				if out == nil {
					out = map[string]bool{}
				}
				out[r.key] = true
			}
		}
	}
	return out
}

// isBoundUnlock reports whether fn is the bound method wrapper of a
// sync mutex's Unlock or RUnlock.
func isBoundUnlock(fn *ssa.Function) bool {
	if !strings.HasPrefix(fn.Synthetic, "bound method wrapper") {
		return false
	}
	name := fn.Name()
	if !strings.HasSuffix(name, "Unlock$bound") {
		return false
	}
	obj := fn.Object()
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == "sync"
}

// escapes reports whether v is used other than as the function a call
// or defer of this function calls.
func escapes(v ssa.Value) bool {
	for _, ref := range *v.Referrers() {
		if c, ok := ref.(ssa.CallInstruction); ok && c.Common().Value == v {
			continue
		}
		return true
	}
	return false
}

// unlockedFreeVars returns the indexes of fn's free variables that fn,
// or a function literal nested in it, unlocks (Unlock or RUnlock).
func unlockedFreeVars(fn *ssa.Function, depth int) map[int]bool {
	out := map[int]bool{}
	if depth > 3 {
		return out
	}
	index := map[ssa.Value]int{}
	for i, fv := range fn.FreeVars {
		index[fv] = i
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case ssa.CallInstruction:
				if o, recv := syncOp(x.Common()); (o == opUnlock || o == opRUnlock) && recv != nil {
					if i, ok := index[recv]; ok {
						out[i] = true
					}
				}
			case *ssa.MakeClosure:
				inner, ok := x.Fn.(*ssa.Function)
				if !ok {
					continue
				}
				for j := range unlockedFreeVars(inner, depth+1) {
					if i, ok := index[x.Bindings[j]]; ok {
						out[i] = true
					}
				}
			}
		}
	}
	return out
}
