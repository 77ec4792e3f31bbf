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
