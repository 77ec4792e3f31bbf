package lockregion

// Caller locksets: the mutexes every caller of a function holds.

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

// maxCallerRounds bounds the propagation down call chains (a helper of a
// helper of a locked method).
const maxCallerRounds = 8

// CallerLocks returns, for each function and method declared in files
// whose every call is visible there, the mutexes (named by keyOf, as in
// Walker.KeyOf) held exclusively at every one of its calls, directly or
// by the caller's own callers. A function qualifies when its name is
// unexported (not init or main), it is only ever called directly (never
// used as a value, a method value or expression), and, for a method, no
// interface type of the package has a method of that name. A call in a
// go or defer statement, in a function literal that does not run on the
// spot (RunsHere), outside a function, or in a function that uses goto or takes an
// Unlock method value holds nothing. Functions absent from the result
// have no such lock.
func CallerLocks(files []*ast.File, info *types.Info, keyOf func(ast.Expr) string, args ArgRuns) map[*types.Func][]string {
	return CallerLocksWith(files, info, keyOf, args, CallerOpts{})
}

// CallerOpts varies CallerLocks. AnyMode counts a read lock as held (the
// mutexes every call holds in some mode: such a lock orders the
// function's reads only with writes made under the write side).
type CallerOpts struct {
	AnyMode bool
	// Exported makes exported functions and methods (not init or main)
	// candidates too, decided by their calls in files alone (at least
	// one): the caller must answer for calls from other packages.
	Exported bool
	// GoLiterals counts a call in the function literal of a go statement
	// (go func() { mu.RLock(); f(); mu.RUnlock() }()) with the locks the
	// literal takes before it: the new goroutine starts with none, and
	// the walk starts it with none.
	GoLiterals bool
}

