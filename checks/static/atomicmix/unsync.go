package atomicmix

import (
	"go/ast"
	"go/token"
	"go/types"
)

// unsyncOwner reports whether the plain write e of v in fd is made on a
// struct type that is not built for concurrent use, so that its atomic
// update of v is no evidence that the write runs beside it: the type
// has no lock, no typed atomic, no channel and no other field accessed
// atomically, and both fd and every function that updates v atomically
// (or, for a helper that touches only v, every function of the package
// calling it) write other fields of the same type plainly, directly or
// through its methods. Run side by side, the two would race on those
// fields anyway; the type is used by one goroutine at a time (a
// handshake's state, a local of the function that drives it, whose nonce
// counter is bumped with atomic.AddUint32 and reset by MixIntoKey).
func (pc *passContext) unsyncOwner(fd *ast.FuncDecl, e ast.Expr, v *types.Var) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	named := namedOf(pc.pass.TypesInfo.TypeOf(sel.X))
	if named == nil || named.Obj().Pkg() != pc.pass.Pkg {
		return false
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if f.Origin() != v.Origin() && len(pc.uses[f.Origin()]) > 0 || syncTyped(f.Type(), map[types.Type]bool{}) {
			return false
		}
	}
	decls := pc.funcDecls()
	if !pc.writesOther(fd, st, v, decls, 0) {
		return false
	}
	for _, u := range pc.uses[v.Origin()] {
		if u.decl == nil {
			return false
		}
		if pc.writesOther(u.decl, st, v, decls, 0) {
			continue
		}
		callers := pc.callersOf(u.decl, decls)
		if len(callers) == 0 {
			return false
		}
		for _, c := range callers {
			if !pc.writesOther(c, st, v, decls, 0) {
				return false
			}
		}
	}
	return true
}

func namedOf(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	if n != nil {
		n = n.Origin()
	}
	return n
}

// syncTyped reports whether t is, or holds by value or pointer, a type
// of sync or sync/atomic, or a channel.
func syncTyped(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		if p := n.Obj().Pkg().Path(); p == "sync" || p == "sync/atomic" {
			return true
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Chan:
		return true
	case *types.Pointer:
		return syncTyped(u.Elem(), seen)
	case *types.Array:
		return syncTyped(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if syncTyped(u.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

// funcDecls maps the package's functions to their declarations.
func (pc *passContext) funcDecls() map[*types.Func]*ast.FuncDecl {
	if pc.decls != nil {
		return pc.decls
	}
	pc.decls = map[*types.Func]*ast.FuncDecl{}
	for _, f := range pc.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pc.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					pc.decls[fn] = fd
				}
			}
		}
	}
	return pc.decls
}

// writesOther reports whether fd assigns a field of st other than v
// plainly, or calls a function of the package that does (a few levels).
func (pc *passContext) writesOther(fd *ast.FuncDecl, st *types.Struct, v *types.Var, decls map[*types.Func]*ast.FuncDecl, depth int) bool {
	if depth > 3 || fd.Body == nil {
		return false
	}
	info := pc.pass.TypesInfo
	isOther := func(x ast.Expr) bool {
		for {
			switch y := ast.Unparen(x).(type) {
			case *ast.IndexExpr:
				x = y.X
				continue
			case *ast.SelectorExpr:
				s := info.Selections[y]
				if s == nil || s.Kind() != types.FieldVal {
					return false
				}
				f, ok := s.Obj().(*types.Var)
				if !ok || f.Origin() == v.Origin() {
					return false
				}
				for i := 0; i < st.NumFields(); i++ {
					if st.Field(i) == f.Origin() {
						return true
					}
				}
			}
			return false
		}
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				return true
			}
			for _, l := range n.Lhs {
				if isOther(l) {
					found = true
				}
			}
		case *ast.IncDecStmt:
			found = isOther(n.X)
		case *ast.CallExpr:
			if fn, ok := typeFunc(info, n.Fun); ok {
				if d := decls[fn]; d != nil && d != fd && pc.writesOther(d, st, v, decls, depth+1) {
					found = true
				}
			}
		}
		return true
	})
	return found
}

func typeFunc(info *types.Info, fun ast.Expr) (*types.Func, bool) {
	var id *ast.Ident
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return nil, false
	}
	fn, ok := info.Uses[id].(*types.Func)
	if ok {
		fn = fn.Origin()
	}
	return fn, ok
}

// callersOf returns the declarations that call fd's function directly;
// nil when it is used otherwise too (a func value, a method value).
func (pc *passContext) callersOf(fd *ast.FuncDecl, decls map[*types.Func]*ast.FuncDecl) []*ast.FuncDecl {
	info := pc.pass.TypesInfo
	target, ok := info.Defs[fd.Name].(*types.Func)
	if !ok {
		return nil
	}
	var out []*ast.FuncDecl
	for _, d := range decls {
		other := false
		calls := map[ast.Expr]bool{}
		sels := map[*ast.Ident]bool{}
		ast.Inspect(d.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				calls[ast.Unparen(n.Fun)] = true
			case *ast.SelectorExpr:
				sels[n.Sel] = true
			}
			return true
		})
		called := false
		ast.Inspect(d.Body, func(n ast.Node) bool {
			var id *ast.Ident
			var fun ast.Expr
			switch n := n.(type) {
			case *ast.SelectorExpr:
				id, fun = n.Sel, n
			case *ast.Ident:
				if sels[n] {
					return true
				}
				id, fun = n, n
			default:
				return true
			}
			if fn, ok := info.Uses[id].(*types.Func); ok && fn.Origin() == target {
				if calls[fun] {
					called = true
				} else {
					other = true
				}
			}
			return true
		})
		if other {
			return nil
		}
		if called {
			out = append(out, d)
		}
	}
	return out
}
