package checkact

// Caller locksets: a wider lock every caller holds serializes both
// critical sections, and every other writer.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/interleave-dev/interleave/checks/static/internal/lockregion"
	"github.com/interleave-dev/interleave/checks/static/internal/syncarg"
)

// callerLocks returns, per unexported function whose calls are all
// visible in the package's non-test files, the mutexes (lockregion.TypeKey)
// every call holds exclusively, directly or through its callers.
func (pc *passContext) callerLocks() map[*types.Func][]string {
	if pc.callers == nil {
		var files []*ast.File
		for _, f := range pc.pass.Files {
			if !strings.HasSuffix(pc.pass.Fset.Position(f.Pos()).Filename, "_test.go") {
				files = append(files, f)
			}
		}
		pc.callers = lockregion.CallerLocks(files, pc.pass.TypesInfo, pc.typeKey, pc.pass.ResultOf[syncarg.Analyzer].(*syncarg.Result).Arg)
		if pc.callers == nil {
			pc.callers = map[*types.Func][]string{}
		}
	}
	return pc.callers
}

func (pc *passContext) typeKey(x ast.Expr) string { return lockregion.TypeKey(pc.pass.TypesInfo, x) }

// underCallerLock reports whether fd runs under a mutex, other than the
// split one, that every caller of fd holds, and that every other
// function writing the field v (outside constructors and Init) holds at
// each of its writes, through its own callers or a Lock of its own: no
// write of v can come between fd's critical sections. v must be
// unexported (no writer in another package).
func (pc *passContext) underCallerLock(fd *ast.FuncDecl, v *types.Var, split string) bool {
	fn, ok := pc.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if v == nil || v.Exported() || !ok {
		return false
	}
	callers := pc.callerLocks()
	field := split[strings.LastIndexByte(split, '.')+1:]
	for _, k := range callers[fn] {
		if k[strings.LastIndexByte(k, '.')+1:] == field {
			continue // the split lock's own class, held for another instance
		}
		if pc.writersHold(v, k, fd) {
			return true
		}
	}
	return false
}

// writersHold reports whether every function but self that writes v
// (assignment, ++/--, &v, delete or clear of it), outside constructors
// and Init, holds the mutex key at each write.
func (pc *passContext) writersHold(v *types.Var, key string, self *ast.FuncDecl) bool {
	callers := pc.callerLocks()
	for _, w := range pc.mutators(v) {
		if w == self || setUp(w) {
			continue
		}
		if fn, ok := pc.pass.TypesInfo.Defs[w.Name].(*types.Func); ok && slices.Contains(callers[fn], key) {
			continue
		}
		all := true
		walker := &lockregion.Walker{Info: pc.pass.TypesInfo, KeyOf: pc.typeKey, Must: true, Exclusive: true, Visit: func(n ast.Node, held lockregion.Held) {
			if _, ok := held[key]; ok {
				return
			}
			for _, l := range mutated(n) {
				if fieldOf(pc.pass.TypesInfo, l) == v {
					all = false
				}
			}
		}}
		walker.WalkFunc(w.Body, lockregion.Held{})
		if !all {
			return false
		}
	}
	return true
}

// mutators returns writers(v) and the non-test functions that delete
// from or clear the map or slice v.
func (pc *passContext) mutators(v *types.Var) []*ast.FuncDecl {
	out := slices.Clone(pc.writers(v))
	for _, file := range pc.pass.Files {
		if strings.HasSuffix(pc.pass.Fset.Position(file.Pos()).Filename, "_test.go") {
			continue
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || slices.Contains(out, fd) {
				continue
			}
			found := false
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				for _, l := range mutated(n) {
					if _, isCall := n.(*ast.CallExpr); isCall && fieldOf(pc.pass.TypesInfo, l) == v {
						found = true
					}
				}
				return !found
			})
			if found {
				out = append(out, fd)
			}
		}
	}
	return out
}

// mutated returns the locations n writes: the left-hand sides of an
// assignment, the operand of ++/-- or &, the map of delete and the
// operand of clear.
func mutated(n ast.Node) []ast.Expr {
	switch n := n.(type) {
	case *ast.AssignStmt:
		return n.Lhs
	case *ast.IncDecStmt:
		return []ast.Expr{n.X}
	case *ast.UnaryExpr:
		if n.Op == token.AND {
			return []ast.Expr{n.X}
		}
	case *ast.CallExpr:
		if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && (id.Name == "delete" || id.Name == "clear") && len(n.Args) > 0 {
			return []ast.Expr{n.Args[0]}
		}
	}
	return nil
}
