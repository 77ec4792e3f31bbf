package checkact

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// semaphores finds the functions of the package that run whole under a
// one-slot channel semaphore: a send on a channel field at the top of the
// body, released by a deferred receive (c.sem <- struct{}{}; defer func()
// { <-c.sem }()), where every channel made for that field has capacity 1.
// It returns the semaphore field per function, and per field the
// functions that write it (constructors' composite literals aside).
type semaphores struct {
	info    *types.Info
	held    map[*ast.FuncDecl]*types.Var
	writers map[*types.Var][]*ast.FuncDecl
}

func newSemaphores(files []*ast.File, info *types.Info) *semaphores {
	s := &semaphores{info: info, held: map[*ast.FuncDecl]*types.Var{}, writers: map[*types.Var][]*ast.FuncDecl{}}
	oneSlot := map[*types.Var]bool{}
	other := map[*types.Var]bool{}
	made := func(f *types.Var, e ast.Expr) {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return
		}
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); !ok || id.Name != "make" {
			return
		}
		if len(call.Args) == 2 {
			if tv, ok := info.Types[call.Args[1]]; ok && tv.Value != nil && constant.Compare(tv.Value, token.EQL, constant.MakeInt64(1)) {
				oneSlot[f] = true
				return
			}
		}
		other[f] = true
	}
	for _, file := range files {
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok {
					if f, ok := info.Uses[id].(*types.Var); ok && f.IsField() {
						made(f, n.Value)
					}
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if f := s.field(l); f != nil && len(n.Rhs) == len(n.Lhs) {
						made(f, n.Rhs[i])
					}
				}
			}
			return true
		})
	}
	for _, file := range files {
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if f := s.entry(fd.Body); f != nil && oneSlot[f] && !other[f] {
				s.held[fd] = f
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				for _, l := range assignedTo(n) {
					if f := s.field(l); f != nil {
						s.writers[f] = append(s.writers[f], fd)
					}
				}
				return true
			})
		}
	}
	return s
}

// field returns the struct field e selects, or nil.
func (s *semaphores) field(e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if x := s.info.Selections[sel]; x != nil && x.Kind() == types.FieldVal {
		return x.Obj().(*types.Var)
	}
	return nil
}

// entry returns the channel field body acquires first thing (a send as
// its first statement) and releases by a deferred receive.
func (s *semaphores) entry(body *ast.BlockStmt) *types.Var {
	if len(body.List) < 2 {
		return nil
	}
	send, ok := body.List[0].(*ast.SendStmt)
	if !ok {
		return nil
	}
	f := s.field(send.Chan)
	if f == nil {
		return nil
	}
	for _, st := range body.List[1:] {
		d, ok := st.(*ast.DeferStmt)
		if !ok {
			continue
		}
		released := false
		ast.Inspect(d.Call, func(n ast.Node) bool {
			if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW && s.field(u.X) == f {
				released = true
			}
			return !released
		})
		if released {
			return f
		}
	}
	return nil
}

// serializes reports whether fd runs under a semaphore that every
// writer of the field written at l also holds: no update can come
// between fd's critical sections.
func (s *semaphores) serializes(fd *ast.FuncDecl, l ast.Expr) bool {
	sem := s.held[fd]
	f := s.field(l)
	if sem == nil || f == nil {
		return false
	}
	for _, w := range s.writers[f] {
		if s.held[w] != sem {
			return false
		}
	}
	return true
}
