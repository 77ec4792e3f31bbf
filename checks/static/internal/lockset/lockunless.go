package lockset

// Helpers that lock only when their caller says it does not hold the
// lock: func (r *R) setErr(err error, locked bool) starting with
// `if !locked { r.mu.Lock(); defer r.mu.Unlock() }` (smallnest/
// ringbuffer). A call passing false holds the lock inside the helper as
// surely as a caller that holds it and passes true.

import (
	"go/constant"

	"golang.org/x/tools/go/ssa"
)

// lockUnless describes fn when its first statement is `if !p { X.Lock();
// defer X.Unlock() }` (RLock/RUnlock too) on a bool parameter p that fn
// never reassigns: the index of p and the lock X in fn's terms.
type lockUnless struct {
	param int
	held  Held
}

func lockUnlessOf(fn *ssa.Function) (lockUnless, bool) {
	if len(fn.Blocks) == 0 {
		return lockUnless{}, false
	}
	entry := fn.Blocks[0]
	iff, ok := entry.Instrs[len(entry.Instrs)-1].(*ssa.If)
	if !ok {
		return lockUnless{}, false
	}
	param := -1
	for i, p := range fn.Params {
		if iff.Cond == p {
			param = i
		}
	}
	if param < 0 {
		return lockUnless{}, false
	}
	// if !p compiles to If p with the branches swapped: the false
	// successor takes the lock, and only the If leads there.
	b := entry.Succs[1]
	if len(b.Preds) != 1 {
		return lockUnless{}, false
	}
	var lock Path
	var mode Mode
	deferred := false
	for _, instr := range b.Instrs {
		switch x := instr.(type) {
		case *ssa.Call:
			op, v := Classify(x.Common())
			switch op {
			case OpLock, OpRLock:
				if !lock.IsZero() {
					return lockUnless{}, false
				}
				lock, mode = pathOf(v, nil), Exclusive
				if op == OpRLock {
					mode = Shared
				}
			case OpNone:
			default:
				return lockUnless{}, false
			}
		case *ssa.Defer:
			op, v := Classify(x.Common())
			if (op == OpUnlock && mode == Exclusive || op == OpRUnlock && mode == Shared) && !lock.IsZero() && pathOf(v, nil) == lock {
				deferred = true
			}
		}
	}
	if lock.IsZero() || !deferred || paramIndex(fn, lock.Root) < 0 {
		return lockUnless{}, false
	}
	return lockUnless{param: param, held: Held{Lock: lock, Mode: mode}}, true
}

// passesFalse reports whether call passes the constant false as argument i.
func passesFalse(call ssa.CallInstruction, i int) bool {
	args := call.Common().Args
	if i >= len(args) {
		return false
	}
	c, ok := args[i].(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Bool && !constant.BoolVal(c.Value)
}
