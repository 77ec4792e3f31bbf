package guardedby

// A read ordered after every write by a channel that is only closed
// (a gate: Set writes g.name under g.mu and closes g.ready in the same
// section; Name reads g.name without g.mu in a `case <-g.ready:`). The
// channel can be closed once (a second close panics), so every write
// followed by its close happens before the close, and a receive that
// returns because of the close happens after it: the read cannot race
// with any write.

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// closedAfterWrites reports whether the read o of f, on its method's
// receiver, runs only after a receive from a channel field C of the same
// receiver (in the body of a select case `<-x.C`), where C is never sent on and only
// assigned in constructors, init functions or tests, and every write of
// f (outside constructors) is on its method's receiver and followed, in
// the statement list that holds the write, by close(x.C) with no return,
// break, continue or goto between them.
func (pc *passContext) closedAfterWrites(f *types.Var, info *fieldInfo, o *obs) bool {
	if o.write || o.fn == nil || !o.onRecv {
		return false
	}
	body := syntaxBody(o.fn.Syntax())
	if body == nil {
		return false
	}
	for _, c := range pc.receivedBefore(body, o.base, o.pos) {
		if !pc.onlyClosed(c) {
			continue
		}
		writes, ok := 0, true
		for _, w := range info.obs {
			if !w.write {
				continue
			}
			writes++
			if w.fn == nil || !w.onRecv || !pc.closeFollows(syntaxBody(w.fn.Syntax()), w, c) {
				ok = false
				break
			}
		}
		if ok && writes > 0 {
			return true
		}
	}
	return false
}

func syntaxBody(n ast.Node) *ast.BlockStmt {
	switch n := n.(type) {
	case *ast.FuncDecl:
		return n.Body
	case *ast.FuncLit:
		return n.Body
	}
	return nil
}

// receivedFrom returns the channel field that s receives from through a
// base written base (<-x.C, v := <-x.C, v, ok := <-x.C), or nil.
func (pc *passContext) receivedFrom(s ast.Stmt, base string) *types.Var {
	var e ast.Expr
	switch s := s.(type) {
	case *ast.ExprStmt:
		e = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			e = s.Rhs[0]
		}
	}
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return nil
	}
	return pc.chanField(u.X, base)
}

// chanField returns the channel field e selects (x.C) when x is written
// base, or nil.
func (pc *passContext) chanField(e ast.Expr, base string) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || types.ExprString(sel.X) != base {
		return nil
	}
	s := pc.pass.TypesInfo.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return nil
	}
	v, ok := s.Obj().(*types.Var)
	if !ok {
		return nil
	}
	if _, ok := v.Type().Underlying().(*types.Chan); !ok {
		return nil
	}
	return v
}

// receivedBefore returns the channel fields of base that body received
// from in a select case whose body holds pos (case <-x.C: … pos …). A
// read after a blocking receive is not counted at all (afterSync); a
// select with a default case is not blocking.
func (pc *passContext) receivedBefore(body *ast.BlockStmt, base string, pos token.Pos) []*types.Var {
	var out []*types.Var
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || pos < n.Pos() || pos >= n.End() {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // runs elsewhere
		case *ast.CommClause:
			if n.Comm != nil && pos > n.Colon {
				if c := pc.receivedFrom(n.Comm, base); c != nil {
					out = append(out, c)
				}
			}
		}
		return true
	})
	return out
}

// onlyClosed reports whether the channel field c is never sent on in the
// package and assigned only in constructors, init functions and test
// files (composite literals aside).
func (pc *passContext) onlyClosed(c *types.Var) bool {
	if r, ok := pc.closedOnly[c]; ok {
		return r
	}
	ok := true
	for _, file := range pc.pass.Files {
		if strings.HasSuffix(pc.pass.Fset.Position(file.Pos()).Filename, "_test.go") {
			continue
		}
		for _, d := range file.Decls {
			fd, isFunc := d.(*ast.FuncDecl)
			if !isFunc || fd.Body == nil {
				continue
			}
			setup := fd.Recv == nil && (lockset.IsInitName(fd.Name.Name) || lockset.IsConstructorName(fd.Name.Name))
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.SendStmt:
					if pc.selects(n.Chan, c) {
						ok = false
					}
				case *ast.AssignStmt:
					for _, l := range n.Lhs {
						if pc.selects(l, c) && !setup {
							ok = false
						}
					}
				case *ast.UnaryExpr:
					if n.Op == token.AND && pc.selects(n.X, c) {
						ok = false // its address handed out
					}
				}
				return ok
			})
		}
	}
	if pc.closedOnly == nil {
		pc.closedOnly = map[*types.Var]bool{}
	}
	pc.closedOnly[c] = ok
	return ok
}

// closeFollows reports whether the write w is a statement of a list in
// body that a later statement close(x.C) of the same list follows (x
// written as w's base), with no return, break, continue or goto between.
func (pc *passContext) closeFollows(body *ast.BlockStmt, w *obs, c *types.Var) bool {
	if body == nil {
		return false
	}
	found := false
	check := func(stmts []ast.Stmt) {
		for i, s := range stmts {
			as, ok := s.(*ast.AssignStmt)
			if !ok || w.pos < as.Pos() || w.pos >= as.End() {
				continue
			}
			for _, t := range stmts[i+1:] {
				if pc.closes(t, w.base, c) {
					found = true
					return
				}
				if leaves(t) {
					return
				}
			}
			return
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil || w.pos < n.Pos() || w.pos >= n.End() {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			check(n.List)
		case *ast.CaseClause:
			check(n.Body)
		case *ast.CommClause:
			check(n.Body)
		}
		return true
	})
	return found
}

// closes reports whether s is close(x.C) with x written base.
func (pc *passContext) closes(s ast.Stmt, base string, c *types.Var) bool {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || pc.pass.TypesInfo.Uses[id] != types.Universe.Lookup("close") {
		return false
	}
	return pc.chanField(call.Args[0], base) == c
}

// leaves reports whether s may leave its list before the statements after
// it run: a return, break, continue or goto anywhere in it outside
// function literals.
func leaves(s ast.Stmt) bool {
	out := false
	ast.Inspect(s, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt, *ast.BranchStmt:
			out = true
		}
		return !out
	})
	return out
}
