package lockpair

// Locks carried across a phi: cur := s; cur.Lock(); for { next :=
// cur.parent; cur.Unlock(); cur = next; cur.Lock() }. The lock taken
// through s (or next) is the one the loop's cur unlocks.

import (
	"go/types"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

type phiEdge struct {
	phi  *ssa.Phi
	from int
}

// phiMove is a lock state passToPhi moves onto a lock rooted at a phi.
type phiMove struct {
	key string
	h   held
}

// phiMoves takes off st the state of the locks reached through phi's
// incoming value on edge from (s.Mutex, or cur.parent.Mutex for next :=
// cur.parent) and returns it for the same locks reached through phi
// (cur.Mutex), to be set once phi is defined; the caller kills phi's old
// locks in between. It does so only when phi is the one way the value
// goes on: the value is not used after the phi without being redefined
// first, no other phi takes it, and no deferred unlock names its locks.
// Hand-over-hand walks up a chain unlock under the loop variable what
// they locked under the parameter or the loop body's variable.
func (w *walker) phiMoves(st *state, phi *ssa.Phi, from int) []phiMove {
	e := phi.Edges[from]
	if _, ok := e.(*ssa.Const); ok || !isPointer(e.Type()) {
		return nil
	}
	base, ok := w.refOf(e)
	if !ok || base.root == nil || len(base.indexes) > 0 {
		return nil
	}
	var keys []string
	for k := range st.locks {
		if rest, ok := strings.CutPrefix(k, base.key); ok && rest != "" && strings.ContainsRune(".*[", rune(rest[0])) {
			if _, ok := st.defers[k]; ok {
				return nil // the deferred unlock runs on e's mutex at return
			}
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 || !w.onlyThroughPhi(phi, from) {
		return nil
	}
	sort.Strings(keys)
	var out []phiMove
	root := "v" + strconv.Itoa(w.rootID(phi))
	for _, k := range keys {
		rest := k[len(base.key):]
		r := w.refs[k]
		nr := lockRef{key: root + rest, root: phi, class: r.class, name: r.name}
		if phi.Comment != "" {
			nr.name = phi.Comment + strings.ReplaceAll(rest, "*", "")
		}
		w.register(nr)
		out = append(out, phiMove{nr.key, st.locks[k]})
		delete(st.locks, k)
		if p, ok := w.lockedHere[k]; ok {
			if _, ok := w.lockedHere[nr.key]; !ok {
				w.lockedHere[nr.key] = p
			}
		}
	}
	return out
}

func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// onlyThroughPhi reports whether phi's value on edge from is dead after
// the phi: no instruction reachable from phi's block before the value's
// own definition uses it, and no other phi of the block takes it on the
// same edge.
func (w *walker) onlyThroughPhi(phi *ssa.Phi, from int) bool {
	pe := phiEdge{phi, from}
	if v, ok := w.deadAfter[pe]; ok {
		return v
	}
	dead := w.deadAfterPhi(phi, from)
	if w.deadAfter == nil {
		w.deadAfter = map[phiEdge]bool{}
	}
	w.deadAfter[pe] = dead
	return dead
}

func (w *walker) deadAfterPhi(phi *ssa.Phi, from int) bool {
	e := phi.Edges[from]
	users := map[ssa.Instruction]bool{}
	for _, r := range *e.Referrers() {
		if p, ok := r.(*ssa.Phi); ok && p != phi {
			return false // merged elsewhere too: another name for it
		}
		users[r] = true
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{phi.Block()}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		redefined := false
		for _, instr := range b.Instrs {
			if _, ok := instr.(*ssa.Phi); ok {
				continue
			}
			if v, ok := instr.(ssa.Value); ok && v == e {
				redefined = true
				break
			}
			if users[instr] {
				return false
			}
		}
		if !redefined {
			work = append(work, b.Succs...)
		}
	}
	return true
}
