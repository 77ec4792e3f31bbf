package lockpair

// Sessions: a lock a method keeps across calls while a field of its
// receiver says a session is open (cayley's quadWriter: WriteQuads locks
// qs.writer when it opens w.tx and keeps it while w.tx != nil; Close
// releases it exactly then).

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// session reports whether the lock k, kept at the returns heldAt, is held
// by a session protocol of the receiver: the method takes it only under
// a test that the receiver's field f is nil, every path from that Lock to
// a return that keeps it stores f, and another method of the same type
// releases it, without taking it, only where f is not nil. The lock is
// then held exactly while f is set, and the releasing method ends it.
func (w *walker) session(k string, heldAt []token.Pos, ret func(token.Pos) *ssa.Return) bool {
	r := w.refs[k]
	if r.abs == nil || r.abs.Root != "p0" || w.fn.Signature.Recv() == nil || len(w.fn.Params) == 0 {
		return false
	}
	recv := w.fn.Params[0]
	sites := w.lockSites(k)
	if len(sites) == 0 {
		return false
	}
	// The returns a path from a Lock reaches before it stores the field.
	early := map[*ssa.Return]bool{}
	var field int
	for i, site := range sites {
		f, ok := nilGuard(site.b, recv, -1, true)
		if !ok || (i > 0 && f != field) {
			return false
		}
		field = f
		if !storesBeforeReturn(site.b, site.i, recv, field, early) {
			return false
		}
	}
	for _, p := range heldAt {
		rt := ret(p)
		if rt == nil || early[rt] {
			return false
		}
	}
	return w.endsSession(r, field)
}

// storesBeforeReturn walks the paths from instruction i of b up to a
// store of a non-nil value to recv's field: the returns reached first go
// to early. It reports whether some path stores the field.
func storesBeforeReturn(b *ssa.BasicBlock, i int, recv ssa.Value, field int, early map[*ssa.Return]bool) bool {
	stores := func(instr ssa.Instruction) bool {
		st, ok := instr.(*ssa.Store)
		if !ok {
			return false
		}
		fa, ok := st.Addr.(*ssa.FieldAddr)
		if !ok || fa.X != recv || fa.Field != field {
			return false
		}
		c, isConst := st.Val.(*ssa.Const)
		return !isConst || !c.IsNil()
	}
	stored := false
	seen := map[*ssa.BasicBlock]bool{}
	var visit func(b *ssa.BasicBlock, from int)
	visit = func(b *ssa.BasicBlock, from int) {
		for _, instr := range b.Instrs[from:] {
			if stores(instr) {
				stored = true
				return
			}
			if rt, ok := instr.(*ssa.Return); ok {
				early[rt] = true
			}
		}
		for _, s := range b.Succs {
			if !seen[s] {
				seen[s] = true
				visit(s, 0)
			}
		}
	}
	visit(b, i+1)
	return stored
}

// endsSession reports whether another method of w's receiver type unlocks
// the lock r (same path from the receiver) without locking it, every
// such unlock only where the receiver's field is not nil.
func (w *walker) endsSession(r lockRef, field int) bool {
	named, ok := types.Unalias(deref(w.fn.Signature.Recv().Type())).(*types.Named)
	if !ok {
		return false
	}
	found := false
	for i := 0; i < named.NumMethods(); i++ {
		g := w.fn.Prog.FuncValue(named.Method(i))
		if g == nil || g == w.fn || len(g.Blocks) == 0 || len(g.Params) == 0 {
			continue
		}
		gw := newWalker(w.pc, g)
		unlocks, locks := 0, 0
		guarded := true
		for _, b := range g.Blocks {
			for _, instr := range b.Instrs {
				ci, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				o, v := w.pc.lockOp(ci.Common())
				if o == opNone {
					continue
				}
				gr, ok := gw.refOf(v)
				if !ok || gr.abs == nil || gr.abs.Root != "p0" || gr.abs.Steps != r.abs.Steps {
					continue
				}
				switch o {
				case opUnlock, opRUnlock:
					unlocks++
					if _, ok := nilGuard(b, g.Params[0], field, false); !ok {
						guarded = false
					}
				default:
					locks++
				}
			}
		}
		if unlocks > 0 && locks == 0 && guarded {
			found = true
		}
	}
	return found
}

type instrAt struct {
	b *ssa.BasicBlock
	i int
}

// lockSites finds the Lock and RLock calls of the lock k in w's function.
func (w *walker) lockSites(k string) []instrAt {
	var out []instrAt
	for _, b := range w.fn.Blocks {
		for i, instr := range b.Instrs {
			ci, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			o, v := w.pc.lockOp(ci.Common())
			if o != opLock && o != opRLock {
				continue
			}
			if r, ok := w.refOf(v); ok && r.key == k {
				out = append(out, instrAt{b, i})
			}
		}
	}
	return out
}

// nilGuard finds a test of a field of recv (the field-th, or any when
// field < 0) against nil that b runs only on one branch of: where the
// field is nil (isNil) or where it is not. It returns the field's index.
func nilGuard(b *ssa.BasicBlock, recv ssa.Value, field int, isNil bool) (int, bool) {
	for d := b; d.Idom() != nil; d = d.Idom() {
		p := d.Idom()
		iff, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := iff.Cond.(*ssa.BinOp)
		if !ok || (cmp.Op != token.EQL && cmp.Op != token.NEQ) {
			continue
		}
		x, y := cmp.X, cmp.Y
		if c, ok := x.(*ssa.Const); ok && c.IsNil() {
			x, y = y, x
		}
		if c, ok := y.(*ssa.Const); !ok || !c.IsNil() {
			continue
		}
		load, ok := x.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			continue
		}
		fa, ok := load.X.(*ssa.FieldAddr)
		if !ok || fa.X != recv || (field >= 0 && fa.Field != field) {
			continue
		}
		// Succs[0] runs when the comparison holds.
		nilSucc := p.Succs[0]
		if cmp.Op == token.NEQ {
			nilSucc = p.Succs[1]
		}
		want := nilSucc
		if !isNil {
			want = p.Succs[0]
			if cmp.Op == token.EQL {
				want = p.Succs[1]
			}
		}
		if len(want.Preds) == 1 && want.Dominates(b) {
			return fa.Field, true
		}
	}
	return 0, false
}