// CallerLocksWith is CallerLocks with opts.
func CallerLocksWith(files []*ast.File, info *types.Info, keyOf func(ast.Expr) string, args ArgRuns, opts CallerOpts) map[*types.Func][]string {
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					decls[fn] = fd
				}
			}
		}
	}
	ifaceMethods := map[string]bool{}
	for _, tv := range info.Types {
		if it, ok := tv.Type.Underlying().(*types.Interface); ok {
			for m := range it.Methods() {
				ifaceMethods[m.Name()] = true
			}
		}
	}
	candidate := map[*types.Func]bool{}
	for fn := range decls {
		sig := fn.Type().(*types.Signature)
		name := fn.Name()
		switch {
		case token.IsExported(name) && !opts.Exported, name == "_":
		case sig.Recv() == nil && (name == "init" || name == "main"):
		case sig.Recv() != nil && ifaceMethods[name]:
		default:
			candidate[fn] = true
		}
	}

	// The sites: every use of a candidate, with the function it is in.
	type site struct {
		caller *ast.FuncDecl // nil: the call holds nothing
		call   *ast.CallExpr
	}
	sites := map[*types.Func][]site{}
	poisoned := map[*ast.FuncDecl]bool{} // goto, or an Unlock method value
	unlocks := map[*types.Func][]string{}
	callees := map[*types.Func][]*types.Func{}
	ops := &Walker{Info: info, KeyOf: keyOf} // for lockCall
	for _, f := range files {
		ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
			// The enclosing function declaration: declarations are the
			// file's children and do not nest.
			var fd *ast.FuncDecl
			if len(stack) > 1 {
				fd, _ = stack[1].(*ast.FuncDecl)
			}
			switch n := n.(type) {
			case *ast.BranchStmt:
				if n.Tok == token.GOTO && fd != nil {
					poisoned[fd] = true
				}
			case *ast.SelectorExpr:
				if unlockValue(info, n, stack) && fd != nil {
					poisoned[fd] = true
				}
			case *ast.CallExpr:
				if fd == nil {
					break
				}
				caller, _ := info.Defs[fd.Name].(*types.Func)
				if op, key, _ := ops.lockCall(n); op == opUnlock && caller != nil {
					unlocks[caller] = append(unlocks[caller], key)
				}
				if callee := staticCallee(info, n); callee != nil && caller != nil {
					callees[caller] = append(callees[caller], callee)
				}
			case *ast.Ident:
				fn, ok := info.Uses[n].(*types.Func)
				if !ok {
					break
				}
				fn = fn.Origin()
				if !candidate[fn] {
					break
				}
				call, at := calleeOf(n, stack)
				if call == nil {
					delete(candidate, fn) // used as a value: callers unknown
					break
				}
				s := site{caller: fd, call: call}
				if fd == nil || !runsHere(stack[:at], args, opts.GoLiterals) {
					s.caller = nil
				}
				sites[fn] = append(sites[fn], s)
			}
			return true
		})
	}
	// A helper's releases reach its callers: a call of it drops them.
	// They are sets (has mirrors unlocks, a membership test is not a
	// scan), and a callee called from many sites is one edge.
	has := map[*types.Func]map[string]bool{}
	for fn, ks := range unlocks {
		has[fn] = map[string]bool{}
		uniq := ks[:0]
		for _, k := range ks {
			if !has[fn][k] {
				has[fn][k] = true
				uniq = append(uniq, k)
			}
		}
		unlocks[fn] = uniq
	}
	for fn, cs := range callees {
		seen := map[*types.Func]bool{}
		uniq := cs[:0]
		for _, c := range cs {
			if !seen[c] && c != fn {
				seen[c] = true
				uniq = append(uniq, c)
			}
		}
		callees[fn] = uniq
	}
	for changed := true; changed; {
		changed = false
		for fn, cs := range callees {
			for _, c := range cs {
				for _, k := range unlocks[c] {
					if !has[fn][k] {
						if has[fn] == nil {
							has[fn] = map[string]bool{}
						}
						has[fn][k] = true
						unlocks[fn] = append(unlocks[fn], k)
						changed = true
					}
				}
			}
		}
	}

	// Greatest fixpoint: entries start unknown (nil) and shrink.
	entry := map[*types.Func]Held{}
	// heldAt holds the state at each call of the callers walked; a
	// caller's calls are set by its walk alone, so a caller walked from
	// the same entry as in an earlier round is not walked again (walkedIn,
	// callsIn: its entry and calls then).
	heldAt := map[*ast.CallExpr]Held{}
	walkedIn := map[*ast.FuncDecl]Held{}
	callsIn := map[*ast.FuncDecl][]*ast.CallExpr{}
	var cur *ast.FuncDecl
	w := &Walker{Info: info, KeyOf: keyOf, Must: true, Exclusive: !opts.AnyMode,
		unlocks: func(call *ast.CallExpr) []string {
			if c := staticCallee(info, call); c != nil {
				return unlocks[c]
			}
			return nil
		},
		Visit: func(n ast.Node, held Held) {
			if call, ok := n.(*ast.CallExpr); ok {
				if old, seen := heldAt[call]; seen {
					held = intersect(old, held)
				} else {
					callsIn[cur] = append(callsIn[cur], call)
				}
				heldAt[call] = held
			}
		}}
	for round := 0; ; round++ {
		// Walk every caller of a candidate from its own entry.
		walked := map[*ast.FuncDecl]bool{}
		for fn := range candidate {
			for _, s := range sites[fn] {
				if s.caller == nil || walked[s.caller] || poisoned[s.caller] {
					continue
				}
				walked[s.caller] = true
				in := Held{}
				if c, ok := info.Defs[s.caller.Name].(*types.Func); ok && candidate[c] && !ownEntry(c, opts) {
					e, known := entry[c]
					if !known {
						continue // its callers are not resolved yet
					}
					in = e
				}
				if old, ok := walkedIn[s.caller]; ok && maps.Equal(old, in) {
					continue // its calls' states are those of its last walk
				}
				for _, call := range callsIn[s.caller] {
					delete(heldAt, call)
				}
				callsIn[s.caller] = nil
				walkedIn[s.caller] = maps.Clone(in)
				cur = s.caller
				w.WalkFunc(s.caller.Body, in)
			}
		}
		changed := false
		for fn := range candidate {
			var acc Held
			unknown := false
			for _, s := range sites[fn] {
				held := Held{}
				if s.caller != nil && !poisoned[s.caller] {
					if c, ok := info.Defs[s.caller.Name].(*types.Func); ok && candidate[c] && !ownEntry(c, opts) {
						if _, known := entry[c]; !known {
							unknown = unknown || c != fn
							continue // resolved in a later round
						}
					}
					held = heldAt[s.call]
				}
				if acc == nil {
					acc = held
				} else {
					acc = intersect(acc, held)
				}
			}
			if acc == nil {
				if unknown || len(sites[fn]) > 0 {
					continue // only recursive or unresolved callers so far
				}
				acc = Held{} // never called here
			}
			if old, known := entry[fn]; !known || len(old) != len(acc) {
				entry[fn] = acc
				changed = true
			}
		}
		if !changed {
			break
		}
		if round == maxCallerRounds {
			return nil // not converged: claim nothing
		}
	}
	out := map[*types.Func][]string{}
	for fn := range candidate {
		e, known := entry[fn]
		if !known || len(e) == 0 {
			continue
		}
		for k := range e {
			out[fn] = append(out[fn], k)
		}
		slices.Sort(out[fn])
	}
	return out
}

// passedOn reports whether fn is an exported candidate (opts.Exported):
// its entry lockset is its own answer, decided by this package's calls
// alone, and is not passed on to the functions it calls (they are walked
// from its body with nothing held), so the caller's check of an exported
// function (atomicmix's touchesOrdered) cannot be skipped through a
// helper.
func ownEntry(fn *types.Func, opts CallerOpts) bool {
	return opts.Exported && token.IsExported(fn.Name())
}

