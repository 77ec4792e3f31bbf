package lockpair

import (
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// Mode is how a lock is held (or was released) on one path.
type Mode uint8

const (
	absent   Mode = iota // no operation on this path yet: the caller's state, unknown
	Write                // held by Lock (or TryLock that succeeded)
	Read                 // held by RLock
	released             // released on this path by this function
)

func (m Mode) String() string {
	switch m {
	case Write:
		return "write"
	case Read:
		return "read"
	case released:
		return "released"
	}
	return "absent"
}

// op is a sync.Mutex or sync.RWMutex method.
type op uint8

const (
	opNone op = iota
	opLock
	opRLock
	opUnlock
	opRUnlock
	opTryLock
	opTryRLock
)

// syncOp reports which mutex method call invokes, and its receiver.
// Calls through sync.Locker or method values are not recognized: the
// receiver's identity is lost there, and precision comes first.
func syncOp(call *ssa.CallCommon) (op, ssa.Value) {
	fn := call.StaticCallee()
	if fn == nil || len(call.Args) == 0 {
		return opNone, nil
	}
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "sync" {
		return opNone, nil
	}
	recv := obj.Signature().Recv()
	if recv == nil {
		return opNone, nil
	}
	named, _ := types.Unalias(deref(recv.Type())).(*types.Named)
	if named == nil || (named.Obj().Name() != "Mutex" && named.Obj().Name() != "RWMutex") {
		return opNone, nil
	}
	var o op
	switch obj.Name() {
	case "Lock":
		o = opLock
	case "RLock":
		o = opRLock
	case "Unlock":
		o = opUnlock
	case "RUnlock":
		o = opRUnlock
	case "TryLock":
		o = opTryLock
	case "TryRLock":
		o = opTryRLock
	default:
		return opNone, nil
	}
	return o, call.Args[0]
}

// lockOp is syncOp, and also a method of a module's own lock type
// (lockset.CustomLockMethod: syncx.RWMutex, whose Lock locks every shard)
// when no summary names what it locks: a same-package method that locks
// a mutex field of its receiver, or a dependency's with a lock fact
// (crossdep's Store.Lock acquires s.mu), is followed through its summary.
func (pc *passContext) lockOp(call *ssa.CallCommon) (op, ssa.Value) {
	if o, v := syncOp(call); o != opNone {
		return o, v
	}
	fn := call.StaticCallee()
	if fn == nil || len(call.Args) == 0 || !lockset.CustomLockMethod(fn) {
		return opNone, nil
	}
	if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() != pc.pass.Pkg {
		var f lockFact
		if pc.pass.ImportObjectFact(obj, &f) {
			return opNone, nil
		}
	}
	if o := customOps[lockset.CustomOp(fn.Name(), fn.Signature.Recv().Type())]; o != opNone {
		return o, call.Args[0]
	}
	return opNone, nil
}

// customOps is lockset's operation as lockpair's.
var customOps = map[lockset.Op]op{
	lockset.OpLock: opLock, lockset.OpRLock: opRLock,
	lockset.OpUnlock: opUnlock, lockset.OpRUnlock: opRUnlock,
	lockset.OpTryLock: opTryLock, lockset.OpTryRLock: opTryRLock,
}

func deref(t types.Type) types.Type {
	if p, ok := types.Unalias(t).Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// lockRef is the canonical identity of a mutex operand within one
// function: a root value (parameter, free variable, global or local) and
// the field path from it.
type lockRef struct {
	key   string    // canonical: root identity + steps
	root  ssa.Value // nil for globals, which are never redefined
	name  string    // as the user would write it: s.mu
	class string    // abstract lock class for lock ordering; "" if none
	abs   *AbsLock  // root-relative form for summaries; nil for locals

	indexes []ssa.Value // index values in the path (s.slots[i].mu): redefining one kills the key
	elems   []ssa.Value // the element addresses in the path (&s.slots[i])
}

// AbsLock is a lock named relative to a function's parameters, free
// variables or a package variable, so a summary can be applied at a call.
type AbsLock struct {
	Root  string // "p0" (parameter 0, receiver first), "f1" (free variable 1), "g:path.name"
	Steps string // field path from the root: ".mu", ".inner.*.mu"
	Name  string // display name in the callee's terms: s.mu
	Class string // lock class, "" if none
	Mode  Mode   // for acquisitions and holds: Write or Read
	Pos   string // file:line of the operation in the callee
}

func (a AbsLock) String() string { return a.Name }

// refOf computes the lockRef of a mutex pointer value.
//
// The lock class is the type of the object that contains the mutex plus
// the field path inside it: s.db.mu, with db a *DB field, is DB.mu; c.in.Mutex,
// with in a halfConn stored by value in Conn, is Conn.in.Mutex, so the in and
// out halves of one Conn stay two classes.
func (w *walker) refOf(v ssa.Value) (lockRef, bool) {
	var steps, names []string
	var chain []string     // fields of the innermost object, outermost first
	var objType types.Type // that object's type
	objDone := false       // a pointer load ended the object
	var indexes, elems []ssa.Value
	for {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			st, ok := deref(x.X.Type()).Underlying().(*types.Struct)
			if !ok {
				return lockRef{}, false
			}
			f := st.Field(x.Field)
			steps = append([]string{"." + f.Name()}, steps...)
			names = append([]string{f.Name()}, names...)
			if !objDone {
				chain = append([]string{f.Name()}, chain...)
				objType = deref(x.X.Type())
			}
			v = x.X
			continue
		case *ssa.Field:
			st, ok := x.X.Type().Underlying().(*types.Struct)
			if !ok {
				return lockRef{}, false
			}
			f := st.Field(x.Field)
			steps = append([]string{"." + f.Name()}, steps...)
			names = append([]string{f.Name()}, names...)
			if !objDone {
				chain = append([]string{f.Name()}, chain...)
				objType = x.X.Type()
			}
			v = x.X
			continue
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return lockRef{}, false
			}
			steps = append([]string{"*"}, steps...)
			if len(chain) > 0 {
				objDone = true
			}
			v = x.X
			continue
		case *ssa.ChangeType:
			v = x.X
			continue
		case *ssa.IndexAddr:
			// s.slots[i].mu: one key for every IndexAddr of the same
			// base and index value, killed when the index is redefined.
			idx := ""
			if c, ok := x.Index.(*ssa.Const); ok && c.Value != nil {
				idx = c.Value.ExactString()
			} else {
				idx = fmt.Sprintf("v%d", w.rootID(x.Index))
				indexes = append(indexes, x.Index)
			}
			elems = append(elems, x)
			steps = append([]string{"[" + idx + "]"}, steps...)
			names = append([]string{"[]"}, names...)
			if len(chain) > 0 {
				objDone = true // the element is the object
			}
			v = x.X
			continue
		}
		break
	}
	class := ""
	if len(chain) > 0 {
		if named, ok := types.Unalias(objType).(*types.Named); ok && named.Obj().Pkg() != nil {
			named = named.Origin()
			class = named.Obj().Pkg().Path() + "." + named.Obj().Name() + "." + strings.Join(chain, ".")
		}
	}
	r := lockRef{}
	path := strings.Join(steps, "")
	var rootName string
	switch x := v.(type) {
	case *ssa.Global:
		id := "g:" + x.Pkg.Pkg.Path() + "." + x.Name()
		r.key = id + path
		rootName = x.Name()
		if x.Pkg.Pkg != w.pass.Pkg {
			rootName = x.Pkg.Pkg.Name() + "." + x.Name()
		}
		r.abs = &AbsLock{Root: id, Steps: path}
		if !objDone {
			// The package variable is the object.
			class = x.Pkg.Pkg.Path() + "." + x.Name()
			if len(chain) > 0 {
				class += "." + strings.Join(chain, ".")
			}
		}
	case *ssa.Const:
		return lockRef{}, false
	default:
		r.root = v
		r.key = fmt.Sprintf("v%d%s", w.rootID(v), path)
		rootName = w.rootName(v)
		switch x := v.(type) {
		case *ssa.Parameter:
			for i, p := range w.fn.Params {
				if p == x {
					r.abs = &AbsLock{Root: fmt.Sprintf("p%d", i), Steps: path}
				}
			}
		case *ssa.FreeVar:
			for i, p := range w.fn.FreeVars {
				if p == x {
					r.abs = &AbsLock{Root: fmt.Sprintf("f%d", i), Steps: path}
				}
			}
		case *ssa.Alloc:
			// A parameter a closure captures lives in a heap cell:
			// p.mu is *cell.mu, still the caller's p.mu.
			if p := paramSpill(x); p != nil && strings.HasPrefix(path, "*") {
				for i, q := range w.fn.Params {
					if q == p {
						r.abs = &AbsLock{Root: fmt.Sprintf("p%d", i), Steps: path[1:]}
					}
				}
			}
		}
	}
	switch {
	case len(elems) > 0 && w.curExpr != "":
		r.name = w.curExpr // subs[i].mu, or s.mu for s := subs[i]
	case rootName != "":
		r.name = strings.Join(append([]string{rootName}, names...), ".")
	case w.curExpr != "":
		r.name = w.curExpr
	default:
		r.name = strings.Join(append([]string{"lock"}, names...), ".")
	}
	r.class = class
	r.indexes, r.elems = indexes, elems
	if len(indexes) > 0 {
		r.abs = nil // not expressible from the caller's side
	}
	if r.abs != nil {
		r.abs.Name = r.name
		r.abs.Class = class
	}
	return r, true
}

