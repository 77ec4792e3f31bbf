package atomicmix

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/interleave-dev/interleave/checks/static/internal/lockregion"
)

// flagFact says that at some point the bool field flag of the value
// named by base (root object root) is known to be value.
type flagFact struct {
	flag  *types.Var
	base  string
	root  types.Object
	value bool
}

// flagSplit reports whether the plain access e of the field v (stack:
// its ancestors in fd) runs only on values whose immutable bool field F
// has one value, and every atomic access of v in the package only on
// values where F has the other (if m.Shared { atomic.Store(&m.n, x) }
// else { m.n = x }): the two never touch the same value. F is immutable
// when the package assigns it only in composite literals and
// constructors; the bases of both accesses are not reassigned in their
// functions.
func (pc *passContext) flagSplit(fd *ast.FuncDecl, e ast.Expr, v *types.Var, stack []ast.Node) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || !v.IsField() || v.Pkg() != pc.pass.Pkg || len(pc.uses[v]) == 0 {
		return false
	}
	base, root := pc.baseOf(sel)
	if root == nil || reassignedIn(pc.pass.TypesInfo, fd.Body, root) {
		return false
	}
	var mine []flagFact
	for _, f := range pc.flagFacts(e, stack) {
		if f.base == base && f.root == root && pc.immutableFlag(f.flag) {
			mine = append(mine, f)
		}
	}
	if len(mine) == 0 {
		return false
	}
	for _, u := range pc.uses[v] {
		if !pc.atomicOnOtherSide(u, mine) {
			return false
		}
	}
	return true
}

// atomicOnOtherSide reports whether the atomic access u is made only
// where one of the flags in mine has the opposite value, on u's own
// base.
func (pc *passContext) atomicOnOtherSide(u atomicUse, mine []flagFact) bool {
	sel, ok := u.operand.(*ast.SelectorExpr)
	if !ok || u.decl == nil {
		return false
	}
	base, root := pc.baseOf(sel)
	if root == nil || reassignedIn(pc.pass.TypesInfo, u.decl.Body, root) {
		return false
	}
	var stack []ast.Node
	ast.PreorderStack(u.decl.Body, nil, func(n ast.Node, s []ast.Node) bool {
		if stack != nil {
			return false
		}
		if n == u.call {
			stack = append(append([]ast.Node{}, s...), n)
			return false
		}
		return true
	})
	if stack == nil {
		return false
	}
	for _, f := range pc.flagFacts(u.operand, stack) {
		if f.base != base || f.root != root {
			continue
		}
		for _, m := range mine {
			if m.flag == f.flag && m.value != f.value {
				return true
			}
		}
	}
	return false
}

// flagFacts returns what the conditions around n (stack: its ancestors,
// up to the innermost function literal) say about bool fields: n in the
// body of if X.F (or of a conjunction with it) or in the else of if !X.F
// knows F true; a statement before n in an enclosing block that is an
// if without else whose body ends in return or panic tells the negation.
func (pc *passContext) flagFacts(n ast.Node, stack []ast.Node) []flagFact {
	var out []flagFact
	child := n
	for i := len(stack) - 1; i >= 0; i-- {
		switch s := stack[i].(type) {
		case *ast.FuncLit:
			return out
		case *ast.IfStmt:
			if s.Body == child {
				out = append(out, pc.condFacts(s.Cond, true)...)
			} else if s.Else == child {
				out = append(out, pc.condFacts(s.Cond, false)...)
			}
		case *ast.BlockStmt:
			for _, st := range s.List {
				if st == child {
					break
				}
				if is, ok := st.(*ast.IfStmt); ok && is.Else == nil && is.Init == nil && lockregion.Leaves(pc.pass.TypesInfo, is.Body) {
					out = append(out, pc.condFacts(is.Cond, false)...)
				}
			}
		}
		child = stack[i]
	}
	return out
}

// condFacts returns the flags cond fixes when it evaluates to truth.
func (pc *passContext) condFacts(cond ast.Expr, truth bool) []flagFact {
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			return pc.condFacts(c.X, !truth)
		}
	case *ast.BinaryExpr:
		// a && b true: both true; a || b false: both false.
		if c.Op == token.LAND && truth || c.Op == token.LOR && !truth {
			return append(pc.condFacts(c.X, truth), pc.condFacts(c.Y, truth)...)
		}
	case *ast.SelectorExpr:
		f := pc.variable(c)
		if f == nil || !f.IsField() {
			return nil
		}
		if b, ok := f.Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
			return nil
		}
		base, root := pc.baseOf(c)
		if root == nil {
			return nil
		}
		return []flagFact{{flag: f, base: base, root: root, value: truth}}
	}
	return nil
}

// immutableFlag reports whether the package sets the field f only in
// composite literals and in constructors (new*, init*), and never takes
// its address: it is fixed once the value is built.
func (pc *passContext) immutableFlag(f *types.Var) bool {
	if got, ok := pc.immutable[f]; ok {
		return got
	}
	ok := f.Pkg() == pc.pass.Pkg
	for _, file := range pc.pass.Files {
		for _, decl := range file.Decls {
			fd, isFunc := decl.(*ast.FuncDecl)
			if isFunc && (fd.Body == nil || fd.Recv == nil && constructorName(fd.Name.Name)) {
				continue
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				var targets []ast.Expr
				switch n := n.(type) {
				case *ast.AssignStmt:
					targets = n.Lhs
				case *ast.IncDecStmt:
					targets = []ast.Expr{n.X}
				case *ast.RangeStmt:
					targets = []ast.Expr{n.Key, n.Value}
				case *ast.UnaryExpr:
					if n.Op == token.AND {
						targets = []ast.Expr{n.X}
					}
				}
				for _, t := range targets {
					if t != nil && pc.variable(ast.Unparen(t)) == f {
						ok = false
					}
				}
				return ok
			})
		}
	}
	if pc.immutable == nil {
		pc.immutable = map[*types.Var]bool{}
	}
	pc.immutable[f] = ok
	return ok
}

// reassignedIn reports whether body assigns obj (obj = …, a range loop
// assigning it, &obj): it may name another value at some point.
func reassignedIn(info *types.Info, body *ast.BlockStmt, obj types.Object) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		var targets []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				targets = n.Lhs
			}
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				targets = []ast.Expr{n.Key, n.Value}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				targets = []ast.Expr{n.X}
			}
		}
		for _, t := range targets {
			if id, ok := ast.Unparen(t).(*ast.Ident); ok && info.ObjectOf(id) == obj {
				found = true
			}
		}
		return !found
	})
	return found
}
