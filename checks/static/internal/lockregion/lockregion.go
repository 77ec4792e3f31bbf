// Package lockregion is a small, syntactic lock-region tracker shared by
// the AST-based passes (atomicmix, checkact, threadsafe): it walks a
// function body in source order and knows, at each statement, which
// mutexes may be held and which Lock call acquired each of them. It is
// deliberately simple (no aliasing, no interprocedural state); every use
// of it errs towards silence. The SSA-based passes use package lockset.
package lockregion

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/interleave-dev/interleave/checks/static/internal/forkjoin"
	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

// Held maps a mutex expression as written ("s.mu", "c.L") to the
// position of the Lock, RLock or TryLock call that acquired it. That
// position identifies the critical section (the region); token.NoPos
// when paths that took it at different calls merge.
type Held map[string]token.Pos

// Common reports whether a and b hold the same mutex.
func Common(a, b Held) bool {
	for k := range a {
		if _, ok := b[k]; ok {
			return true
		}
	}
	return false
}

// lockOp classifies calls on sync.Mutex, sync.RWMutex and sync.Locker.
type lockOp int

const (
	notLockOp lockOp = iota
	opLock           // Lock, RLock
	opUnlock         // Unlock, RUnlock
	opTryLock        // TryLock, TryRLock
)

// lockCall returns the operation and mutex key of call, if it is a lock
// operation: a method of sync.Mutex, sync.RWMutex or sync.Locker, or of a
// module's own lock type (lockset.CustomLock).
func (w *Walker) lockCall(e ast.Expr) (lockOp, string, token.Pos) {
	info := w.Info
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return notLockOp, "", token.NoPos
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return notLockOp, "", token.NoPos
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return notLockOp, "", token.NoPos
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return notLockOp, "", token.NoPos
	}
	name := fn.Name()
	if fn.Pkg().Path() != "sync" {
		if !lockset.CustomLock(sig.Recv().Type()) || sig.Params().Len() != 0 {
			return notLockOp, "", token.NoPos
		}
		// RLock of a type built on a sync.Mutex alone is exclusive.
		switch lockset.CustomOp(name, sig.Recv().Type()) {
		case lockset.OpNone:
			return notLockOp, "", token.NoPos // not a plain lock method
		case lockset.OpLock:
			name = "Lock"
		case lockset.OpUnlock:
			name = "Unlock"
		case lockset.OpTryLock:
			name = "TryLock"
		}
	} else {
		switch RecvName(sig.Recv().Type()) {
		case "Mutex", "RWMutex", "Locker":
		default:
			return notLockOp, "", token.NoPos
		}
	}
	mutex := sel.X
	read := name == "RLock" || name == "TryRLock"
	if m := w.rlockerOf(sel.X); m != nil {
		// rwx := s.mu.RLocker(); rwx.Lock() read-locks s.mu.
		mutex, read = m, true
	}
	key := types.ExprString(mutex)
	if w.KeyOf != nil {
		key = w.KeyOf(mutex)
	}
	switch name {
	case "Lock", "RLock":
		if w.Exclusive && read {
			return notLockOp, "", token.NoPos
		}
		return opLock, key, call.Pos()
	case "Unlock", "RUnlock":
		return opUnlock, key, call.Pos()
	case "TryLock", "TryRLock":
		if w.Exclusive && read {
			return notLockOp, "", token.NoPos
		}
		return opTryLock, key, call.Pos()
	}
	return notLockOp, "", token.NoPos
}

// RecvName returns the name of a method receiver's named type, looking
// through one pointer ("Mutex" for *sync.Mutex), or "".
func RecvName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// Walker walks function bodies and calls Visit for every node with
// the lock state in force at that node. A function literal is walked where
// it appears with the state of its surroundings (closures called under
// the caller's lock), except the function of a go statement, which starts
// with no lock held.
type Walker struct {
	Info  *types.Info
	Visit func(n ast.Node, held Held)
	// KeyOf names the mutex of a Lock call; nil means as written ("s.mu").
	KeyOf func(mutex ast.Expr) string
	// Must makes the state the mutexes held on every path (joins
	// intersect, a loop body is walked again from the state its back edge
	// brings) instead of on some path. Exclusive counts only Lock and
	// TryLock as acquiring (a read lock does not exclude other readers).
	// Both are for the caller locksets (CallerLocks).
	Must, Exclusive bool
	// ForkJoin walks the function of a go statement that the next
	// statement joins (wg.Wait(), a receive, a loop of receives; a go in
	// a loop whose other statements only count or bind locals) with the
	// starter's locks: the starter holds them until the goroutine ends.
	ForkJoin bool
	joined   map[*ast.GoStmt]bool
	// unlocks, when set, names the mutexes a call releases (a helper of
	// the package that unlocks what its caller locked): in Must mode they
	// are dropped after the statement that makes the call.
	unlocks func(call *ast.CallExpr) []string
	// rlockers maps locals bound once to m.RLocker() to m (rlockerOf).
	rlockers map[types.Object]ast.Expr
}

