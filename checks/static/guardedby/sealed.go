package guardedby

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// sealedReadOut reports whether o, an access of f in a method of a type
// claimed safe for concurrent use, is a read-out after the concurrent
// phase: before it, the method unconditionally sets a bool field of its
// receiver to true (t.finalized = true), and every other function that
// writes f first leaves when that flag is set (if t.finalized {
// panic(…) } or return). The writers are declared finished when the
// read-out runs (wazy's Table after wg.Wait of every Append).
func (pc *passContext) sealedReadOut(o *obs, f *types.Var, fi *fieldInfo) bool {
	fd, recv := pc.methodDecl(o.fn)
	if fd == nil || o.fn.Parent() != nil {
		return false
	}
	seals := map[*types.Var]bool{}
	for _, st := range fd.Body.List {
		if st.Pos() >= o.pos {
			break
		}
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			continue
		}
		if id, ok := ast.Unparen(as.Rhs[0]).(*ast.Ident); !ok || id.Name != "true" {
			continue
		}
		if flag := pc.recvBool(as.Lhs[0], recv); flag != nil {
			seals[flag] = true
		}
	}
	if len(seals) == 0 {
		return false
	}
	writers := 0
	for _, w := range fi.obs {
		if !w.write || topLevel(w.fn) == o.fn {
			continue
		}
		writers++
		wd, wrecv := pc.methodDecl(topLevel(w.fn))
		if wd == nil || !pc.leavesWhenSealed(wd, wrecv, seals, w.pos) {
			return false
		}
	}
	return writers > 0
}

// methodDecl returns fn's declaration and receiver object, when fn is a
// method declared in source with a named receiver.
func (pc *passContext) methodDecl(fn *ssa.Function) (*ast.FuncDecl, types.Object) {
	fd, ok := fn.Syntax().(*ast.FuncDecl)
	if !ok || fd.Body == nil || fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return nil, nil
	}
	recv := pc.pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
	if recv == nil {
		return nil, nil
	}
	return fd, recv
}

// recvBool returns the bool field that e selects directly on recv.
func (pc *passContext) recvBool(e ast.Expr, recv types.Object) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if id, ok := ast.Unparen(sel.X).(*ast.Ident); !ok || pc.pass.TypesInfo.Uses[id] != recv {
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
	if b, ok := v.Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return nil
	}
	return v.Origin()
}

// leavesWhenSealed reports whether a top-level statement of fd before
// pos is if recv.F { …; panic or return } for a flag F in seals.
func (pc *passContext) leavesWhenSealed(fd *ast.FuncDecl, recv types.Object, seals map[*types.Var]bool, pos token.Pos) bool {
	for _, st := range fd.Body.List {
		if st.Pos() >= pos {
			return false
		}
		is, ok := st.(*ast.IfStmt)
		if !ok || is.Init != nil || is.Else != nil || len(is.Body.List) == 0 {
			continue
		}
		if flag := pc.recvBool(is.Cond, recv); flag == nil || !seals[flag] {
			continue
		}
		switch last := is.Body.List[len(is.Body.List)-1].(type) {
		case *ast.ReturnStmt:
			return true
		case *ast.ExprStmt:
			if call, ok := ast.Unparen(last.X).(*ast.CallExpr); ok {
				if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
					if b, ok := pc.pass.TypesInfo.Uses[id].(*types.Builtin); ok && b.Name() == "panic" {
						return true
					}
				}
			}
		}
	}
	return false
}