// paramSpill returns the parameter al is the heap cell of, when closures
// capture it: al's one store is that parameter, and no closure stores
// to it. Nil otherwise.
func paramSpill(al *ssa.Alloc) *ssa.Parameter {
	var p *ssa.Parameter
	for _, ref := range *al.Referrers() {
		switch x := ref.(type) {
		case *ssa.Store:
			q, ok := x.Val.(*ssa.Parameter)
			if x.Addr != al || !ok || p != nil {
				return nil
			}
			p = q
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil
			}
		case *ssa.MakeClosure:
			fn := x.Fn.(*ssa.Function)
			for i, b := range x.Bindings {
				if b != al || i >= len(fn.FreeVars) {
					continue
				}
				for _, fr := range *fn.FreeVars[i].Referrers() {
					if u, ok := fr.(*ssa.UnOp); !ok || u.Op != token.MUL {
						return nil // stored to, or passed on
					}
				}
			}
		default:
			return nil
		}
	}
	return p
}

func (w *walker) rootID(v ssa.Value) int {
	if id, ok := w.roots[v]; ok {
		return id
	}
	id := len(w.roots)
	w.roots[v] = id
	return id
}

func (w *walker) rootName(v ssa.Value) string {
	switch x := v.(type) {
	case *ssa.Parameter:
		return x.Name()
	case *ssa.FreeVar:
		return x.Name()
	case *ssa.Alloc:
		if x.Comment != "" {
			return x.Comment
		}
	}
	return ""
}

