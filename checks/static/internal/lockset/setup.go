package lockset

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

// SetupMethods returns the unexported methods of the package that only
// set up a value before it is shared: every call of one is x.m(...) on a
// value x allocated in the calling function (&T{...}, new(T), T{...}, or
// the result of a constructor), before the caller's first go statement
// and outside function literals, or is made in a constructor (isCtor of
// the caller's name), or on the receiver of another such method (openDB
// builds db and calls db.recoverJournal(), which writes db.seq).
func SetupMethods(files []*ast.File, info *types.Info, isCtor func(string) bool) map[*types.Func]bool {
	return setupMethods(files, info, isCtor, false)
}

// SetupMethodsBeforeStart is SetupMethods where a method that starts a
// goroutine on its receiver (go s.mergerLoop()) also sets up its receiver
// before its first go statement: calls made on the receiver there run
// before the goroutines it starts exist (bleve's Open: s.openBolt() loads
// the state, then go s.mergerLoop()).
func SetupMethodsBeforeStart(files []*ast.File, info *types.Info, isCtor func(string) bool) map[*types.Func]bool {
	return setupMethods(files, info, isCtor, true)
}

func setupMethods(files []*ast.File, info *types.Info, isCtor func(string) bool, starts bool) map[*types.Func]bool {
	type site struct {
		caller *ast.FuncDecl
		ok     bool       // on a fresh value, or in a constructor
		recv   *ast.Ident // the caller's receiver the call is made on, if any
	}
	sites := map[*types.Func][]site{}
	decl := map[*types.Func]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fn, ok := info.Defs[fd.Name].(*types.Func); ok && fd.Recv != nil && !fd.Name.IsExported() {
				decl[fn] = true
			}
			fresh, firstGo := freshValues(info, fd.Body, isCtor)
			var recvObj types.Object
			if fd.Recv != nil && len(fd.Recv.List) == 1 && len(fd.Recv.List[0].Names) == 1 {
				recvObj = info.Defs[fd.Recv.List[0].Names[0]]
			}
			ctor := isCtor(fd.Name.Name)
			start := starts && recvObj != nil && startsOnReceiver(info, fd.Body, recvObj)
			ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok {
					return true
				}
				fn, ok := info.Uses[id].(*types.Func)
				if !ok {
					return true
				}
				fn = fn.Origin() // a method of an instantiated generic type
				s := site{caller: fd}
				if len(stack) >= 2 {
					sel, _ := stack[len(stack)-1].(*ast.SelectorExpr)
					call, _ := stack[len(stack)-2].(*ast.CallExpr)
					if sel != nil && call != nil && sel.Sel == id && call.Fun == sel {
						if x, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
							obj := info.Uses[x]
							inLit := false
							for _, m := range stack {
								if _, ok := m.(*ast.FuncLit); ok {
									inLit = true
								}
							}
							s.ok = ctor || fresh[obj] && !inLit && (firstGo == token.NoPos || id.Pos() < firstGo)
							if obj != nil && obj == recvObj && !inLit {
								s.recv = x
								if start && firstGo != token.NoPos && id.Pos() < firstGo {
									s.ok = true
								}
							}
						}
					}
				}
				sites[fn] = append(sites[fn], s)
				return true
			})
		}
	}
	return passutil.EveryCall(decl, sites, func(s site, out map[*types.Func]bool) bool {
		if s.ok {
			return true
		}
		caller, _ := info.Defs[s.caller.Name].(*types.Func)
		return s.recv != nil && caller != nil && out[caller]
	})
}

// freshValues returns the local variables of body bound to a value
// allocated there or returned by a constructor, and the position of the
// first go statement, after which they may be shared.
func freshValues(info *types.Info, body *ast.BlockStmt, isCtor func(string) bool) (map[types.Object]bool, token.Pos) {
	fresh := map[types.Object]bool{}
	firstGo := token.NoPos
	alloc := func(e ast.Expr) bool {
		switch e := ast.Unparen(e).(type) {
		case *ast.CompositeLit:
			return true
		case *ast.UnaryExpr:
			_, ok := ast.Unparen(e.X).(*ast.CompositeLit)
			return e.Op == token.AND && ok
		case *ast.CallExpr:
			var name *ast.Ident
			switch f := ast.Unparen(e.Fun).(type) {
			case *ast.Ident:
				name = f
			case *ast.SelectorExpr:
				name = f.Sel
			case *ast.IndexExpr: // newT[K](...)
				if id, ok := f.X.(*ast.Ident); ok {
					name = id
				}
			}
			if name == nil {
				return false
			}
			if b, ok := info.Uses[name].(*types.Builtin); ok {
				return b.Name() == "new"
			}
			return isCtor(name.Name)
		}
		return false
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			if firstGo == token.NoPos || n.Pos() < firstGo {
				firstGo = n.Pos()
			}
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				return true
			}
			for i, id := range n.Lhs {
				id, ok := id.(*ast.Ident)
				if !ok {
					continue
				}
				if len(n.Lhs) == len(n.Rhs) && alloc(n.Rhs[i]) || len(n.Rhs) == 1 && i == 0 && alloc(n.Rhs[0]) {
					if obj := info.Defs[id]; obj != nil {
						fresh[obj] = true
					}
				}
			}
		}
		return true
	})
	return fresh, firstGo
}

// startsOnReceiver reports whether body has a go statement that calls a
// method of the receiver recv (go s.loop()).
func startsOnReceiver(info *types.Info, body *ast.BlockStmt, recv types.Object) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		g, ok := n.(*ast.GoStmt)
		if !ok || found {
			return !found
		}
		if sel, ok := ast.Unparen(g.Call.Fun).(*ast.SelectorExpr); ok {
			if x, ok := ast.Unparen(sel.X).(*ast.Ident); ok && info.Uses[x] == recv {
				found = true
			}
		}
		return true
	})
	return found
}
