package lockpair

import (
	"go/ast"
	"go/token"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A lock of a loop variable (for _, s := range subs { s.mu.Lock() ... })
// is a new lock each iteration. The walk sees the variable redefined on
// the back edge; a lock of the previous value still held then is never
// released by this function. It is reported when other paths of the
// iteration release it, so the function plainly means to unlock each one.

// loopLeak is a lock of a loop variable left held by one iteration.
type loopLeak struct {
	key  string
	site token.Pos // the Lock
	at   token.Pos // the continue or break, or the loop body's closing brace
	verb string    // "continue", "break" or "" (end of the body)
}

// rebound is called when the root of lock key k is redefined on a path
// that still has state h for it: the path went round a loop.
func (w *walker) rebound(st *state, k string, h held, deferred bool) {
	switch h.mode {
	case Write, Read:
		if h.helper || deferred || w.escapes(w.refs[k]) || !dominates(h.blk, st.contBlock) {
			return // a lock helper's contract, released at return, kept elsewhere, or a conditional Lock
		}
		if m, ok := st.rel[k]; ok && m == h.mode {
			// The iteration released the lock it found held (taken in an
			// earlier loop) and took it again in the same mode: it leaves
			// it as it found it (RUnlock(); remove(p); RLock()).
			return
		}
		at, verb := w.continueAfter(st.cont, h.site)
		w.leaks = append(w.leaks, loopLeak{key: k, site: h.site, at: at, verb: verb})
	}
}

// jumped notes a jump from b to succ: the position before a jump to the
// next iteration (a continue or the end of the body), and the locks held
// when a break leaves a loop.
func (w *walker) jumped(st *state, b, succ *ssa.BasicBlock) {
	kind, _, _ := strings.Cut(succ.Comment, ".")
	loopBlock := kind == "for" || strings.HasPrefix(kind, "range") && kind != "rangefunc"
	if !loopBlock {
		return
	}
	switch {
	case strings.HasSuffix(succ.Comment, ".done"):
		// Loop headers leave through an If: a Jump here is a break.
		brk := w.branchAfter(token.BREAK, st.last)
		if !brk.IsValid() {
			return
		}
		body := w.breakTarget(brk)
		for k, h := range st.locks {
			// Only a lock taken in the loop is one per iteration; one
			// taken before it is the return check's business.
			if (h.mode == Write || h.mode == Read) && !h.helper && dominates(h.blk, b) && (body == nil || contains(body, h.site)) {
				if _, ok := st.defers[k]; !ok {
					st.broke[k] = brokeAt{brk, b}
				}
			}
		}
	case succ.Comment == "for.post",
		strings.HasSuffix(succ.Comment, ".loop") && b.Comment != "for.post":
		st.cont, st.contBlock = st.last, b
	}
}

// brokeHeld records, at a return, the locks a break left held that are
// still held: leaks if iterations otherwise release them. A release of
// another lock of the same class or field on this path may be the same
// mutex under another name (found = s; break; ... found.mu.Unlock()).
func (w *walker) brokeHeld(st *state) {
	for k, brk := range st.broke {
		h := st.locks[k]
		if h.mode != Write && h.mode != Read {
			continue
		}
		if _, ok := st.defers[k]; ok || w.aliasReleased(st, k) || w.escapes(w.refs[k]) {
			continue
		}
		w.leaks = append(w.leaks, loopLeak{key: k, site: h.site, at: brk.pos, verb: "break"})
	}
}

func (w *walker) aliasReleased(st *state, k string) bool {
	r := w.refs[k]
	for k2, h := range st.locks {
		if k2 == k || h.mode != released {
			continue
		}
		r2 := w.refs[k2]
		if r.class != "" && r2.class == r.class || lastField(r.name) == lastField(r2.name) {
			return true
		}
	}
	return false
}

func lastField(name string) string { return name[strings.LastIndex(name, ".")+1:] }

// escapes reports whether the loop variable of lock r (its root, or the
// element addresses in its path, or the pointers loaded from them) is kept beyond its iteration: stored, merged into another
// variable, boxed, captured or sent.
func (w *walker) escapes(r lockRef) bool {
	vals := r.elems
	if len(vals) == 0 {
		if r.root == nil {
			return true // a global: not a loop variable
		}
		vals = []ssa.Value{r.root}
	}
	seen := map[ssa.Value]bool{}
	var esc func(v ssa.Value) bool
	esc = func(v ssa.Value) bool {
		if seen[v] {
			return false
		}
		seen[v] = true
		refs := v.Referrers()
		if refs == nil {
			return false
		}
		for _, r := range *refs {
			switch x := r.(type) {
			case *ssa.Store:
				if x.Val == v {
					return true
				}
			case *ssa.Phi, *ssa.MakeInterface, *ssa.MakeClosure, *ssa.Send:
				return true
			case *ssa.UnOp:
				if x.Op == token.MUL && esc(x) {
					return true
				}
			case *ssa.ChangeType:
				if esc(x) {
					return true
				}
			}
		}
		return false
	}
	for _, v := range vals {
		if esc(v) {
			return true
		}
	}
	return false
}

// checkLoopLeaks reports the leaks whose lock the function releases on
// another path.
func (w *walker) checkLoopLeaks() {
	if w.opaque {
		return
	}
	// A break that leaves the loop holding the lock, in a function that
	// returns holding it by contract, hands the lock to the caller.
	contract := w.returnsHolding()
	sort.Slice(w.leaks, func(i, j int) bool {
		if w.leaks[i].at != w.leaks[j].at {
			return w.leaks[i].at < w.leaks[j].at
		}
		return w.leaks[i].key < w.leaks[j].key
	})
	done := map[string]bool{}
	for _, l := range w.leaks {
		if _, rel := w.mayRel[l.key]; !rel || w.poisoned[l.key] || !l.at.IsValid() || contract && l.verb == "break" {
			continue
		}
		id := l.key + "@" + w.pc.posString(l.at)
		if done[id] {
			continue
		}
		done[id] = true
		r := w.refs[l.key]
		switch l.verb {
		case "continue":
			w.report(l.at, RuleLockHeldAtReturn, w.pc.relatedAt(l.site, r.name+" locked here"),
				"%s locked at line %d is still held when this continue moves to the next iteration, which locks another %s: this one is never unlocked (other paths of the iteration release it)",
				r.name, w.line(l.site), rootText(r.name))
		case "break":
			w.report(l.at, RuleLockHeldAtReturn, w.pc.relatedAt(l.site, r.name+" locked here"),
				"%s locked at line %d is still held when this break leaves the loop and the function returns with it held (other paths of the iteration release it)",
				r.name, w.line(l.site))
		default:
			w.report(l.at, RuleLockHeldAtReturn, w.pc.relatedAt(l.site, r.name+" locked here"),
				"%s locked at line %d can still be held at the end of the loop body; the next iteration locks another %s and this one is never unlocked (other paths of the iteration release it)",
				r.name, w.line(l.site), rootText(r.name))
		}
	}
}

// rootText is the variable part of a lock name: s for s.mu.
func rootText(name string) string {
	if i := strings.LastIndex(name, "."); i > 0 {
		return name[:i]
	}
	return name
}

// loopSyntax is the function's loops and branch statements, for naming
// the continue or break a leak goes through.
type loopSyntax struct {
	loops    []*ast.BlockStmt // loop bodies
	branches []branchStmt
}

type branchStmt struct {
	tok    token.Token
	pos    token.Pos
	target *ast.BlockStmt // body of the loop it continues or breaks; nil for switch/select
}

func (w *walker) syntax() *loopSyntax {
	if w.loopSyn != nil {
		return w.loopSyn
	}
	ls := &loopSyntax{}
	w.loopSyn = ls
	var body *ast.BlockStmt
	switch s := w.fn.Syntax().(type) {
	case *ast.FuncDecl:
		body = s.Body
	case *ast.FuncLit:
		body = s.Body
	}
	if body == nil {
		return ls
	}
	labels := map[string]*ast.BlockStmt{}
	// breakable: innermost-last stack of loop bodies, nil for a switch or
	// select (an unlabeled break there leaves the switch).
	var stack []*ast.BlockStmt
	var loopStack []*ast.BlockStmt
	var visit func(n ast.Node, label string)
	visitList := func(list []ast.Stmt) {
		for _, s := range list {
			visit(s, "")
		}
	}
	visit = func(n ast.Node, label string) {
		switch s := n.(type) {
		case nil:
		case *ast.LabeledStmt:
			visit(s.Stmt, s.Label.Name)
		case *ast.ForStmt, *ast.RangeStmt:
			var b *ast.BlockStmt
			if f, ok := s.(*ast.ForStmt); ok {
				b = f.Body
			} else {
				b = s.(*ast.RangeStmt).Body
			}
			if label != "" {
				labels[label] = b
			}
			ls.loops = append(ls.loops, b)
			stack = append(stack, b)
			loopStack = append(loopStack, b)
			visitList(b.List)
			stack = stack[:len(stack)-1]
			loopStack = loopStack[:len(loopStack)-1]
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			stack = append(stack, nil)
			ast.Inspect(s, func(m ast.Node) bool {
				switch c := m.(type) {
				case *ast.CaseClause:
					visitList(c.Body)
					return false
				case *ast.CommClause:
					visitList(c.Body)
					return false
				}
				return m == s || !isStmt(m)
			})
			stack = stack[:len(stack)-1]
		case *ast.BranchStmt:
			bs := branchStmt{tok: s.Tok, pos: s.Pos()}
			switch {
			case s.Label != nil:
				bs.target = labels[s.Label.Name] // nil for a labeled switch
			case s.Tok == token.BREAK && len(stack) > 0:
				bs.target = stack[len(stack)-1]
			case s.Tok == token.CONTINUE && len(loopStack) > 0:
				bs.target = loopStack[len(loopStack)-1]
			}
			if bs.target != nil && (s.Tok == token.BREAK || s.Tok == token.CONTINUE) {
				ls.branches = append(ls.branches, bs)
			}
		case *ast.BlockStmt:
			visitList(s.List)
		case *ast.IfStmt:
			visit(s.Body, "")
			visit(s.Else, "")
		case *ast.FuncLit:
			// another function
		}
	}
	visitList(body.List)
	sort.Slice(ls.branches, func(i, j int) bool { return ls.branches[i].pos < ls.branches[j].pos })
	return ls
}

func isStmt(n ast.Node) bool { _, ok := n.(ast.Stmt); return ok }

func contains(b *ast.BlockStmt, pos token.Pos) bool {
	return b != nil && b.Lbrace <= pos && pos <= b.Rbrace
}

// branchAfter is the first break or continue statement after pos whose
// loop contains pos.
func (w *walker) branchAfter(tok token.Token, pos token.Pos) token.Pos {
	if !pos.IsValid() {
		return token.NoPos
	}
	for _, b := range w.syntax().branches {
		if b.tok == tok && b.pos > pos && contains(b.target, pos) {
			return b.pos
		}
	}
	return token.NoPos
}

// breakTarget returns the body of the loop the break at pos leaves.
func (w *walker) breakTarget(pos token.Pos) *ast.BlockStmt {
	for _, b := range w.syntax().branches {
		if b.pos == pos {
			return b.target
		}
	}
	return nil
}

// continueAfter names where an iteration that was at pos (the last
// position before the jump) moves to the next one with the lock taken at
// site held: the first continue after pos in a loop containing both, or
// else the closing brace of the innermost loop body containing site.
func (w *walker) continueAfter(pos, site token.Pos) (token.Pos, string) {
	ls := w.syntax()
	if pos.IsValid() {
		for _, b := range ls.branches {
			if b.tok == token.CONTINUE && b.pos > pos && contains(b.target, pos) && contains(b.target, site) {
				return b.pos, "continue"
			}
		}
	}
	var in *ast.BlockStmt
	for _, l := range ls.loops {
		if contains(l, site) && (in == nil || contains(in, l.Lbrace)) {
			in = l
		}
	}
	if in == nil {
		return token.NoPos, ""
	}
	return in.Rbrace, ""
}

// dominates reports whether the Lock's block dominates the block that
// leaves the iteration. A Lock under a condition (if sub.client != c {
// Lock }) is usually released under the same condition recomputed, which
// the walk cannot correlate: only an unconditional Lock is reported.
func dominates(lock, at *ssa.BasicBlock) bool {
	return lock != nil && at != nil && lock.Dominates(at)
}
