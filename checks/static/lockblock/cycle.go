package lockblock

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// opKind is what a channel or WaitGroup operation does.
type opKind uint8

const (
	opSend opKind = iota
	opRecv
	opClose
	opDone // WaitGroup.Done, or Add with an argument that is not a positive constant
	opWait // WaitGroup.Wait
)

func (k opKind) String() string {
	switch k {
	case opSend:
		return "send"
	case opRecv:
		return "receive"
	case opClose:
		return "close"
	case opDone:
		return "Done"
	}
	return "Wait"
}

// syncKey names a channel or WaitGroup by the variable holding it: a
// struct field (all instances) or a package-level variable.
type syncKey struct {
	field  *types.Var
	global *ssa.Global
}

// syncOp is one operation on a keyed channel or WaitGroup.
type syncOp struct {
	r     *lockset.Result
	instr ssa.Instruction
	kind  opKind
	key   syncKey
	path  lockset.Path // of the channel, or of the WaitGroup
	// deferred: a deferred Done, which runs when the function returns.
	deferred bool
	// sel is the select this operation is a case of (nil if none).
	sel *ssa.Select
}

// cycles finds the lock–channel and lock–WaitGroup cycles of the
// package: a blocking operation made while holding lock L, on a channel
// or WaitGroup that is private to the package, whose every partner
// operation (the receive for a send, the send or close for a receive, the
// Done for a Wait) either holds L or runs after taking L in its function.
// It reports them and returns their positions.
type cycleFinder struct {
	pc      *passContext
	escaped map[syncKey]bool
	checked map[*ssa.Global]bool
	ops     map[syncKey][]*syncOp
	byInstr map[ssa.Instruction][]*syncOp
	// locks maps a function to the Lock/RLock calls it makes (inlined
	// literals included), by the Result that analyzed it.
	locks map[*ssa.Function][]lockCall
	// calls maps a function to its static calls into the package, whose
	// callees may take a lock on the caller's objects.
	calls map[*ssa.Function][]pkgCall
	acq   *lockset.Acquirer
	adds  map[addKey]bool
}

type pkgCall struct {
	instr ssa.CallInstruction
	r     *lockset.Result
}

type lockCall struct {
	instr ssa.Instruction
	path  lockset.Path
	mode  lockset.Mode
}

func (pc *passContext) findCycles(results []*lockset.Result) map[token.Pos]bool {
	cf := &cycleFinder{pc: pc, escaped: map[syncKey]bool{}, checked: map[*ssa.Global]bool{}, ops: map[syncKey][]*syncOp{},
		byInstr: map[ssa.Instruction][]*syncOp{}, locks: map[*ssa.Function][]lockCall{}, calls: map[*ssa.Function][]pkgCall{},
		acq: lockset.NewAcquirer(pc.pass.Pkg, pc.isTest), adds: map[addKey]bool{}}
	var prod []*lockset.Result
	for _, r := range results {
		if pc.isTest(r.Fn) {
			continue
		}
		prod = append(prod, r)
		for _, fn := range r.Functions() {
			cf.scan(r, fn)
		}
	}
	reported := map[token.Pos]bool{}
	for _, r := range prod {
		for _, fn := range r.Functions() {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					if pos, ok := cf.check(r, instr); ok {
						reported[pos] = true
					}
				}
			}
		}
	}
	return reported
}

func (pc *passContext) isTest(fn *ssa.Function) bool {
	return strings.HasSuffix(pc.pass.Fset.Position(fn.Pos()).Filename, "_test.go")
}

// keyOf returns the variable a channel value was loaded from, or the
// variable a *sync.WaitGroup points to.
func keyOf(v ssa.Value) (syncKey, bool) {
	if ct, ok := v.(*ssa.ChangeType); ok {
		v = ct.X
	}
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		v = u.X // a load: key by the address
	}
	switch x := v.(type) {
	case *ssa.FieldAddr, *ssa.Field:
		if f := lockset.FieldOf(x); f != nil {
			return syncKey{field: f.Origin()}, true
		}
	case *ssa.Global:
		return syncKey{global: x}, true
	}
	return syncKey{}, false
}

