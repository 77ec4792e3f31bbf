package passutil

// Method values kept inside the value they capture: r.process =
// r.defaultProcess, r.info = newInfoCache(r.names), r.setProcessor(r.run)
// store the function value in r, which shares nothing until r is
// published (published, harmlessCall).

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// keptMethodValue reports whether the method value sel (x.M, or M of a
// part of x) is only stored in x: assigned to a field of x, passed to a
// function of the package whose result is so assigned and which keeps
// the parameter in that result, or passed to a method called on x (or a
// struct-valued part of x) that keeps the parameter in its receiver. A
// stored function value runs only once a goroutine finds it, through x.
func (pc *Publication) keptMethodValue(sel *ast.SelectorExpr, i int, stack []ast.Node, x *types.Var) bool {
	if i < 1 {
		return false
	}
	info := pc.Pass.TypesInfo
	switch p := stack[i-1].(type) {
	case *ast.AssignStmt:
		return assignedToPart(info, p, sel, x)
	case *ast.CallExpr:
		j := argIndex(p, sel)
		if j < 0 || p.Ellipsis.IsValid() {
			return false
		}
		callee := typeutil.StaticCallee(info, p)
		if callee == nil {
			return false
		}
		fd := pc.funcDecls()[callee.Origin()]
		if fd == nil {
			return false
		}
		param := paramAt(callee.Origin(), j)
		if param == nil {
			return false
		}
		if callee.Signature().Recv() != nil {
			fs, ok := ast.Unparen(p.Fun).(*ast.SelectorExpr)
			return ok && partOf(info, fs.X, x) && pc.keptInRecv(fd, param, 0)
		}
		if i < 2 {
			return false
		}
		as, ok := stack[i-2].(*ast.AssignStmt)
		return ok && assignedToPart(info, as, p, x) && keptInResult(info, fd, param)
	}
	return false
}

// assignedToPart reports whether as assigns rhs to a field of x (through
// struct-valued fields only).
func assignedToPart(info *types.Info, as *ast.AssignStmt, rhs ast.Expr, x *types.Var) bool {
	if len(as.Lhs) != len(as.Rhs) || as.Tok != token.ASSIGN {
		return false
	}
	for k, r := range as.Rhs {
		if ast.Unparen(r) == rhs {
			l, ok := ast.Unparen(as.Lhs[k]).(*ast.SelectorExpr)
			return ok && partOf(info, l.X, x)
		}
	}
	return false
}

// partOf reports whether e is x, or a field of x reached through
// struct-valued fields (memory inside x).
func partOf(info *types.Info, e ast.Expr, x *types.Var) bool {
	for {
		switch v := ast.Unparen(e).(type) {
		case *ast.Ident:
			return info.Uses[v] == x
		case *ast.SelectorExpr:
			s := info.Selections[v]
			if s == nil || s.Kind() != types.FieldVal || len(s.Index()) != 1 {
				return false
			}
			if _, ok := s.Type().Underlying().(*types.Struct); !ok {
				return false
			}
			e = v.X
		default:
			return false
		}
	}
}

// keptInRecv reports whether every use of param in fd stores it in a
// field of fd's receiver or passes it to a method of the receiver that
// does.
func (pc *Publication) keptInRecv(fd *ast.FuncDecl, param *types.Var, depth int) bool {
	info := pc.Pass.TypesInfo
	fn, _ := info.Defs[fd.Name].(*types.Func)
	if fn == nil || fn.Signature().Recv() == nil || depth > 3 || Reassigned(info, fd.Body, param) {
		return false
	}
	recv := fn.Signature().Recv()
	ok := true
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !ok || !isID || info.Uses[id] != param {
			return ok
		}
		if len(stack) == 0 || InsideFuncLit(stack) {
			ok = false
			return false
		}
		switch p := stack[len(stack)-1].(type) {
		case *ast.AssignStmt:
			ok = assignedToPart(info, p, id, recv)
		case *ast.CallExpr:
			callee := typeutil.StaticCallee(info, p)
			fs, isSel := ast.Unparen(p.Fun).(*ast.SelectorExpr)
			ok = false
			if callee != nil && callee.Signature().Recv() != nil && isSel && partOf(info, fs.X, recv) && !p.Ellipsis.IsValid() {
				if k := argIndex(p, id); k >= 0 {
					d, q := pc.funcDecls()[callee.Origin()], paramAt(callee.Origin(), k)
					ok = d != nil && q != nil && pc.keptInRecv(d, q, depth+1)
				}
			}
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// keptInResult reports whether every use of param in fd is a field value
// of a composite literal fd returns (return &T{fn: fn}).
func keptInResult(info *types.Info, fd *ast.FuncDecl, param *types.Var) bool {
	if Reassigned(info, fd.Body, param) {
		return false
	}
	ok := true
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !ok || !isID || info.Uses[id] != param {
			return ok
		}
		k := len(stack) - 1
		kv, isKV := stackAt(stack, k).(*ast.KeyValueExpr)
		lit, isLit := stackAt(stack, k-1).(*ast.CompositeLit)
		ok = isKV && kv.Value == id && isLit
		if !ok {
			return false
		}
		var parent ast.Node = stackAt(stack, k-2)
		if u, isU := parent.(*ast.UnaryExpr); isU && u.Op == token.AND && u.X == lit {
			parent = stackAt(stack, k-3)
		}
		_, ok = parent.(*ast.ReturnStmt)
		return ok
	})
	return ok
}

