package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"
)

// hostsGoroutines reports whether dependency package p hands its caller
// goroutines: a function of p starts a goroutine that calls a function
// its caller passed in (a parameter, or a method of a parameter of an
// interface p declares for its callers), directly or through the function
// the goroutine runs, and does not wait for it before it
// returns (errgroup's Go, a worker pool's Submit); or p stores a function
// its caller passed in (sends it on a channel, appends it to a slice, puts
// it in a field) and a goroutine p starts calls a stored function of that
// type (a task queue whose worker, started by a constructor, runs what
// Submit queued). The caller's code then
// runs on goroutines p started; unless p's synchronization is rewritten
// too, they run outside the scheduler's control, and an order among them
// that fails a test can be neither chosen nor replayed. A function that
// waits for its goroutine itself (an Eventually polling a condition)
// does not count.
func hostsGoroutines(p *packages.Package) bool {
	if p.TypesInfo == nil {
		return false
	}
	return hostsFiles(p.TypesInfo, p.Syntax)
}

func hostsFiles(info *types.Info, files []*ast.File) bool {
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if ok && fd.Body != nil && hostFunc(info, fd) {
				return true
			}
		}
	}
	return runsStored(info, files)
}

// hostFunc: fd starts a goroutine calling one of its function parameters
// or a method of one of its ownInterface parameters, or handing it to the
// function the goroutine runs, and waits for nothing after the go
// statement.
func hostFunc(info *types.Info, fd *ast.FuncDecl) bool {
	params := map[types.Object]bool{}
	for _, fl := range fd.Type.Params.List {
		for _, n := range fl.Names {
			if obj := info.Defs[n]; obj != nil && (isFunc(obj.Type()) || ownInterface(obj)) {
				params[obj] = true
			}
		}
	}
	if len(params) == 0 {
		return false
	}
	var host *ast.GoStmt
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		g, ok := n.(*ast.GoStmt)
		if !ok || host != nil {
			return host == nil
		}
		// The parameter called, or handed on, by the goroutine: `go
		// f()`, `go func() { f() }()`, `go g.doCall(c, key, fn)`
		// (singleflight's DoChan), `go run(ctx, f)`.
		ast.Inspect(g.Call, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && params[info.Uses[id]] {
				host = g
			}
			return host == nil
		})
		return false
	})
	return host != nil && !waitsAfter(info, fd.Body, host)
}

func isFunc(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// ownInterface: obj's type is an exported interface with methods that its
// own package declares, for its callers to implement (a scheduler's Job,
// whose Run the caller wrote); not the standard library's (a context, a
// reader), whose methods are seldom the caller's code, nor an unexported
// one, which the package's own types implement.
func ownInterface(obj types.Object) bool {
	named, ok := types.Unalias(obj.Type()).(*types.Named)
	if !ok || !named.Obj().Exported() || named.Obj().Pkg() == nil || named.Obj().Pkg() != obj.Pkg() {
		return false
	}
	it, ok := named.Underlying().(*types.Interface)
	return ok && it.NumMethods() > 0
}

// waitsAfter: body blocks after the go statement g (outside it): a
// channel receive, a select, a range over a channel, a Wait call or a
// sleep.
func waitsAfter(info *types.Info, body *ast.BlockStmt, g *ast.GoStmt) bool {
	waits := false
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || waits || n == ast.Node(g) {
			return false
		}
		if n.End() <= g.End() && !containsPos(n, g) {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // runs later, if at all
		case *ast.UnaryExpr:
			waits = n.Op == token.ARROW && n.Pos() > g.End()
		case *ast.SelectStmt:
			waits = n.Pos() > g.End()
		case *ast.RangeStmt:
			if t, ok := info.Types[n.X]; ok && n.Pos() > g.End() {
				_, waits = t.Type.Underlying().(*types.Chan)
			}
		case *ast.CallExpr:
			if n.Pos() > g.End() {
				var name string
				switch fn := ast.Unparen(n.Fun).(type) {
				case *ast.SelectorExpr:
					name = fn.Sel.Name
				case *ast.Ident:
					name = fn.Name
				}
				waits = name == "Wait" || name == "Sleep"
			}
		}
		return !waits
	})
	return waits
}

func containsPos(n ast.Node, g *ast.GoStmt) bool { return n.Pos() <= g.Pos() && g.End() <= n.End() }