// scan records the operations of fn on keyed channels and WaitGroups,
// its lock calls, and marks the keys whose value escapes.
func (cf *cycleFinder) scan(r *lockset.Result, fn *ssa.Function) {
	add := func(instr ssa.Instruction, kind opKind, v ssa.Value, deferred bool, sel *ssa.Select) {
		k, ok := keyOf(v)
		if !ok {
			return
		}
		op := &syncOp{r: r, instr: instr, kind: kind, key: k, path: r.Path(v), deferred: deferred, sel: sel}
		cf.ops[k] = append(cf.ops[k], op)
		cf.byInstr[instr] = append(cf.byInstr[instr], op)
	}
	var ops []*ssa.Value // operand buffer, reused
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch i := instr.(type) {
			case *ssa.Send:
				add(i, opSend, i.Chan, false, nil)
			case *ssa.UnOp:
				if i.Op == token.ARROW {
					add(i, opRecv, i.X, false, nil)
				}
			case *ssa.Select:
				for _, s := range i.States {
					if s.Dir == types.SendOnly {
						add(i, opSend, s.Chan, false, i)
					} else {
						add(i, opRecv, s.Chan, false, i)
					}
				}
			case ssa.CallInstruction:
				c := i.Common()
				if op, v := lockset.Classify(c); op == lockset.OpLock || op == lockset.OpRLock {
					mode := lockset.Exclusive
					if op == lockset.OpRLock {
						mode = lockset.Shared
					}
					cf.locks[fn] = append(cf.locks[fn], lockCall{instr: i, path: r.Path(v), mode: mode})
				} else if callee := c.StaticCallee(); callee != nil && callee.Pkg != nil && callee.Pkg.Pkg == cf.pc.pass.Pkg {
					cf.calls[fn] = append(cf.calls[fn], pkgCall{i, r})
				}
				_, deferred := i.(*ssa.Defer)
				if b, ok := c.Value.(*ssa.Builtin); ok && b.Name() == "close" && len(c.Args) == 1 {
					add(i, opClose, c.Args[0], deferred, nil)
				}
				switch {
				case lockset.CalleeIs(c, "sync", "WaitGroup", "Done"):
					add(i, opDone, c.Args[0], deferred, nil)
				case lockset.CalleeIs(c, "sync", "WaitGroup", "Add") && !positiveConst(c.Args[1]):
					add(i, opDone, c.Args[0], deferred, nil)
				case lockset.CalleeIs(c, "sync", "WaitGroup", "Wait") && !deferred:
					add(i, opWait, c.Args[0], false, nil)
				}
			case *ssa.FieldAddr:
				if f := lockset.FieldOf(i); f != nil {
					cf.escapes(syncKey{field: f.Origin()}, f, i)
				}
			case *ssa.Field:
				if f := lockset.FieldOf(i); f != nil {
					cf.escapes(syncKey{field: f.Origin()}, f, i)
				}
			}
			ops = instr.Operands(ops[:0])
			for _, op := range ops {
				if g, ok := (*op).(*ssa.Global); ok && g.Pkg == fn.Pkg && !cf.checked[g] {
					cf.checked[g] = true
					cf.escapes(syncKey{global: g}, g.Object().(*types.Var), g)
				}
			}
		}
	}
}

func positiveConst(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	if !ok || k.Value == nil {
		return false
	}
	return constant.Sign(k.Value) > 0
}

// escapes marks key as escaped when the channel or WaitGroup in v (an
// address or a value of variable obj) is used other than by a direct
// operation: passed to a call, returned, stored elsewhere, captured.
// Partners reached through such a copy would be invisible.
func (cf *cycleFinder) escapes(key syncKey, obj *types.Var, v ssa.Value) {
	if cf.escaped[key] {
		return
	}
	t := obj.Type()
	isChan := false
	if _, ok := t.Underlying().(*types.Chan); ok {
		isChan = true
	}
	isWG := lockset.IsNamed(t, "sync", "WaitGroup")
	if !isChan && !isWG {
		return
	}
	if isWG && isPointer(t) {
		cf.escaped[key] = true // shared with whoever made it
		return
	}
	if obj.Exported() || obj.Pkg() != cf.pc.pass.Pkg {
		cf.escaped[key] = true // other packages reach it
		return
	}
	_, isAddr := v.Type().Underlying().(*types.Pointer)
	if _, global := v.(*ssa.Global); global {
		isAddr = true
	}
	ok := true
	switch {
	case isWG && isAddr:
		ok = wgUsesOK(v)
	case isChan && isAddr:
		ok = chanAddrUsesOK(v)
	case isChan:
		ok = chanValueUsesOK(v, 0)
	default:
		ok = false // a WaitGroup copied by value
	}
	if !ok {
		cf.escaped[key] = true
	}
}

