package lockset

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

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
	return setupMethods(nil, files, info, isCtor, false)
}

// SetupMethodsBeforeStart is SetupMethods where a method that starts a
// goroutine on its receiver (go s.mergerLoop()) also sets up its receiver
// before its first go statement: calls made on the receiver there run
// before the goroutines it starts exist (bleve's Open: s.openBolt() loads
// the state, then go s.mergerLoop()). Calls in test files (fset names
// them) are not counted: a test owns the value it calls a method on.
// A call on the caller's receiver under if x.f == nil, before the
// caller's first go statement, counts when the method assigns its
// receiver's f and a starting call of it (before its caller's first go)
// is guarded by the same field: once anything is started f is set, and
// the guarded call is skipped (bleve's OpenMeta and Open both open the
// store only while s.rootBolt == nil, and openBolt sets it).
func SetupMethodsBeforeStart(fset *token.FileSet, files []*ast.File, info *types.Info, isCtor func(string) bool) map[*types.Func]bool {
	return setupMethods(fset, files, info, isCtor, true)
}

func setupMethods(fset *token.FileSet, files []*ast.File, info *types.Info, isCtor func(string) bool, starts bool) map[*types.Func]bool {
	type site struct {
		caller *ast.FuncDecl
		callee *types.Func
		ok     bool       // on a fresh value, or in a constructor
		recv   *ast.Ident // the caller's receiver the call is made on, if any
		start  bool       // before the first go of a caller starting goroutines on recv
		guard  *types.Var // f of an enclosing if recv.f == nil, before the caller's first go
	}
	sites := map[*types.Func][]site{}
	decl := map[*types.Func]bool{}
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, f := range files {
		if fset != nil && strings.HasSuffix(fset.Position(f.Pos()).Filename, "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fn, ok := info.Defs[fd.Name].(*types.Func); ok && fd.Recv != nil && !fd.Name.IsExported() {
				decl[fn] = true
				decls[fn] = fd
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
				s := site{caller: fd, callee: fn}
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
									s.start = true
								}
								if starts && (firstGo == token.NoPos || id.Pos() < firstGo) {
									s.guard = nilGuard(info, stack, recvObj)
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
	// guarded reports whether fn assigns its receiver's f and a starting
	// call of it is guarded by f too.
	guarded := func(fn *types.Func, f *types.Var) bool {
		fd := decls[fn]
		if fd == nil || !assignsRecvField(info, fd, f) {
			return false
		}
		for _, t := range sites[fn] {
			if t.start && t.guard == f {
				return true
			}
		}
		return false
	}
	return passutil.EveryCall(decl, sites, func(s site, out map[*types.Func]bool) bool {
		if s.ok {
			return true
		}
		caller, _ := info.Defs[s.caller.Name].(*types.Func)
		if s.recv != nil && caller != nil && out[caller] {
			return true
		}
		if s.guard == nil {
			return false
		}
		return guarded(s.callee, s.guard)
	})
}

// Allocated reports whether e allocates a value: a composite literal, its
// address, new(T), or a call of a function isCtor accepts by name (newT,
// pkg.NewT, newT[K]).
func Allocated(info *types.Info, e ast.Expr, isCtor func(string) bool) bool {
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

// freshValues returns the local variables of body bound to a value
// allocated there or returned by a constructor, and the position of the
// first go statement, after which they may be shared.
func freshValues(info *types.Info, body *ast.BlockStmt, isCtor func(string) bool) (map[types.Object]bool, token.Pos) {
	fresh := map[types.Object]bool{}
	firstGo := token.NoPos
	alloc := func(e ast.Expr) bool { return Allocated(info, e, isCtor) }
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

// nilGuard returns f when the node is in the body of an enclosing if
// recv.f == nil (or nil == recv.f), recv the receiver, outside literals.
func nilGuard(info *types.Info, stack []ast.Node, recv types.Object) *types.Var {
	for i := len(stack) - 1; i > 0; i-- {
		if _, ok := stack[i].(*ast.FuncLit); ok {
			return nil
		}
		ifs, ok := stack[i-1].(*ast.IfStmt)
		if !ok || stack[i] != ifs.Body {
			continue
		}
		b, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
		if !ok || b.Op != token.EQL {
			continue
		}
		x := b.X
		if isNil(info, x) {
			x = b.Y
		} else if !isNil(info, b.Y) {
			continue
		}
		if f := recvField(info, x, recv); f != nil {
			return f
		}
	}
	return nil
}

func isNil(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, ok = info.Uses[id].(*types.Nil)
	return ok
}

// recvField returns f when e is recv.f, a field of the receiver.
func recvField(info *types.Info, e ast.Expr, recv types.Object) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	x, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok || info.Uses[x] != recv {
		return nil
	}
	if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
		if f, ok := s.Obj().(*types.Var); ok {
			return f.Origin()
		}
	}
	return nil
}

// assignsRecvField reports whether fd assigns f of its receiver (recv.f =
// ..., also as one of several targets), outside function literals.
func assignsRecvField(info *types.Info, fd *ast.FuncDecl, f *types.Var) bool {
	if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return false
	}
	recv := info.Defs[fd.Recv.List[0].Names[0]]
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN {
				return true
			}
			for _, l := range n.Lhs {
				if recvField(info, l, recv) == f {
					found = true
				}
			}
		}
		return !found
	})
	return found
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