// WalkFunc walks body with held as the locks held on entry.
func (w *Walker) WalkFunc(body *ast.BlockStmt, held Held) {
	if body != nil {
		w.bindRLockers(body)
		w.stmts(body.List, maps.Clone(held))
	}
}

// bindRLockers records the locals of body defined as x := m.RLocker() of
// a sync.RWMutex m and never assigned again: x.Lock() read-locks m.
func (w *Walker) bindRLockers(body *ast.BlockStmt) {
	assigned := map[types.Object]int{}
	bound := map[types.Object]ast.Expr{}
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, l := range as.Lhs {
			id, ok := ast.Unparen(l).(*ast.Ident)
			if !ok {
				continue
			}
			obj := w.Info.ObjectOf(id)
			if obj == nil {
				continue
			}
			assigned[obj]++
			if as.Tok != token.DEFINE || len(as.Lhs) != len(as.Rhs) {
				continue
			}
			call, ok := ast.Unparen(as.Rhs[i]).(*ast.CallExpr)
			if !ok || len(call.Args) != 0 {
				continue
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				continue
			}
			fn, ok := typeutil.Callee(w.Info, call).(*types.Func)
			if !ok || fn.Name() != "RLocker" || fn.Pkg() == nil {
				continue
			}
			recv := fn.Type().(*types.Signature).Recv()
			if recv == nil {
				continue
			}
			if fn.Pkg().Path() == "sync" || lockset.CustomLock(recv.Type()) {
				bound[obj] = sel.X
			}
		}
		return true
	})
	for obj, m := range bound {
		if assigned[obj] != 1 {
			continue
		}
		if w.rlockers == nil {
			w.rlockers = map[types.Object]ast.Expr{}
		}
		w.rlockers[obj] = m
	}
}

// rlockerOf returns the RWMutex x was bound to by x := m.RLocker(), or
// nil.
func (w *Walker) rlockerOf(x ast.Expr) ast.Expr {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok || w.rlockers == nil {
		return nil
	}
	return w.rlockers[w.Info.Uses[id]]
}

// stmts walks a statement list and returns the state at its end and
// whether the list always leaves the enclosing flow (return, branch, panic).
func (w *Walker) stmts(list []ast.Stmt, held Held) (Held, bool) {
	if w.ForkJoin {
		for _, g := range forkjoin.JoinedNext(w.Info, list) {
			if w.joined == nil {
				w.joined = map[*ast.GoStmt]bool{}
			}
			w.joined[g] = true
		}
	}
	for _, s := range list {
		var term bool
		held, term = w.stmt(s, held)
		if term {
			return held, true
		}
	}
	return held, false
}