func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// wgUsesOK reports whether the WaitGroup address a is only used as the
// receiver of Add, Done and Wait.
func wgUsesOK(a ssa.Value) bool {
	for _, u := range refs(a) {
		call, ok := u.(ssa.CallInstruction)
		if !ok {
			return false
		}
		c := call.Common()
		if len(c.Args) == 0 || c.Args[0] != a {
			return false
		}
		if !lockset.CalleeIs(c, "sync", "WaitGroup", "Add") && !lockset.CalleeIs(c, "sync", "WaitGroup", "Done") && !lockset.CalleeIs(c, "sync", "WaitGroup", "Wait") {
			return false
		}
		for _, arg := range c.Args[1:] {
			if arg == a {
				return false
			}
		}
	}
	return true
}

// chanAddrUsesOK reports whether the address of a channel variable is
// only loaded, or stored a channel made on the spot and not used
// otherwise (or nil).
func chanAddrUsesOK(a ssa.Value) bool {
	for _, u := range refs(a) {
		switch x := u.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL || !chanValueUsesOK(x, 0) {
				return false
			}
		case *ssa.Store:
			if x.Addr != a || !freshChan(x.Val, x) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// freshChan reports whether v, stored by st, is nil or a channel made for
// the store alone.
func freshChan(v ssa.Value, st *ssa.Store) bool {
	if k, ok := v.(*ssa.Const); ok && k.IsNil() {
		return true
	}
	if ct, ok := v.(*ssa.ChangeType); ok {
		if len(refs(ct)) != 1 {
			return false
		}
		v = ct.X
	}
	mc, ok := v.(*ssa.MakeChan)
	if !ok {
		return false
	}
	for _, u := range refs(mc) {
		if u != st {
			if ct, ok := u.(*ssa.ChangeType); !ok || len(refs(ct)) != 1 {
				return false
			}
		}
	}
	return true
}

// chanValueUsesOK reports whether a channel value loaded from a variable
// is only operated on directly: send, receive, select, close, len, cap,
// comparison.
func chanValueUsesOK(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	for _, u := range refs(v) {
		switch x := u.(type) {
		case *ssa.Send:
			if x.Chan != v {
				return false
			}
		case *ssa.UnOp:
			if x.Op != token.ARROW {
				return false
			}
		case *ssa.Select:
			for _, s := range x.States {
				if s.Send == v {
					return false
				}
			}
		case *ssa.BinOp:
		case *ssa.DebugRef:
		case *ssa.ChangeType:
			if !chanValueUsesOK(x, depth+1) {
				return false
			}
		case ssa.CallInstruction:
			b, ok := x.Common().Value.(*ssa.Builtin)
			if !ok {
				return false
			}
			switch b.Name() {
			case "close", "len", "cap":
			default:
				return false
			}
		default:
			return false
		}
	}
	return true
}

func refs(v ssa.Value) []ssa.Instruction {
	if r := v.Referrers(); r != nil {
		return *r
	}
	return nil
}

// partnerKinds are the operations that unblock one of kind k.
func partnerKinds(k opKind) []opKind {
	switch k {
	case opSend:
		return []opKind{opRecv}
	case opRecv:
		return []opKind{opSend, opClose}
	case opWait:
		return []opKind{opDone}
	}
	return nil
}

// stuckWait is one blocking operation of a cycle and the partners that
// need the lock.
type stuckWait struct {
	op       *syncOp
	partners []partnerAt
}

type partnerAt struct {
	op  *syncOp
	at  token.Pos // where the partner holds or takes the lock
	how string
}

// check reports instr when it is a blocking operation in a cycle.
func (cf *cycleFinder) check(r *lockset.Result, instr ssa.Instruction) (token.Pos, bool) {
	st, ok := r.Before(instr)
	if !ok || st.Len() == 0 {
		return token.NoPos, false
	}
	var waits []*syncOp
	switch i := instr.(type) {
	case *ssa.Send:
		if !cf.pc.unbuffered(i.Chan) {
			return token.NoPos, false
		}
	case *ssa.UnOp:
		if i.Op != token.ARROW {
			return token.NoPos, false
		}
	case *ssa.Select:
		if !i.Blocking {
			return token.NoPos, false
		}
		for _, s := range i.States {
			if s.Dir == types.SendOnly && !cf.pc.unbuffered(s.Chan) {
				return token.NoPos, false
			}
		}
	case *ssa.Call:
		if !lockset.CalleeIs(&i.Call, "sync", "WaitGroup", "Wait") {
			return token.NoPos, false
		}
	default:
		return token.NoPos, false
	}
	for _, op := range cf.byInstr[instr] {
		if op.kind != opClose && op.kind != opDone {
			waits = append(waits, op)
		}
	}
	if len(waits) == 0 {
		return token.NoPos, false
	}
	if sel, ok := instr.(*ssa.Select); ok && len(waits) != len(sel.States) {
		return token.NoPos, false // a case on a channel of unknown origin
	}
	for _, h := range st.Locks() {
		if recv, ok := instr.(*ssa.UnOp); ok && (cf.guardedNonEmpty(r, recv, h) || closedBefore(r, recv, h)) {
			continue
		}
		var stuck []stuckWait
		for _, w := range waits {
			ps, ok := cf.partnersNeed(w, h)
			if !ok {
				stuck = nil
				break
			}
			stuck = append(stuck, stuckWait{w, ps})
		}
		if len(stuck) == 0 {
			continue
		}
		cf.report(instr, h, stuck)
		return cf.pc.opPos(instr), true
	}
	return token.NoPos, false
}

// guardedNonEmpty reports whether the receive recv runs only where a test
// that its channel's buffer is not empty (len(ch) == cap(ch), len(ch) > 0,
// len(ch) != 0) came out true, the test made in the same critical
// section of h: every sender needs h, so the buffer cannot have been
// emptied by them in between, and the receive does not block (a bounded
// FIFO kept under a lock, evicting its oldest entry when full).
func (cf *cycleFinder) guardedNonEmpty(r *lockset.Result, recv *ssa.UnOp, h lockset.Held) bool {
	key, ok := keyOf(recv.X)
	if !ok || recv.Op != token.ARROW {
		return false
	}
	b := recv.Block()
	for d := b.Idom(); d != nil; d = d.Idom() {
		if len(d.Instrs) == 0 || len(d.Succs) != 2 || d.Succs[0] == d.Succs[1] {
			continue
		}
		ifi, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok || !d.Succs[0].Dominates(b) || !nonEmptyTest(ifi.Cond, key, !cf.pc.unbuffered(recv.X)) {
			continue
		}
		st, ok := r.Before(ifi)
		if !ok {
			continue
		}
		for _, o := range st.Locks() {
			if o.Lock == h.Lock && o.Pos == h.Pos {
				return true
			}
		}
	}
	return false
}

// closedBefore reports whether the receive recv runs only after a close
// of its channel made in the same critical section of h: close(old); for
// b := range old, or close(p.ch); for range p.ch with nothing between the
// close and the load of p.ch that could store another channel there. A
// closed channel stays closed, so the receive drains its buffer and never
// waits for a sender.
func closedBefore(r *lockset.Result, recv *ssa.UnOp, h lockset.Held) bool {
	if recv.Op != token.ARROW {
		return false
	}
	ch := unChangeType(recv.X)
	for _, b := range recv.Parent().Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || len(call.Call.Args) != 1 || !dominates(call, recv) {
				continue
			}
			if bi, ok := call.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "close" {
				continue
			}
			st, ok := r.Before(call)
			if !ok {
				continue
			}
			if o, ok := st.Holds(h.Lock); !ok || o.Pos != h.Pos {
				continue // another critical section
			}
			closed := unChangeType(call.Call.Args[0])
			if closed == ch || sameKey(closed, ch) && r.Path(closed) == r.Path(ch) && reloadedUnchanged(call, ch) {
				return true
			}
		}
	}
	return false
}

