package lockpair

// The path-sensitive walk of one function: its blocks, branches and calls.

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
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
	mayRelease []AbsLock // unlocked from the caller's state on some path
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
	relCaller  map[string]Mode        // keys released from the caller's state on some path
	poisoned   map[string]bool        // keys whose state this walk cannot follow
	custom     map[string]bool        // keys locked through a custom lock type's methods
	helperOf   map[ssa.Value][]string // keys a lock helper's call left held, by that call
	deadAfter  map[phiEdge]bool       // passToPhi's liveness answers
	signals    map[string]bool        // mutexes whose Unlock is handed to another function
	opaque     bool                   // a deferred call of unknown effect: no lock-held-at-return reports
	callPos    token.Pos              // the call whose summary resolve applies

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
		relCaller:  map[string]Mode{},
		poisoned:   map[string]bool{},
		helperOf:   map[ssa.Value][]string{},
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
		var moves []phiMove
		if x, ok := instr.(*ssa.Phi); ok && it.from >= 0 && it.from < len(x.Edges) {
			moves = w.phiMoves(st, x, it.from)
		}
		if v, ok := instr.(ssa.Value); ok {
			st.kill(w, v)
		}
		for _, m := range moves {
			st.locks[m.key] = m.h
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
		if w.pc.enumExhausted(b, c, val) {
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
	if o, recv := w.pc.lockOp(c); o != opNone {
		r, ok := w.ref(recv, pos)
		if !ok {
			return true
		}
		if so, _ := syncOp(c); so == opNone {
			w.noteCustom(r.key)
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
	if endsTest(c) || failsHere(c, v) {
		return false // t.Fatalf: runtime.Goexit, the path ends here
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
	if callee == nil && w.pc.exitHookCall(c) {
		return false // OsExit(1), OsExit = os.Exit: the path ends here
	}
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
	for _, sr := range w.storedReleases(c, origin) {
		// unlock.Run() runs the stored unlock closure unless it ran
		// before: it releases a lock held here; any other is not
		// followed.
		if sr.must && isHeld(st.locks[sr.r.key].mode) {
			if !w.release(st, sr.r, sr.mode, pos) {
				return false
			}
			continue
		}
		delete(st.locks, sr.r.key)
		delete(st.defers, sr.r.key)
		w.poisoned[sr.r.key] = true
	}
	sum, known := w.pc.summaryOf(origin)
	if !known || sum == nil {
		return true
	}
	w.callPos = pos
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
		if v != nil {
			w.helperOf[v] = append(w.helperOf[v], r.key)
		}
	}
	for _, a := range sum.releases {
		r, ok := w.resolve(a, c)
		if !ok || !isHeld(st.locks[r.key].mode) {
			for _, k := range w.viaHelper(st, a, c) {
				st.locks[k] = held{mode: released, site: pos}
				w.noteRelease(w.refs[k], a.Mode)
			}
		}
		if !ok {
			continue
		}
		if st.locks[r.key].mode == absent {
			st.rel[r.key] = a.Mode
			w.relCaller[r.key] = a.Mode
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

// viaHelper returns the locks a release a of callee c's releases stands
// for when it is reached through the object a lock helper returned: the
// helper left them held (enc := newEncoder(c) locks c.encMu), and a method
// of that object releases a lock of the same class (defer enc.end(), which
// unlocks e.c.encMu). The walk cannot name e.c as c; the class and the
// helper's call tie them.
func (w *walker) viaHelper(st *state, a AbsLock, c *ssa.CallCommon) []string {
	if a.Class == "" || !strings.HasPrefix(a.Root, "p") {
		return nil
	}
	i, err := strconv.Atoi(a.Root[1:])
	if err != nil || i >= len(c.Args) {
		return nil
	}
	v := c.Args[i]
	if ct, ok := v.(*ssa.ChangeType); ok {
		v = ct.X
	}
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		// enc captured by a closure lives in a cell: its one store
		// holds the helper's result.
		if al, ok := u.X.(*ssa.Alloc); ok {
			if sv := onlyStored(al); sv != nil {
				v = sv
			}
		}
	}
	var out []string
	for _, k := range w.helperOf[v] {
		if h := st.locks[k]; h.helper && isHeld(h.mode) && w.refs[k].class == a.Class {
			out = append(out, k)
		}
	}
	return out
}

// onlyStored returns the value of the one store to al, nil if there are
// several or none.
func onlyStored(al *ssa.Alloc) ssa.Value {
	var val ssa.Value
	for _, r := range *al.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == al {
			if val != nil {
				return nil
			}
			val = st.Val
		}
	}
	return val
}

func isHeld(m Mode) bool { return m == Write || m == Read }

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
		if i == 0 && a.Root[0] == 'p' && c.Signature().Recv() != nil {
			// ws[i].pause(): an element receiver is named as written.
			w.curExpr = w.pc.receiverText(w.callPos)
		}
		base, ok := w.refOf(v)
		w.curExpr = ""
		if !ok {
			return lockRef{}, false
		}
		// An element's lock (w := ws[i]; w.pause()) is one per index
		// value: it goes when the index is redefined, as a direct Lock's.
		r := lockRef{key: base.key + a.Steps, root: base.root, name: base.name + disp, class: a.Class, indexes: base.indexes, elems: base.elems}
		if base.abs != nil && len(base.indexes) == 0 {
			r.abs = &AbsLock{Root: base.abs.Root, Steps: base.abs.Steps + a.Steps, Name: r.name, Class: a.Class}
		}
		w.register(r)
		return r, true
	}
	return lockRef{}, false
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

// endsTest reports whether c is a method of package testing that never
// returns (FailNow through runtime.Goexit): t.Fatal, t.Fatalf, t.FailNow,
// t.Skip, t.Skipf, t.SkipNow, on *testing.T, B, F or testing.TB.
func endsTest(c *ssa.CallCommon) bool {
	var fn *types.Func
	if c.IsInvoke() {
		fn = c.Method
	} else if callee := c.StaticCallee(); callee != nil {
		fn, _ = callee.Object().(*types.Func)
	}
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "testing" || fn.Signature().Recv() == nil {
		return false
	}
	switch fn.Name() {
	case "Fatal", "Fatalf", "FailNow", "Skip", "Skipf", "SkipNow":
		return true
	}
	return false
}

// failsHere reports whether c is testify's require.Fail or FailNow, or
// require.NoError(t, err) on a path where err != nil holds: each calls
// t.FailNow, so the path ends (radix's accept loop: Lock, defer Unlock,
// if err != nil { if shuttingDown { break }; require.NoError(t, err) }).
func failsHere(c *ssa.CallCommon, v ssa.Value) bool {
	fn := c.StaticCallee()
	if fn == nil || fn.Pkg == nil || !strings.HasSuffix(fn.Pkg.Pkg.Path(), "testify/require") || fn.Signature.Recv() != nil {
		return false
	}
	switch fn.Name() {
	case "Fail", "Failf", "FailNow", "FailNowf":
		return true
	case "NoError", "NoErrorf":
	default:
		return false
	}
	instr, ok := v.(ssa.Instruction)
	if !ok || len(c.Args) < 2 {
		return false
	}
	err := c.Args[1]
	isNil := func(x ssa.Value) bool {
		k, ok := x.(*ssa.Const)
		return ok && k.IsNil()
	}
	b := instr.Block()
	for d := b.Idom(); d != nil; d = d.Idom() {
		if len(d.Instrs) == 0 || len(d.Succs) != 2 || d.Succs[0] == d.Succs[1] {
			continue
		}
		ifi, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := ifi.Cond.(*ssa.BinOp)
		if !ok || !(cmp.X == err && isNil(cmp.Y) || cmp.Y == err && isNil(cmp.X)) {
			continue
		}
		if cmp.Op == token.NEQ && d.Succs[0].Dominates(b) || cmp.Op == token.EQL && d.Succs[1].Dominates(b) {
			return true
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