func (w *Walker) stmt(s ast.Stmt, held Held) (Held, bool) {
	switch s := s.(type) {
	case *ast.BlockStmt:
		return w.stmts(s.List, held)
	case *ast.LabeledStmt:
		return w.stmt(s.Stmt, held)
	case *ast.ExprStmt:
		w.node(s, held)
		held = w.released(s, held)
		switch op, key, pos := w.lockCall(s.X); op {
		case opLock:
			held = maps.Clone(held)
			held[key] = pos
		case opUnlock:
			held = maps.Clone(held)
			delete(held, key)
		}
		return held, IsPanic(w.Info, s.X)
	case *ast.GoStmt:
		if w.joined[s] {
			w.node(s.Call.Fun, held) // joined before the starter unlocks
		} else {
			w.node(s.Call.Fun, Held{}) // the new goroutine holds nothing
		}
		for _, a := range s.Call.Args {
			w.node(a, held)
		}
		return w.released(s, held), false
	case *ast.DeferStmt:
		// Deferred calls run at return; a deferred Unlock keeps the lock
		// held for the rest of the body.
		w.node(s.Call, held)
		return w.released(s, held), false
	case *ast.ReturnStmt:
		w.node(s, held)
		return held, true
	case *ast.BranchStmt:
		return held, s.Tok != token.FALLTHROUGH
	case *ast.IfStmt:
		if s.Init != nil {
			held, _ = w.stmt(s.Init, held)
		}
		w.node(s.Cond, held)
		thenIn, elseIn := maps.Clone(held), maps.Clone(held)
		cond, negated := ast.Unparen(s.Cond), false
		if u, ok := cond.(*ast.UnaryExpr); ok && u.Op == token.NOT {
			cond, negated = u.X, true
		}
		if op, key, pos := w.lockCall(cond); op == opTryLock {
			if negated {
				elseIn[key] = pos
			} else {
				thenIn[key] = pos
			}
		}
		thenOut, thenTerm := w.stmts(s.Body.List, thenIn)
		elseOut, elseTerm := elseIn, false
		if s.Else != nil {
			elseOut, elseTerm = w.stmt(s.Else, elseIn)
		}
		switch {
		case thenTerm && elseTerm:
			return held, true
		case thenTerm:
			return elseOut, false
		case elseTerm:
			return thenOut, false
		}
		return w.join(thenOut, elseOut), false
	case *ast.ForStmt:
		if s.Init != nil {
			held, _ = w.stmt(s.Init, held)
		}
		if s.Cond != nil {
			w.node(s.Cond, held)
		}
		return w.loop(s.Body, held, s.Post), false
	case *ast.RangeStmt:
		w.node(s.X, held)
		return w.loop(s.Body, held, nil), false
	case *ast.SwitchStmt:
		if s.Init != nil {
			held, _ = w.stmt(s.Init, held)
		}
		if s.Tag != nil {
			w.node(s.Tag, held)
		}
		return w.clauses(s.Body, held)
	case *ast.TypeSwitchStmt:
		if s.Init != nil {
			held, _ = w.stmt(s.Init, held)
		}
		w.node(s.Assign, held)
		return w.clauses(s.Body, held)
	case *ast.SelectStmt:
		return w.clauses(s.Body, held)
	default: // assignments, declarations, sends, inc/dec
		w.node(s, held)
		return w.released(s, held), false
	}
}

// loop walks a for or range body from held and returns the state after
// the loop. In Must mode the body is walked again from the state its back
// edge brings, and a body that can break or continue early (its state is
// not the body's end state) loses every lock it releases anywhere.
func (w *Walker) loop(body *ast.BlockStmt, held Held, post ast.Stmt) Held {
	out, _ := w.stmts(body.List, maps.Clone(held))
	if post != nil {
		out, _ = w.stmt(post, out)
	}
	if !w.Must {
		return union(held, out)
	}
	in := held
	for range 3 {
		next := w.minusBranches(body, intersect(in, out))
		if len(next) == len(in) {
			break
		}
		in = next
		out, _ = w.stmts(body.List, maps.Clone(in))
		if post != nil {
			out, _ = w.stmt(post, out)
		}
	}
	return w.minusBranches(body, intersect(in, out))
}

// minusBranches returns held without the mutexes body releases anywhere
// when body contains a break, continue or goto, whose states the walk
// does not carry to where they jump.
func (w *Walker) minusBranches(body ast.Node, held Held) Held {
	if !w.Must {
		return held
	}
	branches := false
	ast.Inspect(body, func(n ast.Node) bool {
		if b, ok := n.(*ast.BranchStmt); ok && b.Tok != token.FALLTHROUGH {
			branches = true
		}
		return !branches
	})
	if !branches {
		return held
	}
	return w.drop(held, w.unlockedIn(body, false))
}

// released returns held without the mutexes that s releases through a
// helper of the package or a function literal it calls (Must mode only;
// direct Unlock statements are applied by stmt). The literals of go and
// defer statements do not run here.
func (w *Walker) released(s ast.Stmt, held Held) Held {
	if !w.Must || len(held) == 0 {
		return held
	}
	return w.drop(held, w.unlockedIn(s, true))
}