func sameKey(a, b ssa.Value) bool {
	ka, ok := keyOf(a)
	kb, ok2 := keyOf(b)
	return ok && ok2 && ka == kb
}

// reloadedUnchanged reports whether ch is a load that follows the close in
// its block with no store and no call (but a builtin) in between.
func reloadedUnchanged(close ssa.Instruction, ch ssa.Value) bool {
	load, ok := ch.(*ssa.UnOp)
	if !ok || load.Op != token.MUL || load.Block() != close.Block() {
		return false
	}
	after := false
	for _, instr := range close.Block().Instrs {
		switch {
		case instr == close:
			after = true
		case instr == load:
			return after
		case !after:
		default:
			switch i := instr.(type) {
			case *ssa.Store, *ssa.MapUpdate, *ssa.Go, *ssa.Defer:
				return false
			case ssa.CallInstruction:
				if _, ok := i.Common().Value.(*ssa.Builtin); !ok {
					return false
				}
			}
		}
	}
	return false
}

// dominates reports whether a runs before b on every path to b in their
// function.
func dominates(a, b ssa.Instruction) bool {
	if a.Block() != b.Block() {
		return a.Block().Dominates(b.Block())
	}
	for _, instr := range a.Block().Instrs {
		if instr == a {
			return true
		}
		if instr == b {
			return false
		}
	}
	return false
}

