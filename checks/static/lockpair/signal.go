package lockpair

import (
	"strings"

	"golang.org/x/tools/go/ssa"
)

// handedUnlocks returns the keys of the mutexes whose Unlock (or RUnlock)
// method value fn hands to someone else: stored, passed or put in a
// literal rather than called here (server.NotifyStartedFunc =
// wait.Unlock). Such a mutex is a signal another goroutine releases; a
// second Lock waits for it rather than deadlocking.
func (w *walker) handedUnlocks() map[string]bool {
	var out map[string]bool
	for _, b := range w.fn.Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || len(mc.Bindings) != 1 || !escapes(mc) {
				continue
			}
			if fn, ok := mc.Fn.(*ssa.Function); !ok || !isBoundUnlock(fn) {
				continue
			}
			r, ok := w.refOf(mc.Bindings[0])
			if !ok {
				continue
			}
			if out == nil {
				out = map[string]bool{}
			}
			out[r.key] = true
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