// SetupParams returns the pointer parameters (not receivers) of the
// package's unexported functions and methods that only ever receive a
// value their caller is still setting up: at every call the argument is a
// local variable of the caller bound to a value allocated there or
// returned by a constructor, passed before the caller's first go
// statement and outside function literals (or &v of such a variable), or
// the call is in a constructor, or the argument is a parameter of the
// caller that is itself such a parameter. The function must be called
// only directly (never used as a value) and must not assign the
// parameter. rabbitmq-stream's declarePublisher builds the producer, then
// internalDeclarePublisher(streamName, producer) sets its sequence before
// the producer is returned. An access through such a parameter before the
// function's own first go statement runs before the value is shared.
func SetupParams(fset *token.FileSet, files []*ast.File, info *types.Info, isCtor func(string) bool) map[*types.Var]bool {
	type site struct {
		ok     bool       // a fresh value, or a call in a constructor
		param  *types.Var // else: the caller's parameter passed, if any
		caller *types.Func
	}
	params := map[*types.Func][]*types.Var{} // candidate parameters by position
	sites := map[*types.Func][][]site{}      // per call, per parameter position
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, ok := info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			if !fd.Name.IsExported() && fd.Name.Name != "init" && fd.Name.Name != "main" {
				sig := fn.Signature()
				ps := make([]*types.Var, sig.Params().Len())
				any := false
				for i := range ps {
					p := sig.Params().At(i)
					if _, ptr := p.Type().Underlying().(*types.Pointer); ptr && p.Name() != "" && p.Name() != "_" && !passutil.Reassigned(info, fd.Body, p) {
						ps[i], any = p, true
					}
				}
				if any && !sig.Variadic() {
					params[fn] = ps
				}
			}
			fresh, firstGo := freshValues(info, fd.Body, isCtor)
			ctor := isCtor(fd.Name.Name)
			test := strings.HasSuffix(fset.Position(fd.Pos()).Filename, "_test.go")
			ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok {
					return true
				}
				callee, ok := info.Uses[id].(*types.Func)
				if !ok {
					return true
				}
				callee = callee.Origin()
				call, _ := passutil.CallOf(id, stack)
				inLit := false
				for _, m := range stack {
					if _, ok := m.(*ast.FuncLit); ok {
						inLit = true
					}
				}
				if call != nil {
					if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
						if k, ok := info.Selections[sel]; ok && k.Kind() == types.MethodExpr {
							call = nil // T.m(recv, ...): the receiver comes first
						}
					}
				}
				var args []site
				if call != nil && !call.Ellipsis.IsValid() {
					for _, a := range call.Args {
						s := site{caller: fn}
						a = ast.Unparen(a)
						if u, ok := a.(*ast.UnaryExpr); ok && u.Op == token.AND {
							a = ast.Unparen(u.X)
						}
						if x, ok := a.(*ast.Ident); ok && !inLit && !test {
							obj := info.Uses[x]
							s.ok = ctor || fresh[obj] && (firstGo == token.NoPos || x.Pos() < firstGo)
							if v, ok := obj.(*types.Var); ok && !s.ok && isParam(fn, v) && (firstGo == token.NoPos || x.Pos() < firstGo) {
								s.param = v
							}
						}
						args = append(args, s)
					}
				}
				// A use that is no direct call (a func value, go, defer)
				// records no arguments: it rules every parameter out.
				if call != nil && len(stack) >= 2 {
					switch stack[len(stack)-2].(type) {
					case *ast.GoStmt, *ast.DeferStmt:
						args = nil
					}
					if len(stack) >= 3 && (call.Fun != id) {
						switch stack[len(stack)-3].(type) {
						case *ast.GoStmt, *ast.DeferStmt:
							args = nil
						}
					}
				}
				sites[callee] = append(sites[callee], args)
				return true
			})
		}
	}
	out := map[*types.Var]bool{}
	for changed := true; changed; {
		changed = false
		for fn, ps := range params {
			calls := sites[fn]
			if len(calls) == 0 {
				continue
			}
			for i, p := range ps {
				if p == nil || out[p] {
					continue
				}
				all := true
				for _, args := range calls {
					if i >= len(args) {
						all = false
						break
					}
					s := args[i]
					if !s.ok && (s.param == nil || !out[s.param]) {
						all = false
						break
					}
				}
				if all {
					out[p] = true
					changed = true
				}
			}
		}
	}
	return out
}

func isParam(fn *types.Func, v *types.Var) bool {
	ps := fn.Signature().Params()
	for i := 0; i < ps.Len(); i++ {
		if ps.At(i) == v {
			return true
		}
	}
	return false
}
