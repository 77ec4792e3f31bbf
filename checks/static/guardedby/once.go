package guardedby

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// publishedOnce reports whether the read o, in a function literal run
// by a go statement, sees a field that is written only before that go
// statement, in the function that makes it, under a nil check of the
// field (if t.timer == nil { t.timer = newTimer(); go func() { <-t.timer.C
// }() }): set once, then handed to the goroutine, which the go statement
// orders after the write.
func (pc *passContext) publishedOnce(f *types.Var, info *fieldInfo, o *obs) bool {
	lit := o.fn
	if o.write || lit == nil || lit.Parent() == nil {
		return false
	}
	parent := lit.Parent()
	goPos := token.NoPos
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			g, ok := instr.(*ssa.Go)
			if !ok {
				continue
			}
			v := g.Call.Value
			if mc, ok := v.(*ssa.MakeClosure); ok {
				v = mc.Fn
			}
			if v == lit {
				goPos = g.Pos()
			}
		}
	}
	syn := parent.Syntax()
	if !goPos.IsValid() || syn == nil {
		return false
	}
	for _, w := range info.obs {
		if !w.write {
			continue
		}
		if w.fn != parent || w.pos >= goPos || !pc.underNilCheck(syn, f, w.pos) {
			return false
		}
	}
	return true
}

// underNilCheck reports whether pos is in the body of an if statement of
// root whose condition is x.f == nil.
func (pc *passContext) underNilCheck(root ast.Node, f *types.Var, pos token.Pos) bool {
	found := false
	ast.Inspect(root, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || found {
			return !found
		}
		if pos < ifs.Body.Pos() || pos >= ifs.Body.End() {
			return true
		}
		cond, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
		if !ok || cond.Op != token.EQL {
			return true
		}
		if id, ok := ast.Unparen(cond.Y).(*ast.Ident); !ok || id.Name != "nil" {
			return true
		}
		if sel, ok := ast.Unparen(cond.X).(*ast.SelectorExpr); ok {
			if s := pc.pass.TypesInfo.Selections[sel]; s != nil && s.Obj() == f {
				found = true
			}
		}
		return true
	})
	return found
}

// seenSetOnce reports whether the unlocked read o sees a field that is set
// once: every write of it (outside constructors) runs only while it is
// nil (inside if x.f == nil, or after if … x.f != nil … { return }), and
// o's function, earlier and under a lock, tested it against nil and
// returns when it was (noop := t.stopped || t.scheduler == nil; unlock;
// if noop { return }; t.scheduler.Flush()), or o is inside
// if x.f != nil { … } whose test read it under a lock. Once seen non-nil
// under the lock it never changes, so the later read cannot race with the
// write.
func (pc *passContext) seenSetOnce(f *types.Var, info *fieldInfo, o *obs) bool {
	if o.write || o.fn == nil {
		return false
	}
	writes := 0
	for _, w := range info.obs {
		if !w.write {
			continue
		}
		writes++
		syn := topLevel(w.fn).Syntax()
		if syn == nil || !pc.underNilCheck(syn, f, w.pos) && !pc.afterNonNilReturn(syn, f, w.pos) {
			return false
		}
	}
	if writes == 0 {
		return false
	}
	fd, ok := o.fn.Syntax().(*ast.FuncDecl)
	if !ok || fd.Body == nil {
		return false
	}
	// lockedTest: e holds x.f op nil read under a lock.
	lockedTest := func(e ast.Node, op token.Token) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			be, ok := n.(*ast.BinaryExpr)
			if !ok || be.Op != op || !pc.isNil(be.Y) || !pc.selects(be.X, f) {
				return !found
			}
			for _, r := range info.obs {
				if r.fn == o.fn && !r.write && len(r.held) > 0 && r.pos >= be.X.Pos() && r.pos < be.X.End() {
					found = true
				}
			}
			return !found
		})
		return found
	}
	lockedNilTest := func(e ast.Node) bool { return lockedTest(e, token.EQL) }
	// flags: locals assigned from a locked nil test (noop := … == nil).
	flags := map[types.Object]bool{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 && as.Pos() < o.pos && lockedNilTest(as.Rhs[0]) {
			if id, ok := as.Lhs[0].(*ast.Ident); ok {
				flags[pc.pass.TypesInfo.ObjectOf(id)] = true
			}
		}
		return true
	})
	// Inside if x.f != nil { … } with the test under the lock (mgo's
	// socket.Query logs socket.dead after unlocking).
	inside := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if inside || !ok || o.pos < ifs.Body.Pos() || o.pos >= ifs.Body.End() {
			return !inside
		}
		for _, op := range andOperands(ifs.Cond) {
			if be, ok := ast.Unparen(op).(*ast.BinaryExpr); ok && be.Op == token.NEQ && lockedTest(be, token.NEQ) {
				inside = true
			}
		}
		return !inside
	})
	if inside {
		return true
	}
	for _, st := range fd.Body.List {
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.End() > o.pos || !endsInReturn(ifs.Body) {
			continue
		}
		if id, ok := ast.Unparen(ifs.Cond).(*ast.Ident); ok && flags[pc.pass.TypesInfo.Uses[id]] {
			return true
		}
		if lockedNilTest(ifs.Cond) {
			return true
		}
	}
	return false
}

// afterNonNilReturn reports whether pos follows, in the same block, an if
// statement whose condition has x.f != nil as an operand of || (or is it)
// and whose body returns.
func (pc *passContext) afterNonNilReturn(root ast.Node, f *types.Var, pos token.Pos) bool {
	found := false
	ast.Inspect(root, func(n ast.Node) bool {
		blk, ok := n.(*ast.BlockStmt)
		if !ok || found || pos < blk.Pos() || pos >= blk.End() {
			return !found
		}
		for _, st := range blk.List {
			ifs, ok := st.(*ast.IfStmt)
			if !ok || ifs.End() > pos || !endsInReturn(ifs.Body) {
				continue
			}
			for _, op := range orOperands(ifs.Cond) {
				if be, ok := op.(*ast.BinaryExpr); ok && be.Op == token.NEQ && pc.isNil(be.Y) && pc.selects(be.X, f) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// orOperands splits a || b || c.
func orOperands(e ast.Expr) []ast.Expr {
	e = ast.Unparen(e)
	if be, ok := e.(*ast.BinaryExpr); ok && be.Op == token.LOR {
		return append(orOperands(be.X), orOperands(be.Y)...)
	}
	return []ast.Expr{e}
}

// andOperands splits a && b && c.
func andOperands(e ast.Expr) []ast.Expr {
	e = ast.Unparen(e)
	if be, ok := e.(*ast.BinaryExpr); ok && be.Op == token.LAND {
		return append(andOperands(be.X), andOperands(be.Y)...)
	}
	return []ast.Expr{e}
}

// endsInReturn reports whether a block's last statement is a return.
func endsInReturn(b *ast.BlockStmt) bool {
	if b == nil || len(b.List) == 0 {
		return false
	}
	_, ok := b.List[len(b.List)-1].(*ast.ReturnStmt)
	return ok
}

func (pc *passContext) isNil(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name == "nil" && pc.pass.TypesInfo.Uses[id] == types.Universe.Lookup("nil")
}

// selects reports whether e is a selection of the field f (x.f).
func (pc *passContext) selects(e ast.Expr, f *types.Var) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := pc.pass.TypesInfo.Selections[sel]
	return s != nil && s.Obj() == f
}