// held is the state of one lock on one path.
type held struct {
	mode   Mode
	helper bool            // acquired through a lock helper's summary
	reads  uint8           // RLock depth, capped at maxReads
	site   token.Pos       // where it was acquired, or released
	blk    *ssa.BasicBlock // block of the Lock (loop leaks); not part of encode
}

// maxReads caps the recursive read depth tracked, so loops that RLock
// without RUnlock still reach a fixed point.
const maxReads = 2

type deferred struct {
	mode Mode // Write for a deferred Unlock, Read for RUnlock
	pos  token.Pos
	once bool // a helper object's release, skipped once it ran (defer unlock.Run())
}

type trying struct {
	key  string
	mode Mode
	pos  token.Pos
}

// state is the lock state of one path through a function.
type state struct {
	locks  map[string]held
	defers map[string]deferred
	try    map[ssa.Value]trying // TryLock results not branched on yet
	cond   map[ssa.Value]bool   // boolean values decided on this path
	acq    map[string]Mode      // locks acquired from the caller's state (summaries)
	rel    map[string]Mode      // locks released from the caller's state (summaries)

	// Where the path is, for loop-leak messages; not part of encode, so
	// paths that differ only here are merged (one report per leak).
	last      token.Pos          // last instruction with a position
	cont      token.Pos          // last before the latest jump to a loop's next iteration
	contBlock *ssa.BasicBlock    // the block that jumped there
	broke     map[string]brokeAt // locks held when a break left their loop
}

// brokeAt is the break that left a loop with a lock held.
type brokeAt struct {
	pos token.Pos
	blk *ssa.BasicBlock
}

func newState() *state {
	return &state{
		locks:  map[string]held{},
		defers: map[string]deferred{},
		try:    map[ssa.Value]trying{},
		cond:   map[ssa.Value]bool{},
		acq:    map[string]Mode{},
		rel:    map[string]Mode{},
		broke:  map[string]brokeAt{},
	}
}

func (s *state) clone() *state {
	c := newState()
	maps.Copy(c.locks, s.locks)
	maps.Copy(c.defers, s.defers)
	maps.Copy(c.try, s.try)
	maps.Copy(c.cond, s.cond)
	maps.Copy(c.acq, s.acq)
	maps.Copy(c.rel, s.rel)
	maps.Copy(c.broke, s.broke)
	c.last, c.cont, c.contBlock = s.last, s.cont, s.contBlock
	return c
}

// encode returns a canonical string for deduplicating states at a block.
func (s *state) encode(w *walker) string {
	var parts []string
	for k, v := range s.locks {
		parts = append(parts, fmt.Sprintf("L%s=%d/%d/%d", k, v.mode, v.reads, v.site))
	}
	for k, v := range s.defers {
		parts = append(parts, fmt.Sprintf("D%s=%d/%d", k, v.mode, v.pos))
	}
	for k, v := range s.try {
		parts = append(parts, fmt.Sprintf("T%d=%s/%d", w.rootID(k), v.key, v.mode))
	}
	for k, v := range s.cond {
		parts = append(parts, fmt.Sprintf("C%d=%t", w.rootID(k), v))
	}
	for k, v := range s.acq {
		parts = append(parts, fmt.Sprintf("A%s=%d", k, v))
	}
	for k, v := range s.rel {
		parts = append(parts, fmt.Sprintf("R%s=%d", k, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ";")
}

// kill forgets everything known about value v, which is being (re)defined:
// a loop iteration's a.mu is not the previous iteration's.
func (s *state) kill(w *walker, v ssa.Value) {
	delete(s.try, v)
	delete(s.cond, v)
	for _, k := range w.keysByRoot[v] {
		if h, ok := s.locks[k]; ok {
			_, deferred := s.defers[k]
			w.rebound(s, k, h, deferred)
		}
		delete(s.broke, k)
		delete(s.locks, k)
		delete(s.defers, k)
		delete(s.acq, k)
		delete(s.rel, k)
	}
}
