package lockorder

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// instEdge is "acquire B while holding A" where A and B are reached from
// the same root (same object) or are package-level locks.
type instEdge struct {
	key        string // relation: root type and both paths
	a, b       string // the lock paths as written
	heldPos    token.Pos
	pos        token.Pos // the acquisition (or the call leading to it)
	acqPos     token.Pos // the Lock call itself
	fn         *ssa.Function
	heldMode   lockset.Mode
	acqMode    lockset.Mode
	root       string
	heldFields string
	acqFields  string
	// gates are the other locks of the same object (or package-level)
	// held at the acquisition: one held on both paths serializes them.
	gates map[string]lockset.Mode
}

type instanceFinder struct {
	pass *analysis.Pass
	acq  *lockset.Acquirer
}

// instanceInversions reports IL2102: a pair of locks of one object (s.mu
// and s.inner.mu, or two package-level mutexes) taken in both orders in
// this package's non-test code, directly or through calls on the same
// object. Two goroutines on the two paths with the same object deadlock.
func instanceInversions(pass *analysis.Pass, results []*lockset.Result) {
	f := &instanceFinder{pass: pass, acq: lockset.NewAcquirer(pass.Pkg, func(fn *ssa.Function) bool { return isTestFile(pass, fn.Pos()) })}
	var edges []instEdge
	for _, r := range results {
		if isTestFile(pass, r.Fn.Pos()) || lockset.IsConstructorName(r.Fn.Name()) || callsUnlockClosure(r) {
			continue
		}
		for _, fn := range r.Functions() {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					edges = append(edges, f.edgesAt(r, instr)...)
				}
			}
		}
	}
	byKey := map[string][]instEdge{}
	for _, e := range edges {
		byKey[e.key] = append(byKey[e.key], e)
	}
	sort.Slice(edges, func(i, j int) bool { return before(pass.Fset, edges[i].pos, edges[j].pos) })
	done := map[string]bool{}
	for _, e := range edges {
		revKey := e.root + "|" + e.acqFields + "|" + e.heldFields
		if done[e.key] || done[revKey] {
			continue
		}
		for _, r := range byKey[revKey] {
			if e.heldMode == lockset.Shared && e.acqMode == lockset.Shared && r.heldMode == lockset.Shared && r.acqMode == lockset.Shared {
				continue // read locks on both sides
			}
			if gated(e, r) {
				continue // a third lock held on both paths serializes them
			}
			done[e.key], done[revKey] = true, true
			first, second := e, r
			if before(pass.Fset, r.pos, e.pos) {
				first, second = r, e
			}
			pass.Report(analysis.Diagnostic{
				Pos: first.pos, Category: RuleLockOrderInversionSameObject,
				Message: fmt.Sprintf("%s acquired while holding %s in %s, and %s while holding %s in %s: two goroutines on the same %s deadlock",
					first.b, first.a, first.fn.Name(), second.b, second.a, second.fn.Name(), first.root),
				Related: []analysis.RelatedInformation{
					{Pos: first.heldPos, Message: first.a + " acquired here"},
					{Pos: second.pos, Message: fmt.Sprintf("%s acquired here while holding %s", second.b, second.a)},
					{Pos: second.heldPos, Message: second.a + " acquired here"},
				},
			})
			break
		}
	}
}

func isTestFile(pass *analysis.Pass, pos token.Pos) bool {
	return strings.HasSuffix(pass.Fset.Position(pos).Filename, "_test.go")
}

