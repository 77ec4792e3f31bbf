package atomicmix

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/interleave-dev/interleave/checks/static/internal/lockregion"
)

// shadowed reports whether the plain write e of the field v in fd is
// shadowed by another plain access: fd writes, holding no lock, another
// field of v's struct (or the whole struct value), and every function
// that accesses v atomically touches that same memory plainly, holding no
// lock (reads or writes the field, or reads the whole value). Run beside
// the write, each of them would race on that memory anyway, so its
// atomic access of v is no evidence that it does run beside it (a
// pooled operator's reset clearing op.poll, which Control reads right
// after its atomic add of op.detached; a parse filling a Will that
// sendLWT copies after its atomic load of Will.Flag). A function that
// accesses v atomically and nothing else of the struct (a setter racing
// with a close) keeps the write IL3002. Fields accessed atomically
// somewhere do not count, nor do accesses inside function literals.
func (pc *passContext) shadowed(fd *ast.FuncDecl, e ast.Expr, v *types.Var) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	owner := pc.pass.TypesInfo.TypeOf(sel.X)
	if p, ok := owner.Underlying().(*types.Pointer); ok {
		owner = p.Elem()
	}
	st, ok := owner.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	written, whole := pc.plainTouches(fd, owner, st, v, true)
	if len(written) == 0 && !whole {
		return false
	}
	uses := pc.uses[v.Origin()]
	if len(uses) == 0 {
		return false
	}
	for _, u := range uses {
		if u.decl == nil {
			return false
		}
		touched, wholeRead := pc.plainTouches(u.decl, owner, st, v, false)
		hit := wholeRead && (whole || len(written) > 0) || whole && len(touched) > 0
		for f := range touched {
			if written[f] {
				hit = true
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

// plainTouches returns the fields of st other than v (none accessed
// atomically in the package) that fd accesses plainly outside function
// literals holding no lock, only the written ones when writes is set,
// and whether it reads (or, with writes, assigns) a whole value of type
// owner so.
func (pc *passContext) plainTouches(fd *ast.FuncDecl, owner types.Type, st *types.Struct, v *types.Var, writes bool) (map[*types.Var]bool, bool) {
	if fd.Body == nil {
		return nil, false
	}
	info := pc.pass.TypesInfo
	fields := map[*types.Var]bool{}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i).Origin()
		if f != v.Origin() && len(pc.uses[f]) == 0 {
			fields[f] = true
		}
	}
	held := pc.heldIn(fd)
	out := map[*types.Var]bool{}
	whole := false
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		x, ok := n.(ast.Expr)
		if !ok || len(held[n]) > 0 {
			return true
		}
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		isWrite := assigned(x, parent)
		if s, ok := x.(*ast.SelectorExpr); ok {
			if sl := info.Selections[s]; sl != nil && sl.Kind() == types.FieldVal {
				if f, ok := sl.Obj().(*types.Var); ok && fields[f.Origin()] && (isWrite || !writes) {
					if t := info.TypeOf(s.X); t != nil && sameOwner(t, owner) {
						out[f.Origin()] = true
					}
				}
			}
		}
		// A whole value in memory (a field or *p of type owner): written
		// as such, or read as a value (not the base of a selector, nor
		// an address taken).
		if t := info.TypeOf(x); t != nil && types.Identical(t, owner) && inMemory(info, x) {
			switch p := parent.(type) {
			case *ast.SelectorExpr:
				if p.X == x {
					return true
				}
			case *ast.UnaryExpr:
				if p.Op == token.AND {
					return true
				}
			}
			if isWrite || !writes {
				whole = true
			}
		}
		return true
	})
	return out, whole
}

// inMemory reports whether x names memory: a field selection or *p.
func inMemory(info *types.Info, x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.SelectorExpr:
		sl := info.Selections[x]
		return sl != nil && sl.Kind() == types.FieldVal
	case *ast.StarExpr:
		return true
	}
	return false
}

// sameOwner reports whether t is owner or a pointer to it.
func sameOwner(t, owner types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	return types.Identical(t, owner)
}

// assigned reports whether x is the target of an assignment (not a
// definition) or of ++/--.
func assigned(x ast.Expr, parent ast.Node) bool {
	switch p := parent.(type) {
	case *ast.AssignStmt:
		if p.Tok == token.DEFINE {
			return false
		}
		for _, l := range p.Lhs {
			if l == x {
				return true
			}
		}
	case *ast.IncDecStmt:
		return p.X == x
	}
	return false
}

// heldIn returns the mutexes held at each node of fd that holds any,
// with the locks every caller holds on entry (as checkFunc).
func (pc *passContext) heldIn(fd *ast.FuncDecl) map[ast.Node]lockregion.Held {
	if m, ok := pc.held[fd]; ok {
		return m
	}
	m := map[ast.Node]lockregion.Held{}
	entry, escaping := pc.callerHeld(fd)
	w := &lockregion.Walker{Info: pc.pass.TypesInfo, KeyOf: pc.lockKey, Visit: func(n ast.Node, held lockregion.Held) {
		if held = escaping(n, held); len(held) > 0 {
			m[n] = held
		}
	}}
	w.WalkFunc(fd.Body, entry)
	if pc.held == nil {
		pc.held = map[*ast.FuncDecl]map[ast.Node]lockregion.Held{}
	}
	pc.held[fd] = m
	return m
}
