package lockpair

// Lock operations on a path: acquire, release, deferred unlocks and hand-offs to goroutines.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// acquire applies Lock (Write) or RLock (Read); false ends the path.
func (w *walker) acquire(st *state, r lockRef, mode Mode, pos token.Pos) bool {
	cur := st.locks[r.key]
	w.event(Acquire{Pos: pos, Name: r.name, Class: r.class, Mode: mode, Held: w.heldList(st)})
	if (cur.mode == Write || cur.mode == Read) && w.custom[r.key] {
		// A module's own lock type may be re-entrant (an owner and a
		// count over its mutex): no double lock, and no longer followed.
		w.poisoned[r.key] = true
		return true
	}
	if cur.mode == Write || cur.mode == Read {
		if cur.mode == Read && mode == Read {
			// A recursive read lock deadlocks only with a writer in
			// between; the dynamic search finds that.
			if cur.reads < maxReads {
				cur.reads++
			}
			st.locks[r.key] = cur
			return true
		}
		if w.signal(r.key) {
			// Waiting for the goroutine handed the Unlock.
			st.locks[r.key] = held{mode: mode, reads: 1, site: pos, blk: w.curBlock}
			return true
		}
		what, verb := "locked", "Lock"
		if cur.mode == Read {
			what, verb = "read-locked", "RLock"
		}
		// A loop that locks and never unlocks may be handing the lock to
		// another goroutine that unlocks it: report the same site only
		// when this function unlocks the lock somewhere too.
		site, key, class := cur.site, r.key, r.class
		keep := func() bool {
			if w.pc.signalClass(class) {
				return false // a callback handed over releases it
			}
			_, ok := w.mayRel[key]
			return ok || site != pos
		}
		related := w.pc.relatedAt(cur.site, r.name+" "+what+" here")
		if site == pos {
			// The previous iteration left it held: say where.
			if at, verb := w.continueAfter(st.cont, site); verb != "" {
				related = append(related, w.pc.relatedAt(at, "the previous iteration continued here with "+r.name+" held")...)
			} else if at.IsValid() {
				related = append(related, w.pc.relatedAt(at, "the previous iteration ended here with "+r.name+" held")...)
			}
		}
		w.reportIf(keep, pos, RuleDoubleLock, related,
			"%s locked while already %s (%s at line %d): Go mutexes are not re-entrant, so this deadlocks",
			r.name, what, verb, w.line(cur.site))
		return false
	}
	if cur.mode == absent {
		st.acq[r.key] = mode
		if _, ok := w.acqSite[r.key]; !ok {
			w.acqSite[r.key] = pos
		}
	}
	st.locks[r.key] = held{mode: mode, reads: 1, site: pos, blk: w.curBlock}
	if _, ok := w.lockedHere[r.key]; !ok {
		w.lockedHere[r.key] = pos
	}
	return true
}

// noteCustom records that key is locked through a custom lock type's
// methods (lockset.CustomLockMethod).
func (w *walker) noteCustom(key string) {
	if w.custom == nil {
		w.custom = map[string]bool{}
	}
	w.custom[key] = true
}

// release applies Unlock (Write) or RUnlock (Read); false ends the path.
func (w *walker) release(st *state, r lockRef, mode Mode, pos token.Pos) bool {
	if w.custom[r.key] && w.poisoned[r.key] {
		delete(st.locks, r.key) // locked again (acquire): not followed
		return true
	}
	cur := st.locks[r.key]
	w.noteRelease(r, mode)
	switch cur.mode {
	case absent:
		// The caller holds it: the unlock-call-relock idiom, or an
		// unlock helper. Nothing to say.
		st.rel[r.key] = mode
		w.relCaller[r.key] = mode
		if r.class != "" && !slices.Contains(w.locks.ReleasesCaller, r.class) {
			w.locks.ReleasesCaller = append(w.locks.ReleasesCaller, r.class)
		}
	case Write:
		if mode == Read {
			w.report(pos, RuleUnlockMismatch, w.pc.relatedAt(cur.site, r.name+" locked here"),
				"%s released with RUnlock but it is write-locked (Lock at line %d)", r.name, w.line(cur.site))
		}
	case Read:
		if mode == Write {
			w.report(pos, RuleUnlockMismatch, w.pc.relatedAt(cur.site, r.name+" read-locked here"),
				"%s released with Unlock but it is read-locked (RLock at line %d)", r.name, w.line(cur.site))
		} else if cur.reads > 1 {
			cur.reads--
			st.locks[r.key] = cur
			return true
		}
	case released:
		if cur.site == pos {
			// Released by this same call on an earlier loop iteration:
			// the trip count may match a loop that locked as often
			// (n RLocks, then n RUnlocks), which the walk cannot count.
			delete(st.locks, r.key)
			w.poisoned[r.key] = true
			return true
		}
		if w.goroutineHandsBack(r.name) {
			// A goroutine of this function locks it and leaves it
			// locked for this one to release (franz-go's produce).
			delete(st.locks, r.key)
			w.poisoned[r.key] = true
			return true
		}
		w.reportIf(w.locksHere(r.key), pos, RuleUnlockNotHeld, w.pc.relatedAt(cur.site, r.name+" released here"),
			"%s unlocked but not held: it was already released at line %d on this path, and unlocking an unlocked mutex is a fatal error",
			r.name, w.line(cur.site))
		return false
	}
	st.locks[r.key] = held{mode: released, site: pos}
	return true
}