// unlockedIn returns the mutexes released in n: by an Unlock call (inside
// function literals only, when litsOnly is set: the statement's own
// Unlock is applied by stmt), or by a call of a helper that unlocks.
func (w *Walker) unlockedIn(n ast.Node, litsOnly bool) []string {
	var out []string
	var visit func(n ast.Node, inLit bool)
	visit = func(n ast.Node, inLit bool) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				if _, ok := n.Call.Fun.(*ast.FuncLit); ok && litsOnly {
					for _, a := range n.Call.Args {
						visit(a, inLit)
					}
					return false
				}
			case *ast.DeferStmt:
				if _, ok := n.Call.Fun.(*ast.FuncLit); ok && litsOnly {
					for _, a := range n.Call.Args {
						visit(a, inLit)
					}
					return false
				}
			case *ast.FuncLit:
				visit(n.Body, true)
				return false
			case *ast.CallExpr:
				if op, key, _ := w.lockCall(n); op == opUnlock && (inLit || !litsOnly) {
					out = append(out, key)
				}
				if w.unlocks != nil {
					out = append(out, w.unlocks(n)...)
				}
			}
			return true
		})
	}
	visit(n, false)
	return out
}

// drop returns held without keys (held itself when it has none of them).
func (w *Walker) drop(held Held, keys []string) Held {
	var out Held
	for _, k := range keys {
		if _, ok := held[k]; !ok {
			continue
		}
		if out == nil {
			out = maps.Clone(held)
		}
		delete(out, k)
	}
	if out == nil {
		return held
	}
	return out
}

// join returns the state after two paths meet: the locks held on either
// (on both, in Must mode).
func (w *Walker) join(a, b Held) Held {
	if w.Must {
		return intersect(a, b)
	}
	return union(a, b)
}

// intersect returns the locks held in both a and b; a lock taken at
// different calls has token.NoPos, as in union.
func intersect(a, b Held) Held {
	out := Held{}
	for k, v := range a {
		if u, ok := b[k]; ok {
			if u != v {
				v = token.NoPos
			}
			out[k] = v
		}
	}
	return out
}

// clauses walks the clauses of a switch or select.
func (w *Walker) clauses(body *ast.BlockStmt, held Held) (Held, bool) {
	var out Held
	hasDefault, allTerm := false, true
	for _, c := range body.List {
		var list []ast.Stmt
		in := maps.Clone(held)
		switch c := c.(type) {
		case *ast.CaseClause:
			hasDefault = hasDefault || c.List == nil
			for _, e := range c.List {
				w.node(e, held)
			}
			list = c.Body
		case *ast.CommClause:
			hasDefault = hasDefault || c.Comm == nil
			if c.Comm != nil {
				in, _ = w.stmt(c.Comm, in)
			}
			list = c.Body
		}
		end, term := w.stmts(list, in)
		if !term {
			if allTerm && w.Must {
				out = end // the first clause that falls out
			} else {
				out = w.join(out, end)
			}
			allTerm = false
		}
	}
	if !hasDefault {
		if w.Must && allTerm {
			return w.minusBranches(body, held), false
		}
		return w.minusBranches(body, w.join(out, held)), false
	}
	if allTerm && len(body.List) > 0 {
		return held, true
	}
	if w.Must { // one of the clauses ran
		return w.minusBranches(body, out), false
	}
	return union(out, held), false
}

// node visits n and everything under it, walking function literals as
// nested bodies.
func (w *Walker) node(n ast.Node, held Held) {
	if n == nil {
		return
	}
	ast.Inspect(n, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok {
			w.WalkFunc(lit.Body, held)
			return false
		}
		if n != nil {
			w.Visit(n, held)
		}
		return true
	})
}

// union returns the locks that may be held after either of two paths. A
// lock held on both from different Lock calls (one path unlocked and
// locked it again) has no single critical section: its position is
// token.NoPos.
func union(a, b Held) Held {
	out := maps.Clone(a)
	if out == nil {
		out = Held{}
	}
	for k, v := range b {
		if w, ok := out[k]; !ok {
			out[k] = v
		} else if w != v {
			out[k] = token.NoPos
		}
	}
	return out
}

// IsPanic reports whether e is a call to the panic builtin.
func IsPanic(info *types.Info, e ast.Expr) bool {
	return passutil.IsBuiltinCall(info, e, "panic")
}

// Leaves reports whether block b ends by leaving the function: its last
// statement returns or panics.
func Leaves(info *types.Info, b *ast.BlockStmt) bool {
	if b == nil || len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.ExprStmt:
		return IsPanic(info, s.X)
	}
	return false
}
