package lockpair

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

// Limits that keep the path-sensitive walk linear in practice. A function
// that exceeds them is skipped entirely: no report is better than a guess.
const (
	maxStatesPerBlock = 64   // distinct lock states reaching one block
	maxBlockVisits    = 8000 // block visits per function
)

// summary is what a function does to the locks of its parameters, free
// variables and package variables, as seen by a caller.
type summary struct {
	acquires   []AbsLock // locked from the caller's state on every path that returns
	holds      []AbsLock // still held at every return (lock helpers)
	releases   []AbsLock // unlocked from the caller's state on every return (unlock helpers)
	mayRelease []AbsLock // unlocked on some path
}

// walker runs the path-sensitive lock state machine over one function.
type walker struct {
	pc         *passContext
	pass       *analysis.Pass
	fn         *ssa.Function
	roots      map[ssa.Value]int
	refs       map[string]lockRef
	keysByRoot map[ssa.Value][]string
	curExpr    string // source text of the operand being canonicalized
	curBlock   *ssa.BasicBlock

	branches   map[ssa.Value]int // times each boolean is branched on
	visits     int
	gaveUp     bool
	lockedHere map[string]token.Pos // keys acquired in this function (directly or by a helper)
	acqSite    map[string]token.Pos
	mayRel     map[string]Mode
	poisoned   map[string]bool // keys whose state this walk cannot follow
	signals    map[string]bool // mutexes whose Unlock is handed to another function
	opaque     bool            // a deferred call of unknown effect: no lock-held-at-return reports

	diags []pendingDiag
	exits []exitVisit

	leaks   []loopLeak // locks of loop variables left held by an iteration
	loopSyn *loopSyntax
	events  map[string]bool
	locks   *FuncLocks
}

type exitVisit struct {
	pos   token.Pos
	ret   *ssa.Return // nil for a panic
	out   map[string]held
	acq   map[string]Mode
	holds map[string]Mode
	rel   map[string]Mode
}

type item struct {
	b    *ssa.BasicBlock
	from int // index of the predecessor in b.Preds, -1 at entry
	st   *state
}

func newWalker(pc *passContext, fn *ssa.Function) *walker {
	return &walker{
		pc:         pc,
		pass:       pc.pass,
		fn:         fn,
		roots:      map[ssa.Value]int{},
		refs:       map[string]lockRef{},
		keysByRoot: map[ssa.Value][]string{},
		lockedHere: map[string]token.Pos{},
		acqSite:    map[string]token.Pos{},
		mayRel:     map[string]Mode{},
		poisoned:   map[string]bool{},
		events:     map[string]bool{},

		locks: &FuncLocks{Fn: fn},
	}
}

// ref canonicalizes the mutex operand v of the call at pos.
func (w *walker) ref(v ssa.Value, pos token.Pos) (lockRef, bool) {
	w.curExpr = w.pc.receiverText(pos)
	r, ok := w.refOf(v)
	w.curExpr = ""
	if !ok {
		return r, false
	}
	w.register(r)
	return r, true
}

func (w *walker) register(r lockRef) {
	if _, ok := w.refs[r.key]; !ok {
		w.refs[r.key] = r
		if r.root != nil {
			w.keysByRoot[r.root] = append(w.keysByRoot[r.root], r.key)
		}
		for _, ix := range r.indexes {
			w.keysByRoot[ix] = append(w.keysByRoot[ix], r.key)
		}
	}
}

func (w *walker) run() {
	if len(w.fn.Blocks) == 0 {
		return
	}
	w.branches = map[ssa.Value]int{}
	for _, b := range w.fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		if x, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
			c, _ := stripNot(x.Cond)
			w.branches[c]++
		}
	}
	// A boolean merged into a branched one is followed too, so a flag set
	// in a loop (if !locked { mu.Lock(); locked = true }) keeps its value
	// across the back edge.
	for changed := true; changed; {
		changed = false
		for _, b := range w.fn.Blocks {
			for _, instr := range b.Instrs {
				phi, ok := instr.(*ssa.Phi)
				if !ok || w.branches[phi] == 0 || !isBool(phi.Type()) {
					continue
				}
				for _, e := range phi.Edges {
					if p, ok := e.(*ssa.Phi); ok && w.branches[p] == 0 {
						w.branches[p] = 1
						changed = true
					}
				}
			}
		}
	}
	w.signals = w.handedUnlocks()
	for k := range w.signals {
		w.poisoned[k] = true
	}
	seen := map[*ssa.BasicBlock]map[string]bool{}
	work := []item{{w.fn.Blocks[0], -1, newState()}}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		k := strconv.Itoa(it.from) + "|" + it.st.encode(w)
		m := seen[it.b]
		if m == nil {
			m = map[string]bool{}
			seen[it.b] = m
		}
		if m[k] {
			continue
		}
		w.visits++
		if len(m) >= maxStatesPerBlock || w.visits > maxBlockVisits {
			w.gaveUp = true
			return
		}
		m[k] = true
		work = w.block(it, work)
	}
}

