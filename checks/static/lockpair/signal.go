package lockpair

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"
)

// handedUnlocks returns the keys of the mutexes whose Unlock (or RUnlock)
// method value fn hands to someone else: stored, passed or put in a
// literal rather than called here (server.NotifyStartedFunc =
// wait.Unlock). Such a mutex is a signal another goroutine releases; a
// second Lock waits for it rather than deadlocking. So is a mutex that a
// function literal handed elsewhere or started by a go statement unlocks,
// directly or through a function of this package it passes it to (a
// callback whose goroutine does defer wait.Unlock(); go func() { m.wake() }()).
func (w *walker) handedUnlocks() map[string]bool {
	var out map[string]bool
	for _, b := range w.fn.Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || !escapes(mc) && !goStarted(mc) {
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

// signal reports whether the mutex of key is a signal: handed as itself,
// or as the value it is a field of (a callback calls m.wake(), which
// unlocks m.Mutex).
func (w *walker) signal(key string) bool {
	if w.signals[key] {
		return true
	}
	for k := range w.signals {
		if len(key) > len(k) && strings.HasPrefix(key, k) && (key[len(k)] == '.' || key[len(k)] == '*') {
			return true
		}
	}
	return false
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

// goStarted reports whether v is the function of a go statement.
func goStarted(v ssa.Value) bool {
	for _, ref := range *v.Referrers() {
		if g, ok := ref.(*ssa.Go); ok && g.Call.Value == v {
			return true
		}
	}
	return false
}

// unlockedFreeVars returns the indexes of fn's free variables that fn,
// or a function literal nested in it, unlocks (Unlock or RUnlock) without
// locking them: a release of a lock someone else took, not a critical
// section of its own (a callback that locks and unlocks is no signal).
func unlockedFreeVars(fn *ssa.Function, depth int) map[int]bool {
	unlocked, locked := freeVarOps(fn, depth)
	for i := range locked {
		delete(unlocked, i)
	}
	return unlocked
}

// freeVarOps returns the indexes of fn's free variables that fn or a
// nested literal unlocks, and those it locks.
func freeVarOps(fn *ssa.Function, depth int) (unlocked, locked map[int]bool) {
	unlocked, locked = map[int]bool{}, map[int]bool{}
	if depth > 3 {
		return unlocked, locked
	}
	index := map[ssa.Value]int{}
	for i, fv := range fn.FreeVars {
		index[fv] = i
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case ssa.CallInstruction:
				o, recv := syncOp(x.Common())
				if o == opNone {
					// A method or function of this package given a
					// free variable that unlocks it (m.wake()).
					if callee := x.Common().StaticCallee(); callee != nil && callee.Pkg == fn.Pkg && depth < 3 {
						for j, a := range x.Common().Args {
							if i, ok := index[fieldRoot(a)]; ok && j < len(callee.Params) && unlocksParam(callee, callee.Params[j]) {
								unlocked[i] = true
							}
						}
					}
					continue
				}
				i, ok := index[fieldRoot(recv)]
				if recv == nil || !ok {
					continue
				}
				switch o {
				case opUnlock, opRUnlock:
					unlocked[i] = true
				case opLock, opRLock, opTryLock, opTryRLock:
					locked[i] = true
				}
			case *ssa.MakeClosure:
				inner, ok := x.Fn.(*ssa.Function)
				if !ok {
					continue
				}
				u, l := freeVarOps(inner, depth+1)
				for j := range u {
					if i, ok := index[x.Bindings[j]]; ok {
						unlocked[i] = true
					}
				}
				for j := range l {
					if i, ok := index[x.Bindings[j]]; ok {
						locked[i] = true
					}
				}
			}
		}
	}
	return unlocked, locked
}

// fieldRoot strips the field selections and loads of v (&m.Mutex is
// m's, and so is *m of a captured m).
func fieldRoot(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return v
			}
			v = x.X
		default:
			return v
		}
	}
}

// unlocksParam reports whether fn unlocks its parameter p (or a mutex
// field of it) without locking it: it releases a lock its caller took.
func unlocksParam(fn *ssa.Function, p *ssa.Parameter) bool {
	unlocked, locked := false, false
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			o, recv := syncOp(c.Common())
			if recv == nil || fieldRoot(recv) != p {
				continue
			}
			switch o {
			case opUnlock, opRUnlock:
				unlocked = true
			case opLock, opRLock, opTryLock, opTryRLock:
				locked = true
			}
		}
	}
	return unlocked && !locked
}

// signalClass reports whether locks of class are semaphores a callback
// releases: a function of this package handed over as a func value
// (passed, stored, converted, or started by a go statement) unlocks a
// lock of that class without locking one, itself or through functions
// of the package it calls, up to 3 deep. The callback may run on another
// thread (handed to C through a uintptr), so a second Lock waits for it.
// A class is per struct field, so the instance is not checked.
func (pc *passContext) signalClass(class string) bool {
	if class == "" {
		return false
	}
	if pc.signals == nil {
		pc.signals = map[string]bool{}
		for fn := range pc.handedFuncs() {
			for c := range pc.releasedClasses(fn, 0, map[*ssa.Function]bool{}) {
				pc.signals[c] = true
			}
		}
	}
	return pc.signals[class]
}

// handedFuncs returns the functions of the package used as values rather
// than called: arguments, stored or converted functions, go statements'
// functions, and function literals that escape or are started.
func (pc *passContext) handedFuncs() map[*ssa.Function]bool {
	out := map[*ssa.Function]bool{}
	var ops []*ssa.Value
	for _, fn := range pc.pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).SrcFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					if f, ok := mc.Fn.(*ssa.Function); ok && (escapes(mc) || goStarted(mc)) {
						out[f] = true
					}
					continue
				}
				_, isGo := instr.(*ssa.Go)
				call, isCall := instr.(ssa.CallInstruction)
				for _, op := range instr.Operands(ops[:0]) {
					f, ok := (*op).(*ssa.Function)
					if !ok || f.Pkg == nil || f.Pkg.Pkg != pc.pass.Pkg {
						continue
					}
					if isCall && call.Common().Value == f && !isGo {
						continue // called here
					}
					out[f] = true
				}
			}
		}
	}
	return out
}

// releasedClasses returns the classes of the locks fn, or a function of
// the package it calls, unlocks without having locked them, less the
// classes it locks itself.
func (pc *passContext) releasedClasses(fn *ssa.Function, depth int, seen map[*ssa.Function]bool) map[string]bool {
	out := map[string]bool{}
	if seen[fn] || depth > 3 {
		return out
	}
	seen[fn] = true
	w := pc.walkerOf(fn)
	if w == nil {
		return out
	}
	for _, c := range w.locks.ReleasesCaller {
		out[c] = true
	}
	for _, call := range w.locks.Calls {
		if call.Callee != nil && call.Callee.Pkg == fn.Pkg {
			for c := range pc.releasedClasses(call.Callee, depth+1, seen) {
				out[c] = true
			}
		}
	}
	for _, a := range w.locks.Acquires {
		delete(out, a.Class)
	}
	return out
}
