package guardedby

import (
	"go/ast"
	"go/types"
)

// selfLockers finds, among the package's pointer-receiver methods, those
// that take their receiver's mutex mu before releasing it: directly
// (r.mu.Lock(), r.mu.RLock()) or through a method of the package called
// on the receiver (r.getInterface() read-locking r.mu). Such a method
// documented as "caller must hold the mutex" cannot mean its receiver's
// mutex: a caller holding it would deadlock. The doc speaks of another
// instance (the parent's mutex, held by parent.AddRouter when it calls
// child.setRouter(parent)).
type selfLockers struct {
	info  *types.Info
	decls map[*types.Func]*ast.FuncDecl
}

func newSelfLockers(files []*ast.File, info *types.Info) *selfLockers {
	s := &selfLockers{info: info, decls: map[*types.Func]*ast.FuncDecl{}}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && fd.Body != nil {
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					s.decls[fn] = fd
				}
			}
		}
	}
	return s
}

// recvObj returns the receiver variable of fd, or nil.
func (s *selfLockers) recvObj(fd *ast.FuncDecl) types.Object {
	if len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return nil
	}
	return s.info.Defs[fd.Recv.List[0].Names[0]]
}

// locksFirst reports whether fd takes its receiver's mutex mu before it
// releases it, on some path, directly or through its receiver's methods
// (depth bounds the calls followed). Function literals and go statements
// are not followed: they may run later or elsewhere.
func (s *selfLockers) locksFirst(fd *ast.FuncDecl, mu *types.Var, depth int) bool {
	recv := s.recvObj(fd)
	if recv == nil || depth > 3 {
		return false
	}
	onRecv := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && s.info.Uses[id] == recv
	}
	// isMu reports whether e is recv.mu (or recv itself for an embedded mu).
	isMu := func(e ast.Expr) bool {
		if mu.Embedded() && onRecv(e) {
			return true
		}
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		return ok && onRecv(sel.X) && s.info.Uses[sel.Sel] == mu
	}
	decided, locks := false, false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if decided {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt:
			return false
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if isMu(sel.X) {
				switch sel.Sel.Name {
				case "Lock", "RLock", "TryLock", "TryRLock":
					decided, locks = true, true
					return false
				case "Unlock", "RUnlock":
					decided = true
					return false
				}
			}
			if !onRecv(sel.X) {
				return true
			}
			callee, ok := s.info.Uses[sel.Sel].(*types.Func)
			if !ok {
				return true
			}
			if cd := s.decls[callee.Origin()]; cd != nil && s.locksFirst(cd, mu, depth+1) {
				decided, locks = true, true
				return false
			}
		}
		return true
	})
	return locks
}