// argIndex is the index of e among call's arguments (the last if it is
// there twice), or -1.
func argIndex(call *ast.CallExpr, e ast.Expr) int {
	j := -1
	for k, a := range call.Args {
		if ast.Unparen(a) == e {
			j = k
		}
	}
	return j
}

func stackAt(stack []ast.Node, k int) ast.Node {
	if k < 0 || k >= len(stack) {
		return nil
	}
	return stack[k]
}

// CalledUnpublished reports whether every call of fd outside tests (at
// least one, none through a method value, a go or defer statement or a
// literal) is on a receiver its caller has not published at the call:
// a variable unpublished there (as BeforePublication's), or a field of
// one that the caller set to a new value in the literal that made it
// and never assigns again (r := &Ring{shards: newShards()};
// r.shards.Add(…)). v is the field whose accesses matter.
func (pc *Publication) CalledUnpublished(fd *ast.FuncDecl, v *types.Var) bool {
	info := pc.Pass.TypesInfo
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok || fn.Signature().Recv() == nil {
		return false
	}
	idx := pc.pubIndex()
	sites := idx.calls[fn]
	if len(sites) == 0 || idx.valued[fn] {
		return false
	}
	for _, s := range sites {
		if InsideFuncLit(s.stack) || len(s.stack) > 0 && isGoOrDefer(s.stack[len(s.stack)-1]) {
			return false
		}
		arg := callArg(info, s.call, -1)
		var y *types.Var
		switch a := arg.(type) {
		case *ast.Ident:
			y, _ = info.Uses[a].(*types.Var)
		case *ast.SelectorExpr:
			id, isID := ast.Unparen(a.X).(*ast.Ident)
			if !isID {
				return false
			}
			y, _ = info.Uses[id].(*types.Var)
			if y == nil || !pc.freshField(s.caller, y, pc.Var(a)) {
				return false
			}
		}
		if y == nil || !pc.unpublishedAt(s.caller, y, v, s.call.Pos(), map[*types.Var]bool{}) {
			return false
		}
	}
	return true
}

// freshField reports whether fd defines y by a composite literal (or its
// address) whose field f is a new value, and assigns y.f nowhere else.
func (pc *Publication) freshField(fd *ast.FuncDecl, y, f *types.Var) bool {
	if f == nil {
		return false
	}
	info := pc.Pass.TypesInfo
	set, again := false, false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok && info.Defs[id] == y && n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
					set = literalSets(info, n.Rhs[i], f, pc.Allocated)
				}
				if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && pc.Var(sel) == f && selectsOn(info, sel, y) {
					again = true
				}
			}
		case *ast.UnaryExpr:
			if sel, ok := ast.Unparen(n.X).(*ast.SelectorExpr); ok && n.Op == token.AND && pc.Var(sel) == f && selectsOn(info, sel, y) {
				again = true
			}
		}
		return true
	})
	return set && !again
}

// selectsOn reports whether sel is y.f for the variable y.
func selectsOn(info *types.Info, sel *ast.SelectorExpr, y *types.Var) bool {
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	return ok && info.Uses[id] == y
}

// literalSets reports whether e is T{…} or &T{…} with f: <a new value>.
func literalSets(info *types.Info, e ast.Expr, f *types.Var, allocated func(ast.Expr) bool) bool {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return false
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if k, ok := kv.Key.(*ast.Ident); ok && info.Uses[k] == f {
			return allocated(kv.Value)
		}
	}
	return false
}
