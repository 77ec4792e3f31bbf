package lockset

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Op is the effect of one instruction on the lock state.
type Op uint8

// The lock operations Classify recognizes.
const (
	OpNone     Op = iota
	OpLock        // Mutex.Lock, RWMutex.Lock, Locker.Lock
	OpUnlock      // Mutex.Unlock, RWMutex.Unlock, Locker.Unlock
	OpRLock       // RWMutex.RLock
	OpRUnlock     // RWMutex.RUnlock
	OpTryLock     // Mutex.TryLock, RWMutex.TryLock: held on the true branch
	OpTryRLock    // RWMutex.TryRLock: held (shared) on the true branch
)

// IsNamed reports whether t (or *t) is the named type pkg.name.
func IsNamed(t types.Type, pkg, name string) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	o := n.Obj()
	return o.Pkg() != nil && o.Pkg().Path() == pkg && o.Name() == name
}

// IsMutex reports whether t is sync.Mutex, sync.RWMutex or a pointer to one.
func IsMutex(t types.Type) bool {
	return IsNamed(t, "sync", "Mutex") || IsNamed(t, "sync", "RWMutex")
}

// IsRWMutex reports whether t is sync.RWMutex or *sync.RWMutex.
func IsRWMutex(t types.Type) bool { return IsNamed(t, "sync", "RWMutex") }

// IsSyncType reports whether t (or *t) is declared in package sync or
// sync/atomic: mutexes, WaitGroup, Once, Cond, Map, Pool and the typed
// atomics. Fields of these types synchronize themselves.
func IsSyncType(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	switch n.Obj().Pkg().Path() {
	case "sync", "sync/atomic":
		return true
	}
	return false
}

// Classify returns the lock operation a call performs and the value
// denoting the lock (the receiver). Calls through sync.Locker are
// recognized when the interface value is built from a known *sync.Mutex
// or *sync.RWMutex in the same function; a Locker of unknown dynamic type
// is then tracked by the path of the interface value itself.
func Classify(c *ssa.CallCommon) (Op, ssa.Value) {
	if c.IsInvoke() {
		if !IsNamed(c.Value.Type(), "sync", "Locker") {
			return OpNone, nil
		}
		switch c.Method.Name() {
		case "Lock":
			return OpLock, c.Value
		case "Unlock":
			return OpUnlock, c.Value
		}
		return OpNone, nil
	}
	fn := c.StaticCallee()
	if fn == nil || fn.Signature.Recv() == nil || len(c.Args) == 0 {
		return OpNone, nil
	}
	recv := fn.Signature.Recv().Type()
	if !IsMutex(recv) {
		return OpNone, nil
	}
	var op Op
	switch fn.Name() {
	case "Lock":
		op = OpLock
	case "Unlock":
		op = OpUnlock
	case "RLock":
		op = OpRLock
	case "RUnlock":
		op = OpRUnlock
	case "TryLock":
		op = OpTryLock
	case "TryRLock":
		op = OpTryRLock
	default:
		return OpNone, nil
	}
	return op, c.Args[0]
}

// IsAtomicCall reports whether c calls a function of package sync/atomic
// (atomic.AddInt64, atomic.LoadPointer, ...) or a method of one of its
// typed atomics.
func IsAtomicCall(c *ssa.CallCommon) bool {
	fn := c.StaticCallee()
	if fn == nil {
		return false
	}
	if fn.Pkg != nil && fn.Pkg.Pkg.Path() == "sync/atomic" {
		return true
	}
	if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() != nil && obj.Pkg().Path() == "sync/atomic" {
		return true
	}
	return false
}

// CalleeIs reports whether c statically calls pkg.name (a function) or
// the method name of type pkg.typ when typ is not empty.
func CalleeIs(c *ssa.CallCommon, pkg, typ, name string) bool {
	fn := c.StaticCallee()
	if fn == nil || fn.Name() != name {
		return false
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != pkg {
		return false
	}
	recv := fn.Signature.Recv()
	if typ == "" {
		return recv == nil
	}
	return recv != nil && IsNamed(recv.Type(), pkg, typ)
}
