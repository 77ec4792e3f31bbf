package lockset

import (
	"go/types"
	"slices"

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

// IsLock reports whether t is a mutex (IsMutex) or a module's own lock
// type (CustomLock), or a pointer to one: a field of such a type can guard
// its struct's other fields.
func IsLock(t types.Type) bool { return IsMutex(t) || CustomLock(t) }

// UsesLocks reports whether pkg imports package sync, or a package that
// declares a custom lock type (CustomLock): a pass about locks has
// nothing to do in a package that does neither.
func UsesLocks(pkg *types.Package) bool {
	for _, imp := range pkg.Imports() {
		if imp.Path() == "sync" {
			return true
		}
	}
	for _, imp := range pkg.Imports() {
		sc := imp.Scope()
		for _, n := range sc.Names() {
			if tn, ok := sc.Lookup(n).(*types.TypeName); ok && !tn.IsAlias() && CustomLock(tn.Type()) {
				return true
			}
		}
	}
	return false
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
// denoting the lock (the receiver): a method of sync.Mutex or
// sync.RWMutex, or of a module's own lock type (CustomLockMethod). Calls through sync.Locker are
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
		if !CustomLockMethod(fn) {
			return OpNone, nil
		}
		if op := CustomOp(fn.Name(), recv); op != OpNone {
			return op, c.Args[0]
		}
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

// CustomLock reports whether t (or *t) is a named type outside package
// sync with methods Lock() and Unlock() that are plain lock operations
// (LockMethods, registered by the locktype analyzer): a module's own lock
// type (gopkg's syncx.RWMutex, a per-P slice of RWMutex shards). Its
// plain Lock, Unlock, RLock, RUnlock, TryLock and TryRLock are the lock's
// own operations.
func CustomLock(t types.Type) bool {
	ms := lockMethods(t)
	return slices.Contains(ms, "Lock") && slices.Contains(ms, "Unlock")
}

// CustomOp returns the operation of method name of the custom lock type
// recv (CustomLock), OpNone unless the method is plain. The read side (RLock, RUnlock, TryRLock) is shared
// only for a type built on a sync.RWMutex; on a type built on a
// sync.Mutex alone it is taken as exclusive.
func CustomOp(name string, recv types.Type) Op {
	if !slices.Contains(lockMethods(recv), name) {
		return OpNone // not plain: not the lock's operation
	}
	rw := customRW(recv)
	switch name {
	case "Lock":
		return OpLock
	case "Unlock":
		return OpUnlock
	case "TryLock":
		return OpTryLock
	case "RLock":
		if rw {
			return OpRLock
		}
		return OpLock
	case "RUnlock":
		if rw {
			return OpRUnlock
		}
		return OpUnlock
	case "TryRLock":
		if rw {
			return OpTryRLock
		}
		return OpTryLock
	}
	return OpNone
}

// customRW reports whether the custom lock type t holds a sync.RWMutex
// (a field, or a field of its slice or array element struct).
func customRW(t types.Type) bool {
	st := customStruct(t)
	if st == nil {
		return false
	}
	for f := range st.Fields() {
		if IsRWMutex(f.Type()) {
			return true
		}
	}
	return false
}

// customStruct returns the struct a named type t (or *t) is, or whose
// slice or array elements are; nil otherwise.
func customStruct(t types.Type) *types.Struct {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	u := t.Underlying()
	switch x := u.(type) {
	case *types.Slice:
		u = x.Elem().Underlying()
	case *types.Array:
		u = x.Elem().Underlying()
	}
	st, _ := u.(*types.Struct)
	return st
}

// CustomLockMethod reports whether fn is a method of a custom lock type
// (CustomLock) that the lock state takes as the lock's own operation:
// not one that locks a mutex field of its receiver here (wrapsParamMutex).
func CustomLockMethod(fn *ssa.Function) bool {
	recv := fn.Signature.Recv()
	return recv != nil && fn.Signature.Params().Len() == 0 && CustomLock(recv.Type()) && !wrapsParamMutex(fn, 3)
}

// wrapsParamMutex reports whether fn, a method of a custom lock type
// analyzed in this package, locks or unlocks a mutex reached by fields
// from its receiver (m.mu.Lock()), directly or through a method it calls
// on the receiver (depth levels): the lock summaries already name that
// mutex (s.l.mu), so the call is not the custom lock's own operation.
// Methods of another package (no body here) and sharded locks
// (m[i].Lock() in a loop) are not.
func wrapsParamMutex(fn *ssa.Function, depth int) bool {
	if len(fn.Blocks) == 0 || len(fn.Params) == 0 || depth == 0 {
		return false
	}
	recv := fn.Params[0]
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok || c.Common().IsInvoke() || len(c.Common().Args) == 0 {
				continue
			}
			callee := c.Common().StaticCallee()
			if callee == nil || callee.Signature.Recv() == nil || PathOf(c.Common().Args[0]).Root != recv {
				continue
			}
			if IsMutex(callee.Signature.Recv().Type()) || wrapsParamMutex(callee, depth-1) {
				return true
			}
		}
	}
	return false
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