func predIndex(b, pred *ssa.BasicBlock) int {
	for i, p := range b.Preds {
		if p == pred {
			return i
		}
	}
	return -1
}

// block runs one basic block from state it.st and returns the work list
// extended with its successors.
func (w *walker) block(it item, work []item) []item {
	st := it.st.clone()
	b := it.b
	w.curBlock = b
	for _, instr := range b.Instrs {
		// A loop phi's edge can be the phi itself (t1 = phi [false, t1,
		// t2]): read what is known of the edge before the phi redefines it.
		edgeCond, edgeKnown := false, false
		if x, ok := instr.(*ssa.Phi); ok && it.from >= 0 && it.from < len(x.Edges) {
			edgeCond, edgeKnown = st.cond[x.Edges[it.from]]
		}
		if v, ok := instr.(ssa.Value); ok {
			st.kill(w, v)
		}
		if p := instr.Pos(); p.IsValid() {
			st.last = p
		}
		switch x := instr.(type) {
		case *ssa.Phi:
			if it.from >= 0 && it.from < len(x.Edges) {
				e := x.Edges[it.from]
				if w.branches[x] == 0 {
					// not branched on: nothing to correlate
				} else if c, ok := e.(*ssa.Const); ok && c.Value != nil && isBool(c.Type()) {
					st.cond[x] = c.Value.String() == "true"
				} else if edgeKnown {
					st.cond[x] = edgeCond
				}
				if t, ok := st.try[e]; ok {
					st.try[x] = t
				}
			}
		case *ssa.Call:
			if !w.call(st, x.Common(), x, x.Pos()) {
				return work
			}
		case *ssa.Go:
			w.handOff(st, x.Common())
		case *ssa.Store:
			w.store(st, x)
		case *ssa.Defer:
			w.deferCall(st, x)
		case *ssa.Panic:
			if reportPanics {
				w.exit(st, nil, x.Pos())
			}
			return work
		case *ssa.Return:
			w.exit(st, x, x.Pos())
			return work
		case *ssa.If:
			return w.branch(st, b, x, work)
		case *ssa.Jump:
			w.jumped(st, b, b.Succs[0])
			return append(work, item{b.Succs[0], predIndex(b.Succs[0], b), st})
		}
	}
	return work
}

// store forgets the locks reached through a pointer field (or pointer
// variable) this store overwrites: after s.cur = next, s.cur.mu is
// another mutex.
func (w *walker) store(st *state, x *ssa.Store) {
	var marker string
	switch a := x.Addr.(type) {
	case *ssa.FieldAddr:
		sty, ok := deref(a.X.Type()).Underlying().(*types.Struct)
		if !ok {
			return
		}
		marker = "." + sty.Field(a.Field).Name() + "*"
	case *ssa.Global:
		marker = "g:" + a.Pkg.Pkg.Path() + "." + a.Name() + "*"
	case *ssa.Alloc, *ssa.FreeVar:
		// c = c.parent on a variable that lives in memory: every lock
		// reached through it now belongs to another object.
		if _, ok := w.roots[a]; !ok {
			return
		}
		marker = fmt.Sprintf("v%d*", w.roots[a])
		for k := range st.locks {
			if strings.HasPrefix(k, marker) {
				delete(st.locks, k)
				delete(st.defers, k)
				w.poisoned[k] = true
			}
		}
		return
	default:
		return
	}
	for k := range st.locks {
		if strings.Contains(k, marker) {
			delete(st.locks, k)
			delete(st.defers, k)
			w.poisoned[k] = true
		}
	}
}