func unChangeType(v ssa.Value) ssa.Value {
	if ct, ok := v.(*ssa.ChangeType); ok {
		return ct.X
	}
	return v
}

// nonEmptyTest reports whether cond is true only when the channel of key
// holds an element: len(ch) > 0, len(ch) != 0, len(ch) >= n, 0 < len(ch),
// and len(ch) == cap(ch) when the channel may be buffered (an unbuffered
// one is always "full").
func nonEmptyTest(cond ssa.Value, key syncKey, mayBuffer bool) bool {
	bin, ok := cond.(*ssa.BinOp)
	if !ok {
		return false
	}
	builtin := func(v ssa.Value, name string) bool {
		c, ok := v.(*ssa.Call)
		if !ok || len(c.Call.Args) != 1 {
			return false
		}
		bi, ok := c.Call.Value.(*ssa.Builtin)
		if !ok || bi.Name() != name {
			return false
		}
		k, ok := keyOf(c.Call.Args[0])
		return ok && k == key
	}
	positive := func(v ssa.Value) bool {
		c, ok := v.(*ssa.Const)
		return ok && c.Value != nil && c.Value.Kind() == constant.Int && constant.Sign(c.Value) > 0
	}
	zero := func(v ssa.Value) bool {
		c, ok := v.(*ssa.Const)
		return ok && c.Value != nil && c.Value.Kind() == constant.Int && constant.Sign(c.Value) == 0
	}
	x, y := bin.X, bin.Y
	switch bin.Op {
	case token.EQL:
		return mayBuffer && (builtin(x, "len") && builtin(y, "cap") || builtin(x, "cap") && builtin(y, "len"))
	case token.GTR, token.NEQ:
		return builtin(x, "len") && zero(y) || bin.Op == token.NEQ && zero(x) && builtin(y, "len")
	case token.GEQ:
		return builtin(x, "len") && positive(y)
	case token.LSS:
		return zero(x) && builtin(y, "len")
	}
	return false
}

// partnersNeed returns the partners of w when there is at least one and
// every one of them needs the lock h held at w (the same instance: the
// lock's path relative to the channel's is the same at both).
func (cf *cycleFinder) partnersNeed(w *syncOp, h lockset.Held) ([]partnerAt, bool) {
	if cf.escaped[w.key] {
		return nil, false
	}
	// The lock as seen from the channel: a package-level lock, or a path
	// with the channel's root.
	global, isGlobal := h.Lock.Root.(*ssa.Global)
	if !isGlobal && h.Lock.Root != w.path.Root {
		return nil, false
	}
	var out []partnerAt
	for _, kind := range partnerKinds(w.kind) {
		for _, p := range cf.ops[w.key] {
			if p.kind != kind || sameSectionDone(w, p, h) {
				continue
			}
			var want lockset.Path
			if isGlobal {
				want = lockset.Path{Root: global, Fields: h.Lock.Fields}
			} else {
				if !strings.HasSuffix(p.path.Fields, w.path.Fields) {
					return nil, false
				}
				prefix := strings.TrimSuffix(p.path.Fields, w.path.Fields)
				want = lockset.Path{Root: p.path.Root, Fields: prefix + h.Lock.Fields}
			}
			at, how, ok := cf.needs(w, p, want, h)
			if !ok {
				return nil, false
			}
			out = append(out, partnerAt{p, at, how})
		}
	}
	return out, len(out) > 0
}

