package atomicmix

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

// onceInit reports whether the plain write e of v (stack: its
// ancestors in fd) initializes v inside a function literal passed to
// Do of a sync.Once, and every other access of v in the package comes
// after a Do of the same Once in its function, or inside such a
// literal: Do returns only after the literal ran, so the write happens
// before them all. Conservative: v must be unexported (every access
// visible), the Once a package variable for a package variable or a
// field of the same base (s.once, s.n) for a field.
func (pc *passContext) onceInit(fd *ast.FuncDecl, e ast.Expr, v *types.Var, stack []ast.Node) bool {
	if v.Exported() || v.Pkg() != pc.pass.Pkg {
		return false
	}
	once, ok := pc.enclosingDo(e, stack)
	if !ok {
		return false
	}
	for _, f := range pc.pass.Files {
		for _, decl := range f.Decls {
			d, isFunc := decl.(*ast.FuncDecl)
			if !isFunc || d.Body == nil {
				if refersTo(pc, decl, v) {
					return false // a package-level initializer or a body we cannot see
				}
				continue
			}
			if !pc.allAfterDo(d, v, once) {
				return false
			}
		}
	}
	return true
}

// onceRef is a sync.Once named by a package variable or a field, and
// for a field the text and root object of the expression it is
// selected from (s in s.once).
type onceRef struct {
	v    *types.Var
	base string
	root types.Object
}

// doOnce returns the Once that call calls Do on.
func (pc *passContext) doOnce(call *ast.CallExpr) (onceRef, bool) {
	fn, ok := typeutil.Callee(pc.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Name() != "Do" || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return onceRef{}, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return onceRef{}, false
	}
	x := ast.Unparen(sel.X)
	ov := pc.variable(x)
	if ov == nil {
		return onceRef{}, false // a local Once
	}
	r := onceRef{v: ov}
	if ov.IsField() {
		s, ok := x.(*ast.SelectorExpr)
		if !ok {
			return onceRef{}, false
		}
		r.base, r.root = pc.baseOf(s)
		if r.root == nil {
			return onceRef{}, false
		}
	}
	return r, true
}

// baseOf returns the text and root object of s.X.
func (pc *passContext) baseOf(s *ast.SelectorExpr) (string, types.Object) {
	root := passutil.RootIdent(s.X)
	if root == nil {
		return "", nil
	}
	return types.ExprString(s.X), pc.pass.TypesInfo.Uses[root]
}

// matches reports whether an access e of v (a field: through the same
// base as the Once; a package variable: a package-level Once) is
// covered by once.
func (pc *passContext) matches(once onceRef, e ast.Expr, v *types.Var) bool {
	if !v.IsField() {
		return !once.v.IsField()
	}
	s, ok := e.(*ast.SelectorExpr)
	if !ok || !once.v.IsField() {
		return false
	}
	base, root := pc.baseOf(s)
	return root != nil && base == once.base && root == once.root
}

// enclosingDo returns the Once whose Do e's innermost function literal
// is passed to, when e is covered by it.
func (pc *passContext) enclosingDo(e ast.Expr, stack []ast.Node) (onceRef, bool) {
	for i := len(stack) - 1; i >= 1; i-- {
		lit, ok := stack[i].(*ast.FuncLit)
		if !ok {
			continue
		}
		call, ok := stack[i-1].(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || call.Args[0] != lit {
			return onceRef{}, false
		}
		once, ok := pc.doOnce(call)
		if !ok {
			return onceRef{}, false
		}
		v := pc.variable(e)
		return once, v != nil && pc.matches(once, e, v)
	}
	return onceRef{}, false
}

// allAfterDo reports whether every access of v in fd is inside a literal
// passed to once's Do or after a statement calling once's Do in a block
// enclosing it. A goto, an assignment to an access's base, or &v not
// passed to sync/atomic makes it false.
func (pc *passContext) allAfterDo(fd *ast.FuncDecl, v *types.Var, once onceRef) bool {
	info := pc.pass.TypesInfo
	ok := true
	// Variables assigned in fd (s = t): s.once and s.n may name other
	// values before and after.
	reassigned, bases := map[types.Object]bool{}, map[types.Object]bool{}
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.BranchStmt:
			if n.Tok == token.GOTO {
				ok = false
			}
			return true
		case *ast.AssignStmt:
			if n.Tok == token.ASSIGN {
				for _, l := range n.Lhs {
					if id, isID := ast.Unparen(l).(*ast.Ident); isID {
						reassigned[info.ObjectOf(id)] = true
					}
				}
			}
			return true
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				for _, x := range []ast.Expr{n.Key, n.Value} {
					if id, isID := x.(*ast.Ident); isID {
						reassigned[info.ObjectOf(id)] = true
					}
				}
			}
			return true
		case *ast.SelectorExpr, *ast.Ident:
		default:
			return true
		}
		e := n.(ast.Expr)
		if pc.variable(e) != v {
			return true
		}
		if id, isID := e.(*ast.Ident); isID && len(stack) > 0 {
			if sel, isSel := stack[len(stack)-1].(*ast.SelectorExpr); isSel && sel.Sel == id {
				return true
			}
		}
		if u, isU := stack[len(stack)-1].(*ast.UnaryExpr); isU && u.Op == token.AND && !pc.operands[e] {
			ok = false // the address escapes
			return false
		}
		// The Once this access needs: once's variable, reached through
		// this access's base.
		want := onceRef{v: once.v}
		if v.IsField() {
			s, isSel := e.(*ast.SelectorExpr)
			if !isSel || !once.v.IsField() {
				ok = false
				return false
			}
			if want.base, want.root = pc.baseOf(s); want.root == nil {
				ok = false
				return false
			}
		}
		if o, in := pc.enclosingDo(e, stack); in && o == want {
			return false
		}
		if !pc.afterDo(e, stack, want) {
			ok = false
		}
		if s, isSel := e.(*ast.SelectorExpr); isSel {
			if _, root := pc.baseOf(s); root != nil {
				bases[root] = true
			}
		}
		return false
	})
	for obj := range bases {
		if reassigned[obj] {
			return false
		}
	}
	return ok
}

// afterDo reports whether a statement before e in a block enclosing it
// is a call of once's Do (that statement runs, and returns, first).
func (pc *passContext) afterDo(e ast.Expr, stack []ast.Node, once onceRef) bool {
	child := ast.Node(e)
	for i := len(stack) - 1; i >= 0; i-- {
		var list []ast.Stmt
		switch b := stack[i].(type) {
		case *ast.BlockStmt:
			list = b.List
		case *ast.CaseClause:
			list = b.Body
		case *ast.CommClause:
			list = b.Body
		}
		for _, s := range list {
			if s == child {
				break
			}
			es, isExpr := s.(*ast.ExprStmt)
			if !isExpr {
				continue
			}
			call, isCall := ast.Unparen(es.X).(*ast.CallExpr)
			if !isCall {
				continue
			}
			if o, isDo := pc.doOnce(call); isDo && o == once {
				return true
			}
		}
		child = stack[i]
	}
	return false
}

// refersTo reports whether n mentions v.
func refersTo(pc *passContext, n ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if o, isVar := pc.pass.TypesInfo.Uses[id].(*types.Var); isVar && o.Origin() == v {
				found = true
			}
		}
		return !found
	})
	return found
}