// stripNot returns c without its leading ! operators, and whether their
// number is odd.
func stripNot(c ssa.Value) (ssa.Value, bool) {
	neg := false
	for {
		u, ok := c.(*ssa.UnOp)
		if !ok || u.Op != token.NOT {
			return c, neg
		}
		c, neg = u.X, !neg
	}
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// branch follows both successors of an If, pruning the one that
// contradicts a boolean already decided on this path, and resolving a
// pending TryLock.
func (w *walker) branch(st *state, b *ssa.BasicBlock, x *ssa.If, work []item) []item {
	c, neg := stripNot(x.Cond)
	for i, succ := range b.Succs {
		val := (i == 0) != neg
		if known, ok := st.cond[c]; ok && known != val {
			continue
		}
		if k, ok := c.(*ssa.Const); ok && k.Value != nil && (k.Value.String() == "true") != val {
			continue // if false { ... }: dead code
		}
		if enumExhausted(b, c, val) {
			continue // the default of a switch over every constant of an enum
		}
		s := st
		if i == 0 {
			s = st.clone()
		}
		// Remember the outcome only for a boolean branched on again:
		// recording every condition would split states at every merge.
		if w.branches[c] >= 2 {
			s.cond[c] = val
		}
		if t, ok := s.try[c]; ok {
			delete(s.try, c)
			if val {
				cur := s.locks[t.key]
				if cur.mode == absent {
					s.acq[t.key] = t.mode
				}
				if cur.mode == Read && t.mode == Read {
					cur.reads = min(cur.reads+1, maxReads)
					s.locks[t.key] = cur
				} else {
					s.locks[t.key] = held{mode: t.mode, reads: 1, site: t.pos}
				}
				w.lockedHere[t.key] = t.pos
			}
		}
		if !strings.HasSuffix(b.Comment, ".loop") {
			// An If in the body may jump straight to the next iteration
			// (if x { continue }) or out (if x { break }); the loop
			// header's own If is the loop's condition.
			w.jumped(s, b, succ)
		}
		work = append(work, item{succ, predIndex(succ, b), s})
	}
	return work
}

// call applies a call's effect on st; false means the path ends here.
func (w *walker) call(st *state, c *ssa.CallCommon, v ssa.Value, pos token.Pos) bool {
	if o, recv := syncOp(c); o != opNone {
		r, ok := w.ref(recv, pos)
		if !ok {
			return true
		}
		switch o {
		case opLock:
			return w.acquire(st, r, Write, pos)
		case opRLock:
			return w.acquire(st, r, Read, pos)
		case opUnlock:
			return w.release(st, r, Write, pos)
		case opRUnlock:
			return w.release(st, r, Read, pos)
		case opTryLock:
			st.try[v] = trying{r.key, Write, pos}
		case opTryRLock:
			st.try[v] = trying{r.key, Read, pos}
		}
		return true
	}
	if passesTestingT(c) {
		// An assertion helper given t (require.NoError(t, err)) may end
		// the test: "if err != nil { mu.Unlock(); check(t, err) }" leaves
		// the path there, so what this path released is no longer known.
		for k, h := range st.locks {
			if h.mode == released {
				delete(st.locks, k)
			}
		}
	}
	if c.IsInvoke() {
		w.dynamicCall(st, c, pos)
		return true
	}
	if _, ok := c.Value.(*ssa.Builtin); ok {
		return true // append, len, close, recover: no lock effect
	}
	if mc := boxedClosure(c.Value); mc != nil {
		// rollback := func() { mu.Unlock() } captured by another closure
		// lives in memory; calling it still calls that literal.
		direct := *c
		direct.Value = mc
		c = &direct
	}
	callee := c.StaticCallee()
	if callee == nil {
		w.dynamicCall(st, c, pos)
		// A call of a func value may be the unlock function a helper
		// returned: forget what helpers acquired.
		for k, h := range st.locks {
			if h.helper {
				delete(st.locks, k)
				w.poisoned[k] = true
			}
		}
		return true
	}
	if obj, ok := callee.Object().(*types.Func); ok && w.pc.noReturn(obj) {
		return false
	}
	origin := callee
	if o := callee.Origin(); o != nil {
		origin = o
	}
	w.event(Call{Pos: pos, Callee: origin, Common: c, Held: w.heldList(st)})
	sum, known := w.pc.summaryOf(origin)
	if !known || sum == nil {
		return true
	}
	for _, a := range sum.acquires {
		r, ok := w.resolve(a, c)
		if !ok {
			continue
		}
		cur := st.locks[r.key]
		if cur.mode == Write || cur.mode == Read {
			if cur.mode == Write || a.Mode == Write {
				w.report(pos, RuleDoubleLock, w.pc.relatedAt(cur.site, r.name+" locked here"),
					"call to %s locks %s, which is already held here (locked at line %d): Go mutexes are not re-entrant, so this deadlocks",
					w.calleeName(callee, pos), r.name, w.line(cur.site))
				return false
			}
			continue
		}
		if cur.mode == absent {
			st.acq[r.key] = a.Mode
			if _, ok := w.acqSite[r.key]; !ok {
				w.acqSite[r.key] = pos
			}
		}
	}
	for _, a := range sum.holds {
		r, ok := w.resolve(a, c)
		if !ok {
			continue
		}
		st.locks[r.key] = held{mode: a.Mode, reads: 1, site: pos, helper: true}
		w.lockedHere[r.key] = pos
	}
	for _, a := range sum.releases {
		r, ok := w.resolve(a, c)
		if !ok {
			continue
		}
		if st.locks[r.key].mode == absent {
			st.rel[r.key] = a.Mode
		}
		st.locks[r.key] = held{mode: released, site: pos}
		w.noteRelease(r, a.Mode)
	}
	return true
}

func (w *walker) calleeName(callee *ssa.Function, pos token.Pos) string {
	if s := w.pc.funText(pos); s != "" {
		return s
	}
	return callee.Name()
}

// resolve maps a callee's abstract lock to the caller's lock at call c.
func (w *walker) resolve(a AbsLock, c *ssa.CallCommon) (lockRef, bool) {
	disp := strings.ReplaceAll(a.Steps, "*", "")
	switch {
	case strings.HasPrefix(a.Root, "g:"):
		r := lockRef{key: a.Root + a.Steps, name: w.pc.globalName(a), class: a.Class}
		abs := a
		r.abs = &abs
		w.register(r)
		return r, true
	case strings.HasPrefix(a.Root, "p"), strings.HasPrefix(a.Root, "f"):
		i, err := strconv.Atoi(a.Root[1:])
		if err != nil {
			return lockRef{}, false
		}
		var v ssa.Value
		if a.Root[0] == 'p' {
			if i >= len(c.Args) {
				return lockRef{}, false
			}
			v = c.Args[i]
		} else {
			mc, ok := c.Value.(*ssa.MakeClosure)
			if !ok || i >= len(mc.Bindings) {
				return lockRef{}, false
			}
			v = mc.Bindings[i]
		}
		base, ok := w.refOf(v)
		if !ok {
			return lockRef{}, false
		}
		r := lockRef{key: base.key + a.Steps, root: base.root, name: base.name + disp, class: a.Class}
		if base.abs != nil {
			r.abs = &AbsLock{Root: base.abs.Root, Steps: base.abs.Steps + a.Steps, Name: r.name, Class: a.Class}
		}
		w.register(r)
		return r, true
	}
	return lockRef{}, false
}

// acquire applies Lock (Write) or RLock (Read); false ends the path.
func (w *walker) acquire(st *state, r lockRef, mode Mode, pos token.Pos) bool {
	cur := st.locks[r.key]
	w.event(Acquire{Pos: pos, Name: r.name, Class: r.class, Mode: mode, Held: w.heldList(st)})
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
		if w.signals[r.key] {
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
		site, key := cur.site, r.key
		keep := func() bool { _, ok := w.mayRel[key]; return ok || site != pos }
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

// release applies Unlock (Write) or RUnlock (Read); false ends the path.
func (w *walker) release(st *state, r lockRef, mode Mode, pos token.Pos) bool {
	cur := st.locks[r.key]
	w.noteRelease(r, mode)
	switch cur.mode {
	case absent:
		// The caller holds it: the unlock-call-relock idiom, or an
		// unlock helper. Nothing to say.
		st.rel[r.key] = mode
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
	if o, recv := syncOp(c); o != opNone {
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
			st.defers[r.key] = deferred{mode, pos}
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
	sum, known := w.pc.summaryOf(origin)
	if !known || sum == nil {
		w.opaque = true
		return
	}
	must := map[string]bool{}
	for _, a := range sum.releases {
		if r, ok := w.resolve(a, c); ok {
			st.defers[r.key] = deferred{a.Mode, pos}
			w.noteRelease(r, a.Mode)
			must[r.key] = true
		}
	}
	for _, a := range sum.mayRelease {
		if r, ok := w.resolve(a, c); ok && !must[r.key] {
			// Released on some paths of the deferred call only
			// (if locked { mu.Unlock() }): not followed.
			w.poisoned[r.key] = true
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
		case h.mode == released && !h.helper && !w.poisoned[k]:
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
	var mk []string
	for k := range w.mayRel {
		mk = append(mk, k)
	}
	sort.Strings(mk)
	for _, k := range mk {
		if a, ok := abs(k, w.mayRel[k], token.NoPos); ok {
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
		if w.poisoned[k] {
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
		if w.boolContract(heldAt, relAt, retAt) || w.errorContract(heldAt, relAt, retAt) {
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
			also = fmt.Sprintf(" (and at %d more %s, listed as related)", n, passutil.Plural(n, "exit"))
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

func (w *walker) heldList(st *state) []HeldLock {
	var out []HeldLock
	for k, h := range st.locks {
		if h.mode != Write && h.mode != Read {
			continue
		}
		r := w.refs[k]
		out = append(out, HeldLock{Name: r.name, Class: r.class, Mode: h.mode, Pos: h.site})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// drop frees what the walk needed and the report does not: a large
// package keeps every function's walker until the pass ends.
func (w *walker) drop() {
	w.exits, w.events, w.keysByRoot, w.roots = nil, nil, nil, nil
	w.branches, w.leaks, w.loopSyn, w.acqSite = nil, nil, nil, nil
}

// dynamicCall records a call of a func value or an interface method, for
// lockorder to resolve.
func (w *walker) dynamicCall(st *state, c *ssa.CallCommon, pos token.Pos) {
	w.event(Call{Pos: pos, Common: c, Held: w.heldList(st)})
}

func (w *walker) event(e any) {
	var key string
	switch e := e.(type) {
	case Acquire:
		key = fmt.Sprintf("A%d%v", e.Pos, e.Held)
		if !w.events[key] {
			w.locks.Acquires = append(w.locks.Acquires, e)
		}
	case Call:
		key = fmt.Sprintf("C%d%v", e.Pos, e.Held)
		if !w.events[key] {
			w.locks.Calls = append(w.locks.Calls, e)
		}
	}
	w.events[key] = true
}

func (w *walker) line(pos token.Pos) int { return w.pass.Fset.Position(pos).Line }

// pendingDiag is a diagnostic whose condition (keep) can only be decided
// once the whole function has been walked.
type pendingDiag struct {
	analysis.Diagnostic
	keep func() bool // nil: always
}

func (w *walker) report(pos token.Pos, rule string, related []analysis.RelatedInformation, format string, args ...any) {
	w.reportIf(nil, pos, rule, related, format, args...)
}

func (w *walker) reportIf(keep func() bool, pos token.Pos, rule string, related []analysis.RelatedInformation, format string, args ...any) {
	w.diags = append(w.diags, pendingDiag{analysis.Diagnostic{
		Pos:      pos,
		Category: rule,
		Message:  fmt.Sprintf(format, args...),
		Related:  related,
	}, keep})
}

// locksHere reports whether this function locks key itself: an unlock of
// a lock it never takes belongs to a caller, or to a hand-off between
// goroutines.
func (w *walker) locksHere(key string) func() bool {
	return func() bool { _, ok := w.lockedHere[key]; return ok }
}

func (pc *passContext) posString(pos token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	p := pc.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

func (pc *passContext) relatedAt(pos token.Pos, msg string) []analysis.RelatedInformation {
	if !pos.IsValid() {
		return nil
	}
	return []analysis.RelatedInformation{{Pos: pos, Message: msg}}
}

// passesTestingT reports whether c is a call, other than a method of
// package testing itself, that is given a *testing.T, *testing.B,
// *testing.F or testing.TB.
func passesTestingT(c *ssa.CallCommon) bool {
	if fn := c.StaticCallee(); fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "testing" {
		return false
	}
	if c.IsInvoke() && c.Method.Pkg() != nil && c.Method.Pkg().Path() == "testing" {
		return false
	}
	for _, a := range c.Args {
		named, ok := types.Unalias(deref(a.Type())).(*types.Named)
		if ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "testing" {
			switch named.Obj().Name() {
			case "T", "B", "F", "TB":
				return true
			}
		}
	}
	return false
}

// locksInYield reports whether a range-over-func loop body of fn (run by
// the iterator as a callback) locks or unlocks a mutex: the path walk
// cannot follow those, so fn is not checked.
func locksInYield(fn *ssa.Function) bool {
	for _, anon := range fn.AnonFuncs {
		if anon.Synthetic == "range-over-func yield" && hasSyncOp(anon) {
			return true
		}
		if locksInYield(anon) {
			return true
		}
	}
	return false
}

func hasSyncOp(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				if o, _ := syncOp(c.Common()); o != opNone {
					return true
				}
			}
		}
	}
	for _, anon := range fn.AnonFuncs {
		if hasSyncOp(anon) {
			return true
		}
	}
	return false
}

// boxedClosure returns the function literal that v loads when v reads a
// local variable assigned exactly once, from that literal (a named
// closure captured by another closure is kept in memory); else nil.
func boxedClosure(v ssa.Value) *ssa.MakeClosure {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var mc *ssa.MakeClosure
	for _, ref := range *alloc.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Addr != alloc {
			continue // loads, and the closures that capture it
		}
		m, ok := st.Val.(*ssa.MakeClosure)
		if !ok || mc != nil {
			return nil
		}
		mc = m
	}
	return mc
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