// sameSectionDone reports whether p is a Done that the waiter w itself
// runs before its Wait, in the critical section of h that the Wait is
// in (if setClosing() { …; wg.Done() }; wg.Wait()): it is no partner
// waiting for h, it already ran.
func sameSectionDone(w, p *syncOp, h lockset.Held) bool {
	if w.kind != opWait || p.kind != opDone || p.deferred || p.instr.Parent() != w.instr.Parent() || p.path != w.path || !reaches(p.instr, w.instr) {
		return false
	}
	st, ok := p.r.Before(p.instr)
	if !ok {
		return false
	}
	o, ok := st.Holds(h.Lock)
	return ok && o.Pos == h.Pos && o.Mode == h.Mode
}

// needs reports whether partner p holds lock want, or takes it before
// it can run, in a mode that excludes a holder in mode m.
func (cf *cycleFinder) needs(w, p *syncOp, want lockset.Path, held lockset.Held) (token.Pos, string, bool) {
	m := held.Mode
	conflicts := func(m2 lockset.Mode) bool { return m == lockset.Exclusive || m2 == lockset.Exclusive }
	if st, ok := p.r.Before(p.instr); ok {
		if h, ok := st.Holds(want); ok && conflicts(h.Mode) {
			at := h.Pos
			if !at.IsValid() {
				at = cf.pc.opPos(p.instr)
			}
			return at, "holds", true
		}
	}
	fn := p.instr.Parent()
	if p.kind == opDone && cf.addsTo(fn, p.key, 0) {
		// The goroutine counts itself in (Add) there: a lock it takes
		// around that Add (to order it with Wait) is not a lock the
		// waiter's Done needs, as the waiter does not count it yet.
		return token.NoPos, "", false
	}
	for _, lc := range cf.locks[fn] {
		if lc.path != want || !conflicts(lc.mode) {
			continue
		}
		if p.deferred || reaches(lc.instr, p.instr) {
			if !p.deferred && cf.announced(w, p, lc, want, held.Lock) {
				continue // past this Lock before w can run
			}
			return cf.pc.callPosOf(lc.instr), "takes", true
		}
	}
	// A call that takes the lock (s.handle(v) locking s.mu) before the
	// partner can run.
	for _, pcall := range cf.calls[fn] {
		if !p.deferred && !reaches(pcall.instr, p.instr) {
			continue
		}
		if callee := pcall.instr.Common().StaticCallee(); p.kind == opDone && callee != nil && cf.addsTo(callee, p.key, 0) {
			continue // the call that counts this goroutine in
		}
		for _, a := range cf.acq.CallAcquires(pcall.instr.Common(), pcall.r.Path) {
			if a.Lock == want && conflicts(a.Mode) {
				return cf.pc.callPosOf(pcall.instr), "takes", true
			}
		}
	}
	return token.NoPos, "", false
}

// reaches reports whether control can flow from a to b (a != b) in
// their function.
func reaches(a, b ssa.Instruction) bool {
	ab, bb := a.Block(), b.Block()
	if ab == bb {
		for _, instr := range ab.Instrs {
			if instr == a {
				break
			}
			if instr == b {
				goto loop // b comes first: only through a loop
			}
		}
		return true
	}
loop:
	return lockset.BlocksReach(ab.Succs, bb)
}