// runsStored: a function of the package stores a function parameter (a
// send, an append, an assignment to a field, an element or through a
// pointer or to a package variable, directly or through a local value
// built from it), and a
// goroutine the package starts calls a function value (not a declared
// function) of an identical type, in the function the go statement runs
// or in the package's functions that one calls.
func runsStored(info *types.Info, files []*ast.File) bool {
	decls := map[types.Object]*ast.FuncDecl{}
	var stored []types.Type
	var gos []*ast.GoStmt
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if obj := info.Defs[fd.Name]; obj != nil {
				decls[obj] = fd
			}
			stored = append(stored, storedParams(info, fd)...)
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if g, ok := n.(*ast.GoStmt); ok {
					gos = append(gos, g)
				}
				return true
			})
		}
	}
	if len(stored) == 0 || len(gos) == 0 {
		return false
	}
	seen := map[*ast.FuncDecl]bool{}
	found := false
	var visit func(body ast.Node)
	visit = func(body ast.Node) {
		ast.Inspect(body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || found {
				return !found
			}
			fun := ast.Unparen(call.Fun)
			if tv, ok := info.Types[fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
				return true
			}
			if fd := decls[calleeObj(info, fun)]; fd != nil {
				if !seen[fd] {
					seen[fd] = true
					visit(fd.Body)
				}
				return true
			}
			if calleeObj(info, fun) == nil || isVar(info, fun) {
				if t := info.TypeOf(fun); t != nil {
					for _, s := range stored {
						found = found || sameFunc(t, s)
					}
				}
			}
			return !found
		})
	}
	for _, g := range gos {
		visit(g.Call)
		if found {
			return true
		}
	}
	return false
}

// sameFunc: identical types, or the same signature written with type
// parameters (each method of a generic type has its own receiver type
// parameters: Go's func() T and run's func() T are not Identical).
func sameFunc(a, b types.Type) bool {
	return types.Identical(a, b) || types.TypeString(a.Underlying(), nil) == types.TypeString(b.Underlying(), nil)
}

// calleeObj is the object a call's function expression names: an
// identifier's, or a selector's selected object; nil for other
// expressions (an index, a call's result).
func calleeObj(info *types.Info, fun ast.Expr) types.Object {
	var obj types.Object
	switch fun := fun.(type) {
	case *ast.Ident:
		obj = info.Uses[fun]
	case *ast.SelectorExpr:
		obj = info.Uses[fun.Sel]
	}
	if f, ok := obj.(*types.Func); ok {
		return f.Origin() // a generic type's method: its declaration
	}
	return obj
}

func isVar(info *types.Info, fun ast.Expr) bool {
	_, ok := calleeObj(info, fun).(*types.Var)
	return ok
}

// storedParams are the types of fd's function parameters that fd stores
// where a goroutine can later find them: the value of a send, an argument
// of append, or the right side of an assignment to anything but a local
// variable; a local variable assigned a value built from such a
// parameter carries it on.
func storedParams(info *types.Info, fd *ast.FuncDecl) []types.Type {
	carries := map[types.Object]types.Type{}
	for _, fl := range fd.Type.Params.List {
		for _, n := range fl.Names {
			if obj := info.Defs[n]; obj != nil {
				if _, ok := obj.Type().Underlying().(*types.Signature); ok {
					carries[obj] = obj.Type()
				}
			}
		}
	}
	if len(carries) == 0 {
		return nil
	}
	// uses: the parameter types an expression's identifiers carry.
	uses := func(e ast.Node) []types.Type {
		var ts []types.Type
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if t := carries[info.Uses[id]]; t != nil {
					ts = append(ts, t)
				}
			}
			return true
		})
		return ts
	}
	var out []types.Type
	for changed := true; changed; {
		changed = false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SendStmt:
				out = append(out, uses(n.Value)...)
			case *ast.CallExpr:
				if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "append" {
					if _, ok := info.Uses[id].(*types.Builtin); ok {
						for _, a := range n.Args[1:] {
							out = append(out, uses(a)...)
						}
					}
				}
			case *ast.AssignStmt:
				if len(n.Lhs) != len(n.Rhs) {
					return true
				}
				for i, l := range n.Lhs {
					ts := uses(n.Rhs[i])
					if len(ts) == 0 {
						continue
					}
					id, ok := l.(*ast.Ident)
					if !ok {
						out = append(out, ts...)
						continue
					}
					obj := info.Defs[id]
					if obj == nil {
						obj = info.Uses[id]
					}
					if obj != nil && obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope() {
						out = append(out, ts...) // a package variable
						continue
					}
					if obj != nil && carries[obj] == nil {
						carries[obj] = ts[0]
						changed = true
					}
				}
			}
			return true
		})
	}
	return out
}
