package lockpair

// Returns: the locks held at each exit, the summary callers see, and IL2002.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks"
)

// exit checks the locks at a return (ret != nil) or a panic.
func (w *walker) exit(st *state, ret *ssa.Return, pos token.Pos) {
	if !pos.IsValid() {
		pos = w.pc.funcEnd(w.fn)
	}
	if ret != nil {
		w.brokeHeld(st)
	}
	ev := exitVisit{pos: pos, ret: ret, out: map[string]held{}, acq: map[string]Mode{}, holds: map[string]Mode{}, rel: map[string]Mode{}}
	for k, d := range st.defers {
		h := st.locks[k]
		r := w.refs[k]
		switch {
		case h.mode == Write && d.mode == Read:
			w.report(d.pos, RuleUnlockMismatch, w.pc.relatedAt(h.site, r.name+" locked here"),
				"deferred RUnlock of %s but it is write-locked (Lock at line %d)", r.name, w.line(h.site))
		case h.mode == Read && d.mode == Write:
			w.report(d.pos, RuleUnlockMismatch, w.pc.relatedAt(h.site, r.name+" read-locked here"),
				"deferred Unlock of %s but it is read-locked (RLock at line %d)", r.name, w.line(h.site))
		case h.mode == released && !h.helper && !d.once && !w.poisoned[k]:
			w.reportIf(w.locksHere(k), d.pos, RuleUnlockNotHeld, w.pc.relatedAt(h.site, r.name+" released here"),
				"deferred unlock of %s runs after it was already released at line %d, and unlocking an unlocked mutex is a fatal error",
				r.name, w.line(h.site))
		}
	}
	for k, h := range st.locks {
		if _, ok := st.defers[k]; ok && (h.mode == Write || h.mode == Read) {
			h = held{mode: released, site: st.defers[k].pos}
		}
		ev.out[k] = h
		if (h.mode == Write || h.mode == Read) && st.acq[k] != absent {
			ev.holds[k] = h.mode
		}
	}
	for k, m := range st.acq {
		ev.acq[k] = m
	}
	for k, m := range st.rel {
		// Released, or re-taken and released by a defer (unlock, work,
		// relock, then the deferred Unlock): the caller's lock is gone.
		if _, deferred := st.defers[k]; st.locks[k].mode == released || deferred {
			ev.rel[k] = m
		}
	}
	for k, d := range st.defers {
		if st.locks[k].mode == absent {
			ev.rel[k] = d.mode
			w.relCaller[k] = d.mode
		}
	}
	w.exits = append(w.exits, ev)
}