// goroutineHandsBack reports whether a go statement of w's function runs
// a function literal that locks the mutex written name and never unlocks
// it: the goroutine acquires the lock on this function's behalf, which
// releases it after waiting for the goroutine.
func (w *walker) goroutineHandsBack(name string) bool {
	var body *ast.BlockStmt
	switch syn := w.fn.Syntax().(type) {
	case *ast.FuncDecl:
		body = syn.Body
	case *ast.FuncLit:
		body = syn.Body
	}
	if body == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		g, ok := n.(*ast.GoStmt)
		if !ok || found {
			return !found
		}
		lit, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit)
		if !ok {
			return true
		}
		locked, unlocked := false, false
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok || types.ExprString(sel.X) != name {
				return true
			}
			switch sel.Sel.Name {
			case "Lock", "RLock":
				locked = true
			case "Unlock", "RUnlock":
				unlocked = true
			}
			return true
		})
		found = locked && !unlocked
		return true
	})
	return found
}

func (w *walker) noteRelease(r lockRef, mode Mode) {
	if _, ok := w.mayRel[r.key]; !ok {
		w.mayRel[r.key] = mode
	}
}

// deferCall records a deferred unlock, or the unlocks a deferred closure
// or function performs on every path.
func (w *walker) deferCall(st *state, d *ssa.Defer) {
	c := d.Common()
	pos := d.Pos()
	if o, recv := w.pc.lockOp(c); o != opNone {
		r, ok := w.ref(recv, c.Pos())
		if !ok {
			return
		}
		switch o {
		case opUnlock, opRUnlock:
			mode := Write
			if o == opRUnlock {
				mode = Read
			}
			st.defers[r.key] = deferred{mode: mode, pos: pos}
			w.noteRelease(r, mode)
		default:
			// defer mu.Lock(): usually a bug of its own (SA2003), and a
			// state this machine does not follow.
			w.poisoned[r.key] = true
		}
		return
	}
	if c.IsInvoke() {
		// An interface's Unlock may release anything; Close and friends
		// release none of the locks followed here.
		if n := c.Method.Name(); n == "Unlock" || n == "RUnlock" {
			w.opaque = true
		}
		return
	}
	if _, ok := c.Value.(*ssa.Builtin); ok {
		return // defer close(ch), defer recover()
	}
	callee := c.StaticCallee()
	if callee == nil {
		if w.mayUnlock(c.Value) {
			w.opaque = true
		}
		return
	}
	origin := callee
	if o := callee.Origin(); o != nil {
		origin = o
	}
	for _, sr := range w.storedReleases(c, origin) {
		// defer unlock.Run(): releases at return a lock held here unless
		// the helper ran (or was canceled) before; any other lock is not
		// followed.
		if sr.must && isHeld(st.locks[sr.r.key].mode) {
			st.defers[sr.r.key] = deferred{mode: sr.mode, pos: pos, once: true}
			w.noteRelease(sr.r, sr.mode)
			continue
		}
		w.poisoned[sr.r.key] = true
	}
	sum, known := w.pc.summaryOf(origin)
	if !known || sum == nil {
		w.opaque = true
		return
	}
	must := map[string]bool{}
	for _, a := range sum.releases {
		r, ok := w.resolve(a, c)
		if !ok || !isHeld(st.locks[r.key].mode) {
			for _, k := range w.viaHelper(st, a, c) {
				st.defers[k] = deferred{mode: a.Mode, pos: pos}
				w.noteRelease(w.refs[k], a.Mode)
				must[k] = true
			}
		}
		if ok {
			st.defers[r.key] = deferred{mode: a.Mode, pos: pos}
			w.noteRelease(r, a.Mode)
			must[r.key] = true
		}
	}
	for _, a := range sum.mayRelease {
		if r, ok := w.resolve(a, c); ok && !must[r.key] {
			// Released on some paths of the deferred call only
			// (if locked { mu.Unlock() }): not followed.
			w.poisoned[r.key] = true
			if st.locks[r.key].mode == absent {
				w.relCaller[r.key] = a.Mode
			}
		}
	}
}

// mayUnlock reports whether the func value v might be an unlock function:
// anything but the result of a call to a function known to hold no lock
// (the cancel func of context.WithTimeout, for one).
func (w *walker) mayUnlock(v ssa.Value) bool {
	if e, ok := v.(*ssa.Extract); ok {
		v = e.Tuple
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return true
	}
	callee := call.Common().StaticCallee()
	if callee == nil {
		return true
	}
	if o := callee.Origin(); o != nil {
		callee = o
	}
	sum, known := w.pc.summaryOf(callee)
	return !known || sum == nil || len(sum.holds) > 0
}

// handOff applies a go statement: a lock that the new goroutine releases
// (go s.finishAndUnlock(), go func() { ...; mu.Unlock() }()) is handed
// to it, and this function no longer follows it.
func (w *walker) handOff(st *state, c *ssa.CallCommon) {
	callee := c.StaticCallee()
	if callee == nil {
		return
	}
	if o := callee.Origin(); o != nil {
		callee = o
	}
	sum, known := w.pc.summaryOf(callee)
	if !known || sum == nil {
		return
	}
	for _, a := range append(append([]AbsLock(nil), sum.releases...), sum.mayRelease...) {
		if r, ok := w.resolve(a, c); ok {
			delete(st.locks, r.key)
			delete(st.defers, r.key)
			w.poisoned[r.key] = true
		}
	}
}
