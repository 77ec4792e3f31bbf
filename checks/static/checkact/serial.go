package checkact

// One serial writer: a field written after construction only by one
// goroutine, started once per value, cannot change between that
// goroutine's critical sections.

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// serialWriter reports whether the write l and the read at readPos both
// run in a function literal of fd started by a go statement outside any
// loop (go func() { for { select { … } } }()), fd runs once per value
// (onceFor), and every other function of the package writing the
// unexported field v is a constructor or Init method (a composite
// literal is no write): v's only writer after construction is that one
// goroutine, which runs its sections in turn, so no update can land
// between them and be lost.
func (pc *passContext) serialWriter(fd *ast.FuncDecl, l ast.Expr, readPos token.Pos, v *types.Var) bool {
	if v == nil || v.Exported() {
		return false
	}
	lit := goLiteral(fd.Body, l.Pos())
	if lit == nil || readPos < lit.Pos() || readPos >= lit.End() || !pc.onceFor(fd) {
		return false
	}
	for _, w := range pc.mutators(v) {
		if w != fd && !setUp(w) {
			return false
		}
	}
	return true
}

// goLiteral returns the function literal of body containing pos when it
// is started by a go statement outside any loop, with no other function
// literal in between; nil otherwise.
func goLiteral(body *ast.BlockStmt, pos token.Pos) *ast.FuncLit {
	var found *ast.FuncLit
	var stack, path []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if pos < n.Pos() || pos >= n.End() {
			return false
		}
		stack = append(stack, n)
		path = append(path[:0], stack...)
		return true
	})
	// path: body … innermost node containing pos.
	stack = path
	for i := len(stack) - 1; i >= 0; i-- {
		lit, ok := stack[i].(*ast.FuncLit)
		if !ok {
			continue
		}
		if i < 2 {
			return nil
		}
		call, ok := stack[i-1].(*ast.CallExpr)
		if !ok || call.Fun != lit {
			return nil
		}
		if _, ok := stack[i-2].(*ast.GoStmt); !ok {
			return nil
		}
		for _, n := range stack[:i-2] {
			switch n.(type) {
			case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
				return nil
			}
		}
		found = lit
		break
	}
	return found
}

// onceFor reports whether fd, an unexported method, runs at most once per
// receiver: every reference to it (test files included) is a direct call,
// outside loops and function literals, on a local its caller created
// (s := T{…}, &T{…}, new(T)) and passes to no other call of fd.
func (pc *passContext) onceFor(fd *ast.FuncDecl) bool {
	info := pc.pass.TypesInfo
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok || fd.Recv == nil || fn.Exported() {
		return false
	}
	calls := 0
	ok = true
	for _, file := range pc.pass.Files {
		for _, d := range file.Decls {
			caller, isFn := d.(*ast.FuncDecl)
			if !isFn || caller.Body == nil {
				continue
			}
			var stack []ast.Node
			ast.Inspect(caller.Body, func(n ast.Node) bool {
				if n == nil {
					stack = stack[:len(stack)-1]
					return false
				}
				stack = append(stack, n)
				sel, isSel := n.(*ast.SelectorExpr)
				if !isSel || info.Uses[sel.Sel] != fn {
					return true
				}
				calls++
				if len(stack) < 2 {
					ok = false
					return true
				}
				if call, isCall := stack[len(stack)-2].(*ast.CallExpr); !isCall || call.Fun != sel {
					ok = false
					return true
				}
				for _, s := range stack[:len(stack)-1] {
					switch s.(type) {
					case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit, *ast.GoStmt:
						ok = false
					}
				}
				id, isID := ast.Unparen(sel.X).(*ast.Ident)
				if !isID || !createdIn(info, caller.Body, info.Uses[id]) {
					ok = false
				}
				return true
			})
		}
	}
	return ok && calls > 0
}

// createdIn reports whether obj is a local of body defined once from a
// composite literal, its address, or new(T).
func createdIn(info *types.Info, body *ast.BlockStmt, obj types.Object) bool {
	if obj == nil || obj.Pos() < body.Pos() || obj.Pos() >= body.End() {
		return false
	}
	created := false
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || info.ObjectOf(id) != obj {
				continue
			}
			if as.Tok != token.DEFINE || !lockset.Allocated(info, as.Rhs[i], noCtor) {
				created = false
				return false
			}
			created = true
		}
		return true
	})
	return created
}

// noCtor accepts no function as a constructor: only literals and new(T).
func noCtor(string) bool { return false }
