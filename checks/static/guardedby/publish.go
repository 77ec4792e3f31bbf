package guardedby

// Construction before publication: an unlocked write on a value no other
// goroutine can reach yet does not break the guard (passutil.Publication,
// shared with atomicmix).

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

// unpublishedWrite reports whether the write acc of field f, through a
// parameter or the receiver of r's function (a declared function, not a
// literal), is made on a value every call of the function in the package
// (outside tests) passes before its caller published it, and the function
// hands it on to nothing that could share it before the write. Fresh
// locals are lockset.Fresh's; this is their callees' half.
func (pc *passContext) unpublishedWrite(r *lockset.Result, acc lockset.Access, f *types.Var) bool {
	if _, ok := acc.Base.Root.(*ssa.Parameter); !ok || r.Fn.Parent() != nil {
		return false
	}
	fd, ok := r.Fn.Syntax().(*ast.FuncDecl)
	if !ok || fd.Body == nil {
		return false
	}
	sel := pc.syntax.Selector(acc.Pos)
	if sel == nil {
		return false
	}
	return pc.publication().BeforePublication(fd, sel, f, nil)
}

func (pc *passContext) publication() *passutil.Publication {
	if pc.pub == nil {
		info := pc.pass.TypesInfo
		pc.pub = &passutil.Publication{
			Pass:      pc.pass,
			Var:       func(e ast.Expr) *types.Var { return fieldOf(info, e) },
			Allocated: func(e ast.Expr) bool { return lockset.Allocated(info, e, lockset.IsConstructorName) },
		}
	}
	return pc.pub
}

// fieldOf is the field a selector selects (its origin), or nil.
func fieldOf(info *types.Info, e ast.Expr) *types.Var {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return nil
	}
	v, _ := s.Obj().(*types.Var)
	if v == nil {
		return nil
	}
	return v.Origin()
}