// edgesAt returns the instance edges of instr: a Lock of B (or a call
// that locks B on an argument's object) while A of the same object is held.
func (f *instanceFinder) edgesAt(r *lockset.Result, instr ssa.Instruction) []instEdge {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return nil
	}
	st, ok := r.Before(instr)
	if !ok || st.Len() == 0 {
		return nil
	}
	var released []lockset.Path // caller locks the callee drops
	var modes []lockset.Mode
	var lockPos []token.Pos
	var roots []lockset.Path
	if op, v := lockset.Classify(&call.Call); op == lockset.OpLock || op == lockset.OpRLock {
		mode := lockset.Exclusive
		if op == lockset.OpRLock {
			mode = lockset.Shared
		}
		modes, lockPos, roots = append(modes, mode), append(lockPos, call.Pos()), append(roots, r.Path(v))
	} else {
		released = f.acq.CallReleases(&call.Call, r.Path)
		for _, a := range f.acq.CallAcquires(&call.Call, r.Path) {
			modes, lockPos, roots = append(modes, a.Mode), append(lockPos, a.Pos), append(roots, a.Lock)
		}
	}
	var out []instEdge
	for i, b := range roots {
		for _, h := range st.Locks() {
			if _, fromCaller := r.Entry.Holds(h.Lock); fromCaller || !h.Pos.IsValid() {
				continue // held by the callers: their call is the edge
			}
			if slices.Contains(released, h.Lock) {
				continue // the callee drops h before (or around) taking b
			}
			e, ok := f.edge(r, h, b)
			if !ok {
				continue
			}
			e.pos, e.acqPos, e.fn, e.acqMode = call.Pos(), lockPos[i], r.Fn, modes[i]
			e.gates = map[string]lockset.Mode{}
			for _, g := range st.Locks() {
				if g.Lock == h.Lock {
					continue
				}
				if gg, ok := g.Lock.Root.(*ssa.Global); ok {
					e.gates["package "+gg.Name()+g.Lock.Fields] = g.Mode
				} else if g.Lock.Root == h.Lock.Root {
					e.gates[g.Lock.Fields] = g.Mode
				}
			}
			out = append(out, e)
		}
	}
	return out
}

// edge relates held lock h and acquired lock b when they are two locks of
// one object, or two package-level locks.
func (f *instanceFinder) edge(r *lockset.Result, h lockset.Held, b lockset.Path) (instEdge, bool) {
	a := h.Lock
	if a == b || a.Root == nil || b.Root == nil {
		return instEdge{}, false
	}
	ga, aGlobal := a.Root.(*ssa.Global)
	gb, bGlobal := b.Root.(*ssa.Global)
	var root, af, bf string
	switch {
	case aGlobal && bGlobal:
		root, af, bf = "package", ga.Name()+a.Fields, gb.Name()+b.Fields
	case aGlobal || bGlobal:
		return instEdge{}, false
	case a.Root == b.Root:
		if !a.Canonical() || r.IsFresh(a.Root) {
			return instEdge{}, false // not shared yet, or not a named value
		}
		t := a.Root.Type()
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		root, af, bf = types.TypeString(t, types.RelativeTo(f.pass.Pkg)), a.Fields, b.Fields
		if strings.HasPrefix(bf, af+".") || strings.HasPrefix(af, bf+".") {
			return instEdge{}, false // a lock inside the other's value: not two locks
		}
	default:
		return instEdge{}, false
	}
	return instEdge{
		key: root + "|" + af + "|" + bf, root: root, heldFields: af, acqFields: bf,
		a: a.String(), b: b.String(), heldPos: h.Pos, heldMode: h.Mode,
	}, true
}

// gated reports whether a lock of the same object is held at both
// acquisitions, exclusively on at least one: the two paths cannot
// interleave there.
func gated(e, r instEdge) bool {
	for k, m := range e.gates {
		if m2, ok := r.gates[k]; ok && (m == lockset.Exclusive || m2 == lockset.Exclusive) {
			return true
		}
	}
	return false
}

// callsUnlockClosure reports whether r calls a function literal, not
// analyzed in place, that unlocks (accUnlock := func() { acc.mu.Unlock() };
// accUnlock()): the lock state there does not show that release.
func callsUnlockClosure(r *lockset.Result) bool {
	for _, fn := range r.Functions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				var lit *ssa.Function
				switch v := call.Common().Value.(type) {
				case *ssa.MakeClosure:
					lit, _ = v.Fn.(*ssa.Function)
				case *ssa.Function:
					lit = v
				}
				if lit == nil || lit.Parent() == nil || lockset.Inlined(lit) {
					continue
				}
				if unlocks(lit) {
					return true
				}
			}
		}
	}
	return false
}

func unlocks(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				if op, _ := lockset.Classify(call.Common()); op == lockset.OpUnlock || op == lockset.OpRUnlock {
					return true
				}
			}
		}
	}
	return false
}