// unbuffered reports whether every channel that ch can be is known to
// have capacity zero: made here, or loaded from a field whose every store
// is an unbuffered make.
func (pc *passContext) unbuffered(ch ssa.Value) bool {
	if ct, ok := ch.(*ssa.ChangeType); ok {
		ch = ct.X
	}
	if _, ok := ch.(*ssa.MakeChan); ok {
		return capacity(ch) == 0
	}
	if u, ok := ch.(*ssa.UnOp); ok && u.Op == token.MUL {
		switch a := u.X.(type) {
		case *ssa.FieldAddr:
			if f := lockset.FieldOf(a); f != nil {
				n, ok := pc.chanCaps[f.Origin()]
				return ok && n == 0
			}
		case *ssa.Global:
			n, ok := pc.globalCaps[a]
			return ok && n == 0
		}
	}
	return false
}

func (pc *passContext) opPos(instr ssa.Instruction) token.Pos {
	if c, ok := instr.(*ssa.Call); ok {
		return pc.callPos(c)
	}
	return instr.Pos()
}

func (pc *passContext) callPosOf(instr ssa.Instruction) token.Pos {
	if c, ok := instr.(ssa.CallInstruction); ok {
		if ce := pc.syntax.Call(c.Pos()); ce != nil {
			return ce.Pos()
		}
	}
	return instr.Pos()
}

func (cf *cycleFinder) report(instr ssa.Instruction, h lockset.Held, stuck []stuckWait) {
	pc := cf.pc
	pos := pc.opPos(instr)
	if !pos.IsValid() {
		return
	}
	lock := pc.syntax.LockName(h)
	var what string
	switch i := instr.(type) {
	case *ssa.Send:
		what = fmt.Sprintf("send on channel %s", pc.chanName(i.Pos(), i.Chan))
	case *ssa.UnOp:
		what = fmt.Sprintf("receive from channel %s", pc.chanName(i.Pos(), i.X))
		if pc.ranges[i.Pos()] {
			what = fmt.Sprintf("range over channel %s", pc.chanName(i.Pos(), i.X))
		}
	case *ssa.Select:
		what = "select"
	case *ssa.Call:
		what = pc.callText(i) + " called"
	}
	partner := map[opKind]string{opSend: "receiver", opRecv: "sender", opWait: "Done"}[stuck[0].op.kind]
	if _, ok := instr.(*ssa.Select); ok {
		partner = "partner of its cases"
	}
	msg := fmt.Sprintf("%s while holding %s, and every %s needs %s: deadlock", what, lock, partner, lock)
	d := analysis.Diagnostic{Pos: pos, Category: RuleLockChannelCycle, Message: msg}
	if h.Pos.IsValid() {
		at := h.Pos
		if c := pc.syntax.Call(h.Pos); c != nil {
			at = c.Pos()
		}
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: at, Message: fmt.Sprintf("%s %s here", lock, h.Mode)})
	}
	for _, s := range stuck {
		for _, p := range s.partners {
			if len(d.Related) > maxRelated {
				break
			}
			verb := "holds"
			if p.how == "takes" {
				verb = "runs after taking"
			}
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: pc.opPos(p.op.instr), Message: fmt.Sprintf("this %s %s %s", p.op.kind, verb, lock)})
		}
	}
	pc.pass.Report(d)
}

// addsTo reports whether fn, or a static call it makes into the package
// (a few calls deep), calls Add on the WaitGroup key.
func (cf *cycleFinder) addsTo(fn *ssa.Function, key syncKey, depth int) bool {
	if depth > 3 || fn == nil || fn.Pkg == nil || fn.Pkg.Pkg != cf.pc.pass.Pkg {
		return false
	}
	mk := addKey{fn, key}
	if v, ok := cf.adds[mk]; ok {
		return v
	}
	cf.adds[mk] = false // recursion
	v := cf.addsToUncached(fn, key, depth)
	cf.adds[mk] = v
	return v
}

type addKey struct {
	fn  *ssa.Function
	key syncKey
}

func (cf *cycleFinder) addsToUncached(fn *ssa.Function, key syncKey, depth int) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			c := call.Common()
			if lockset.CalleeIs(c, "sync", "WaitGroup", "Add") {
				if k, ok := keyOf(c.Args[0]); ok && k == key {
					return true
				}
				continue
			}
			if callee := c.StaticCallee(); callee != nil && callee != fn && cf.addsTo(callee, key, depth+1) {
				return true
			}
		}
	}
	for _, anon := range fn.AnonFuncs {
		if lockset.Inlined(anon) && cf.addsTo(anon, key, depth) {
			return true
		}
	}
	return false
}