// summarize intersects the returning paths into the function's summary.
func (w *walker) summarize() *summary {
	s := &summary{}
	var rets []exitVisit
	for _, e := range w.exits {
		if e.ret != nil {
			rets = append(rets, e)
		}
	}
	every := func(get func(exitVisit) map[string]Mode) []string {
		if len(rets) == 0 {
			return nil
		}
		var keys []string
		for k, m := range get(rets[0]) {
			ok := true
			for _, e := range rets[1:] {
				if get(e)[k] != m {
					ok = false
					break
				}
			}
			if ok && !w.poisoned[k] {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		return keys
	}
	abs := func(k string, m Mode, pos token.Pos) (AbsLock, bool) {
		r := w.refs[k]
		if r.abs == nil {
			return AbsLock{}, false
		}
		a := *r.abs
		a.Mode = m
		a.Pos = w.pc.posString(pos)
		return a, true
	}
	for _, k := range every(func(e exitVisit) map[string]Mode { return e.acq }) {
		if a, ok := abs(k, rets[0].acq[k], w.acqSite[k]); ok {
			s.acquires = append(s.acquires, a)
		}
	}
	for _, k := range every(func(e exitVisit) map[string]Mode { return e.holds }) {
		if a, ok := abs(k, rets[0].holds[k], w.acqSite[k]); ok {
			s.holds = append(s.holds, a)
		}
	}
	for _, k := range every(func(e exitVisit) map[string]Mode { return e.rel }) {
		if a, ok := abs(k, rets[0].rel[k], token.NoPos); ok {
			s.releases = append(s.releases, a)
		}
	}
	// Only the caller's locks: a deferred closure that locks and unlocks
	// its own critical section releases nothing of its caller's.
	var mk []string
	for k := range w.relCaller {
		mk = append(mk, k)
	}
	sort.Strings(mk)
	for _, k := range mk {
		if a, ok := abs(k, w.relCaller[k], token.NoPos); ok {
			s.mayRelease = append(s.mayRelease, a)
		}
	}
	return s
}

// lockContractName matches functions whose job is to return holding a
// lock: lock, Lock, rlockAll, acquireRead, tryLockFor, mustLock.
var lockContractName = regexp.MustCompile(`^(?i)(try|must)?r?(lock|acquire)`)

// lockContractDoc matches doc comments that say the function returns
// with the lock held.
var lockContractDoc = regexp.MustCompile(`(?is)\b(returns?|leaves?|exits?)\b.*\b(held|locked)\b|caller must (unlock|release)`)

// checkHeldAtReturn reports returns that keep a lock other returns release.
func (w *walker) checkHeldAtReturn() {
	if w.returnsHolding() {
		return
	}
	var keys []string
	for k := range w.lockedHere {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		// A signal (a callback or goroutine releases it: m.wake()
		// unlocks m.Mutex) is held by a protocol this walk does not
		// follow: the per-call mutex of a one-shot wait, freed held.
		if w.poisoned[k] || w.signal(k) || w.abandoned(w.refs[k]) {
			continue
		}
		type outcome struct {
			held, released bool
			site           token.Pos
			ret            *ssa.Return
		}
		byPos := map[token.Pos]*outcome{}
		var order []token.Pos
		for _, e := range w.exits {
			h := e.out[k]
			o := byPos[e.pos]
			if o == nil {
				o = &outcome{ret: e.ret}
				byPos[e.pos] = o
				order = append(order, e.pos)
			}
			switch h.mode {
			case Write, Read:
				o.held = true
				o.site = h.site
			case released:
				o.released = true
			}
		}
		var heldAt, relAt []token.Pos
		for _, p := range order {
			o := byPos[p]
			switch {
			case o.held && !o.released:
				heldAt = append(heldAt, p)
			case o.released && !o.held:
				relAt = append(relAt, p)
			}
		}
		if len(heldAt) == 0 || len(relAt) == 0 {
			continue
		}
		retAt := func(p token.Pos) *ssa.Return { return byPos[p].ret }
		if w.boolContract(heldAt, relAt, retAt) || w.errorContract(heldAt, relAt, retAt) || w.session(k, heldAt, retAt) {
			continue
		}
		// One finding per (function, lock): the first holding exit, with
		// the others as related positions.
		r := w.refs[k]
		sort.Slice(heldAt, func(i, j int) bool { return heldAt[i] < heldAt[j] })
		what := func(p token.Pos) string {
			if byPos[p].ret == nil {
				return "panic"
			}
			return "return"
		}
		p, site := heldAt[0], byPos[heldAt[0]].site
		related := w.pc.relatedAt(site, r.name+" locked here")
		for _, q := range heldAt[1:] {
			related = append(related, w.pc.relatedAt(q, "also still held at this "+what(q))...)
		}
		also := ""
		if n := len(heldAt) - 1; n > 0 {
			also = fmt.Sprintf(" (and at %d more %s, listed as related)", n, checks.Plural(n, "exit"))
		}
		w.report(p, RuleLockHeldAtReturn, related,
			"%s locked at line %d is still held at this %s%s, but released before %d other return(s): a later Lock deadlocks",
			r.name, w.line(site), what(p), also, len(relAt))
	}
}

// errorContract reports whether the function keeps the lock exactly when
// it succeeds: every holding return returns a nil error, every releasing
// one a non-nil error. The lock then belongs to what it returned (bbolt's
// beginRWTx hands the writer lock to the new Tx). The reverse, a lock kept
// on an error path, is the classic bug and stays reported.
func (w *walker) errorContract(heldAt, relAt []token.Pos, ret func(token.Pos) *ssa.Return) bool {
	errType := types.Universe.Lookup("error").Type()
	res := w.fn.Signature.Results()
	for i := 0; i < res.Len(); i++ {
		if !types.Identical(res.At(i).Type(), errType) {
			continue
		}
		isNil := func(p token.Pos) (nilErr, ok bool) {
			r := ret(p)
			if r == nil || i >= len(r.Results) {
				return false, false
			}
			c, isConst := resultValue(r, i).(*ssa.Const)
			return isConst && c.IsNil(), true
		}
		ok := true
		for _, p := range heldAt {
			if n, known := isNil(p); !known || !n {
				ok = false
			}
		}
		for _, p := range relAt {
			if n, known := isNil(p); !known || n {
				ok = false
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// resultValue is the i'th value ret returns. In a function with defers
// the results go through a result variable (store, run defers, load): look
// through it to the stored value.
func resultValue(ret *ssa.Return, i int) ssa.Value {
	v := ret.Results[i]
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return v
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok {
		return v
	}
	instrs := ret.Block().Instrs
	for j := len(instrs) - 1; j >= 0; j-- {
		if st, ok := instrs[j].(*ssa.Store); ok && st.Addr == alloc {
			return st.Val
		}
	}
	return v
}

// returnsHolding reports whether w's function may return holding a lock
// by contract: its name or doc says so, it returns the release, or an
// unlocking closure of it is shared.
func (w *walker) returnsHolding() bool {
	if w.opaque || lockContractName.MatchString(w.fn.Name()) || returnsFunc(w.fn) || sharesUnlockingClosure(w.fn) {
		return true
	}
	decl, ok := w.fn.Syntax().(*ast.FuncDecl)
	return ok && decl.Doc != nil && lockContractDoc.MatchString(decl.Doc.Text())
}

// returnsFunc reports whether fn has a result that hands its caller the
// release: a func (grabConn returning tx.closemuRUnlockRelease), or the
// mutex itself (*sync.Mutex, *sync.RWMutex, sync.Locker: kafka-go's
// waitResponse returns &c.rlock still locked for the caller to unlock).
// Such a function returns holding the lock by contract.
func returnsFunc(fn *ssa.Function) bool {
	res := fn.Signature.Results()
	for i := 0; i < res.Len(); i++ {
		t := res.At(i).Type()
		if _, ok := t.Underlying().(*types.Signature); ok {
			return true
		}
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" {
			switch n.Obj().Name() {
			case "Mutex", "RWMutex", "Locker":
				return true
			}
		}
	}
	return false
}

// boolContract reports whether a bool result tells the caller whether the
// lock is held: every holding return returns one constant, every
// releasing return the other (the TryLock-like contract).
func (w *walker) boolContract(heldAt, relAt []token.Pos, ret func(token.Pos) *ssa.Return) bool {
	res := w.fn.Signature.Results()
	for i := 0; i < res.Len(); i++ {
		if !isBool(res.At(i).Type()) {
			continue
		}
		val := func(ps []token.Pos) (string, bool) {
			v := ""
			for _, p := range ps {
				r := ret(p)
				if r == nil || i >= len(r.Results) {
					return "", false
				}
				c, ok := resultValue(r, i).(*ssa.Const)
				if !ok || c.Value == nil {
					return "", false
				}
				if v != "" && v != c.Value.String() {
					return "", false
				}
				v = c.Value.String()
			}
			return v, true
		}
		h, ok1 := val(heldAt)
		r, ok2 := val(relAt)
		if ok1 && ok2 && h != r {
			return true
		}
	}
	return false
}

// sharesUnlockingClosure reports whether fn defines a function literal
// that unlocks and is kept in a variable another closure also captures
// (reject := func() { rollback(); ... }): calls through that second
// closure release the lock where the walk cannot see it.
func sharesUnlockingClosure(fn *ssa.Function) bool {
	for _, anon := range fn.AnonFuncs {
		if anon.Synthetic != "" || !hasSyncOp(anon) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				mc, ok := instr.(*ssa.MakeClosure)
				if !ok || mc.Fn != anon {
					continue
				}
				for _, ref := range *mc.Referrers() {
					st, ok := ref.(*ssa.Store)
					if !ok {
						continue
					}
					if alloc, ok := st.Addr.(*ssa.Alloc); ok && capturedByClosure(alloc) {
						return true
					}
				}
			}
		}
	}
	return false
}

// capturedByClosure reports whether the variable alloc is bound into a
// function literal.
func capturedByClosure(alloc *ssa.Alloc) bool {
	for _, ref := range *alloc.Referrers() {
		if _, ok := ref.(*ssa.MakeClosure); ok {
			return true
		}
	}
	return false
}