// calleeOf returns the call whose callee id is (f(...), x.f(...),
// f[T](...)) and its index in stack, or nil when id is used otherwise.
func calleeOf(id *ast.Ident, stack []ast.Node) (*ast.CallExpr, int) {
	var e ast.Node = id
	for i := len(stack) - 1; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.SelectorExpr:
			if p.Sel != e {
				return nil, 0
			}
			e = p
		case *ast.IndexExpr:
			if p.X != e {
				return nil, 0
			}
			e = p
		case *ast.IndexListExpr:
			if p.X != e {
				return nil, 0
			}
			e = p
		case *ast.ParenExpr:
			e = p
		case *ast.CallExpr:
			if p.Fun == e {
				return p, i
			}
			return nil, 0
		default:
			return nil, 0
		}
	}
	return nil, 0
}

// ArgRuns says what the callee of call does with its argument i, a
// function: calls it on the caller's goroutine before returning (calls),
// or returns it unchanged (returns). Nil knows no callee.
type ArgRuns func(call *ast.CallExpr, i int) (calls, returns bool)

// RunsHere reports whether a call whose ancestors are stack runs in the
// body of its enclosing function declaration, with that function's
// locks: not in a go or defer statement, and not in a function literal
// unless the literal runs on the spot (litRuns).
func RunsHere(stack []ast.Node, args ArgRuns) bool {
	return runsHere(stack, args, false)
}

// runsHere is RunsHere; with goLits, a call in the literal of a go
// statement (go func() { … }()) counts too, from the literal's own
// start: the walk starts such a literal with no lock held (Walker).
func runsHere(stack []ast.Node, args ArgRuns, goLits bool) bool {
	if len(stack) > 0 {
		switch stack[len(stack)-1].(type) {
		case *ast.GoStmt, *ast.DeferStmt:
			return false
		}
	}
	for i := len(stack) - 1; i >= 0; i-- {
		if lit, ok := stack[i].(*ast.FuncLit); ok && !litRuns(stack[:i], lit, args) {
			return goLits && goLiteral(stack[:i], lit)
		}
	}
	return true
}

// goLiteral reports whether lit, whose ancestors are stack, is the
// function of a go statement: go func() { … }().
func goLiteral(stack []ast.Node, lit *ast.FuncLit) bool {
	if len(stack) < 2 {
		return false
	}
	call, ok := stack[len(stack)-1].(*ast.CallExpr)
	if !ok || call.Fun != lit {
		return false
	}
	g, ok := stack[len(stack)-2].(*ast.GoStmt)
	return ok && g.Call == call
}

// litRuns reports whether the literal lit, whose ancestors are stack,
// runs on the spot: called where it is written, or handed to a callee
// that calls it before returning (args), directly or through callees
// that return it unchanged (wrap(lit) handed on); not in a go or defer
// statement.
func litRuns(stack []ast.Node, lit *ast.FuncLit, args ArgRuns) bool {
	var e ast.Expr = lit
	for j := len(stack) - 1; j >= 0; j-- {
		switch p := stack[j].(type) {
		case *ast.ParenExpr:
			e = p
			continue
		case *ast.CallExpr:
			if j > 0 {
				switch stack[j-1].(type) {
				case *ast.GoStmt, *ast.DeferStmt:
					return false
				}
			}
			if p.Fun == e {
				return true
			}
			i := slices.Index(p.Args, e)
			if args == nil || i < 0 || p.Ellipsis.IsValid() {
				return false
			}
			calls, returns := args(p, i)
			if calls {
				return true
			}
			if !returns {
				return false
			}
			e = p
			continue
		}
		return false
	}
	return false
}

// unlockValue reports whether sel is the method value of a sync
// Unlock or RUnlock (unlock := mu.Unlock): a release the walk cannot see.
func unlockValue(info *types.Info, sel *ast.SelectorExpr, stack []ast.Node) bool {
	if sel.Sel.Name != "Unlock" && sel.Sel.Name != "RUnlock" {
		return false
	}
	if len(stack) > 0 {
		if c, ok := stack[len(stack)-1].(*ast.CallExpr); ok && c.Fun == sel {
			return false
		}
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "sync"
}

// staticCallee returns the function or method of the package a call
// statically calls (its generic origin), or nil.
func staticCallee(info *types.Info, call *ast.CallExpr) *types.Func {
	if fn := typeutil.StaticCallee(info, call); fn != nil {
		return fn.Origin()
	}
	return nil
}

// TypeKey names the mutex x by the type its root variable points to and
// the field path (pkg.T.stats.mu for s.stats.mu, s a *T), so one lock
// class has one name in every function; a package-level mutex is named
// by itself. A key for CallerLocks.
func TypeKey(info *types.Info, x ast.Expr) string {
	text := types.ExprString(x)
	root := passutil.RootIdent(x)
	if root == nil || !strings.HasPrefix(text, root.Name) {
		return text
	}
	v, ok := info.Uses[root].(*types.Var)
	if !ok || (v.Pkg() != nil && v.Parent() == v.Pkg().Scope()) {
		return text
	}
	t := v.Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	return types.TypeString(t, nil) + text[len(root.Name):]
}
