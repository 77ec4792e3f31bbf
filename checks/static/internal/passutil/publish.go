// publish.go: a plain write to a value no other goroutine can reach yet
// (construction before publication) races nothing: atomicmix (IL3002)
// and guardedby (the guard rules) ask the same question here.
package passutil

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// Publication decides, for a pass, whether a plain write is made before
// its value is published (BeforePublication). Var names the variable an
// expression accesses (a field; nil if none); Allocated says whether an
// expression makes a new value (&T{}, T{}, new(T), a constructor call).
type Publication struct {
	Pass      *analysis.Pass
	Var       func(e ast.Expr) *types.Var
	Allocated func(e ast.Expr) bool
	decls     map[*types.Func]*ast.FuncDecl
	index     *pubIndex
}

// pubSite is one call of a function of the package, outside tests.
type pubSite struct {
	caller *ast.FuncDecl
	call   *ast.CallExpr
	stack  []ast.Node // the enclosing nodes of call in caller's body
}

// pubIndex holds, per function of the package, its calls outside tests,
// and the functions also used as values (their callers are unknown).
type pubIndex struct {
	calls   map[*types.Func][]pubSite
	valued  map[*types.Func]bool
	methods map[string][]*ast.FuncDecl // methods of the package by name
}

// BeforePublication reports whether the plain write e of v in fd is made
// on a value no other goroutine can reach yet: e's root x is a local of
// fd bound to a fresh allocation, or a parameter (receiver included)
// every call of fd outside tests passes such a value, and nothing before
// e in fd hands x to other code that could share it (see published). Its
// write cannot race the atomic accesses, which need the value shared.
func (pc *Publication) BeforePublication(fd *ast.FuncDecl, e ast.Expr, v *types.Var, stack []ast.Node) bool {
	if InsideFuncLit(stack) {
		return false
	}
	root := RootIdent(e)
	if root == nil {
		return false
	}
	obj, ok := pc.Pass.TypesInfo.Uses[root].(*types.Var)
	if !ok {
		return false
	}
	return pc.unpublishedAt(fd, obj, v, e.Pos(), map[*types.Var]bool{})
}

// unpublishedAt reports whether x, a local or parameter of fd, is not
// shared with code that may access v when fd reaches at.
func (pc *Publication) unpublishedAt(fd *ast.FuncDecl, x *types.Var, v *types.Var, at token.Pos, visiting map[*types.Var]bool) bool {
	if Reassigned(pc.Pass.TypesInfo, fd.Body, x) {
		return false
	}
	if !pc.freshIn(fd, x) && !pc.unpublishedParam(fd, x, v, visiting) {
		return false
	}
	return !pc.published(fd, x, v, at, map[*types.Var]bool{})
}

// freshIn reports whether x is defined in fd by x := <allocation>.
func (pc *Publication) freshIn(fd *ast.FuncDecl, x *types.Var) bool {
	info := pc.Pass.TypesInfo
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE {
			return !found
		}
		for i, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok && info.Defs[id] == x {
				found = len(as.Lhs) == len(as.Rhs) && pc.Allocated(as.Rhs[i]) ||
					len(as.Rhs) == 1 && i == 0 && pc.Allocated(as.Rhs[0])
			}
		}
		return !found
	})
	return found
}

// unpublishedParam reports whether x is the receiver or a parameter of
// fd and every call of fd passes, there, a value unpublished at the call.
// Exported functions count too: their calls outside this package are
// not seen (docs/precision.md names that risk).
func (pc *Publication) unpublishedParam(fd *ast.FuncDecl, x *types.Var, v *types.Var, visiting map[*types.Var]bool) bool {
	if visiting[x] {
		return false // a cycle proves nothing
	}
	visiting[x] = true
	defer delete(visiting, x)
	fn, ok := pc.Pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	idx, ok := paramIndex(fn, x)
	if !ok {
		return false
	}
	idxs := pc.pubIndex()
	sites := idxs.calls[fn]
	if len(sites) == 0 || idxs.valued[fn] {
		return false
	}
	info := pc.Pass.TypesInfo
	for _, s := range sites {
		if InsideFuncLit(s.stack) || len(s.stack) > 0 && isGoOrDefer(s.stack[len(s.stack)-1]) {
			return false
		}
		arg := callArg(info, s.call, idx)
		if arg == nil {
			return false
		}
		if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
			arg = ast.Unparen(u.X)
		}
		id, ok := arg.(*ast.Ident)
		if !ok {
			return false
		}
		y, ok := info.Uses[id].(*types.Var)
		if !ok || !pc.unpublishedAt(s.caller, y, v, s.call.Pos(), visiting) {
			return false
		}
	}
	return true
}

// published reports whether fd, before at (or anywhere in a loop around
// at that x is declared outside of), hands x to code that may share it
// with a goroutine accessing v. Harmless uses: a selection of one of its
// fields (assigned, read, or an operand of sync/atomic), a comparison,
// and passing x to a function of the package whose parameter is
// contained (see contained), also through an interface method whose
// implementations in the package are so (an implementation in another
// package, such as a hook, is trusted not to hand x on), or starting a
// goroutine on such a function when no function it reaches accesses v.
// A deferred call runs after at.
func (pc *Publication) published(fd *ast.FuncDecl, x *types.Var, v *types.Var, at token.Pos, visiting map[*types.Var]bool) bool {
	info := pc.Pass.TypesInfo
	relevant := runsBefore(fd.Body, x, at)
	found := false
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		if found {
			return false
		}
		id, ok := n.(*ast.Ident)
		if !ok || info.Uses[id] != x || !relevant(id.Pos()) {
			return true
		}
		if !pc.harmlessUse(id, stack, v, visiting) {
			found = true
		}
		return true
	})
	return found
}

// contained reports whether parameter x of fd never leaves fd for code
// that may share it with a goroutine accessing v (published, anywhere).
func (pc *Publication) contained(fd *ast.FuncDecl, x *types.Var, v *types.Var, visiting map[*types.Var]bool) bool {
	if visiting[x] {
		return true // a cycle hands it nowhere new
	}
	visiting[x] = true
	defer delete(visiting, x)
	if Reassigned(pc.Pass.TypesInfo, fd.Body, x) {
		return false
	}
	return !pc.published(fd, x, v, fd.Body.End(), visiting)
}

// harmlessUse classifies one use id of a variable (stack: its enclosing
// nodes); see published.
func (pc *Publication) harmlessUse(id *ast.Ident, stack []ast.Node, v *types.Var, visiting map[*types.Var]bool) bool {
	info := pc.Pass.TypesInfo
	if capturedElsewhere(stack) {
		return false // captured by a literal that may run anywhere
	}
	for _, n := range stack {
		if _, ok := n.(*ast.DeferStmt); ok {
			return true // runs after every statement of fd
		}
	}
	var cur ast.Expr = id
	i := len(stack) - 1
	fields := 0
	for ; i >= 0; i-- {
		sel, ok := stack[i].(*ast.SelectorExpr)
		if !ok || sel.X != cur {
			break
		}
		s := info.Selections[sel]
		if s == nil || s.Kind() != types.FieldVal {
			break
		}
		cur, fields = sel, fields+1
	}
	var parent ast.Node
	if i >= 0 {
		parent = stack[i]
	}
	if fields > 0 {
		// A field of x: written, read, or its address taken.
		if u, ok := parent.(*ast.UnaryExpr); ok && u.Op == token.AND {
			return i > 0 && pc.isAtomicArg(stack[i-1], u)
		}
		if b, ok := parent.(*ast.BinaryExpr); ok && (b.Op == token.EQL || b.Op == token.NEQ) {
			return true // compared, not handed on
		}
		if sel, ok := parent.(*ast.SelectorExpr); ok && sel.X == cur {
			return pc.harmlessCall(sel, cur, i, stack, v, visiting, containsVar(info.TypeOf(cur), v))
		}
		return !pointsTo(info.TypeOf(cur), v)
	}
	switch p := parent.(type) {
	case *ast.BinaryExpr:
		return p.Op == token.EQL || p.Op == token.NEQ
	case *ast.SelectorExpr: // a method of x
		return pc.harmlessCall(p, cur, i, stack, v, visiting, true)
	case *ast.CallExpr:
		for j, a := range p.Args {
			if ast.Unparen(a) == cur {
				return pc.harmlessArg(p, j, i, stack, v, visiting)
			}
		}
	case *ast.UnaryExpr: // &x
		return false
	}
	return false
}

// harmlessCall decides a method selection sel on x (or on a field of x,
// exposes: the receiver may hold v) at stack[i].
func (pc *Publication) harmlessCall(sel *ast.SelectorExpr, recv ast.Expr, i int, stack []ast.Node, v *types.Var, visiting map[*types.Var]bool, exposes bool) bool {
	info := pc.Pass.TypesInfo
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal || i < 1 {
		return false
	}
	call, ok := stack[i-1].(*ast.CallExpr)
	if !ok || call.Fun != sel {
		// A method value: harmless only kept inside x.
		root := RootIdent(recv)
		x, _ := info.Uses[root].(*types.Var)
		return root != nil && x != nil && partOf(info, recv, x) && pc.keptMethodValue(sel, i, stack, x)
	}
	if recv := s.Obj().(*types.Func).Signature().Recv(); !exposes || recv != nil && !containsVar(recv.Type(), v) {
		return true // the receiver is a part of x without v (an embedded mutex)
	}
	return pc.harmlessArg(call, -1, i-1, stack, v, visiting)
}

// harmlessArg decides passing x as argument idx (-1: the receiver) of
// call, at stack[i].
func (pc *Publication) harmlessArg(call *ast.CallExpr, idx, i int, stack []ast.Node, v *types.Var, visiting map[*types.Var]bool) bool {
	info := pc.Pass.TypesInfo
	started := i >= 1 && isGoStmt(stack[i-1], call)
	callee, _ := typeutil.Callee(info, call).(*types.Func)
	if callee == nil {
		return false // a func value
	}
	callee = callee.Origin()
	var targets []*ast.FuncDecl
	if fd := pc.funcDecls()[callee]; fd != nil && typeutil.StaticCallee(info, call) != nil {
		targets = []*ast.FuncDecl{fd}
	} else if recv := callee.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
		targets = pc.pubIndex().methods[callee.Name()] // implementations here; others are trusted
	} else {
		return false // a function of another package
	}
	for _, fd := range targets {
		fn, _ := info.Defs[fd.Name].(*types.Func)
		if fn == nil {
			return false
		}
		p := paramAt(fn, idx)
		if p == nil || !pc.contained(fd, p, v, visiting) {
			return false
		}
		if started && pc.reaches(fd, v) {
			return false
		}
	}
	return true
}

// reaches reports whether fd, or a function of the package it calls
// (statically, through an interface method implemented here, in its
// literals and goroutines), accesses v; a call of a func value may run
// anything.
func (pc *Publication) reaches(fd *ast.FuncDecl, v *types.Var) bool {
	info := pc.Pass.TypesInfo
	seen := map[*ast.FuncDecl]bool{}
	work := []*ast.FuncDecl{fd}
	for len(work) > 0 {
		d := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[d] {
			continue
		}
		seen[d] = true
		hit := false
		ast.Inspect(d.Body, func(n ast.Node) bool {
			if hit {
				return false
			}
			switch n := n.(type) {
			case *ast.SelectorExpr, *ast.Ident:
				if pc.Var(n.(ast.Expr)) == v {
					hit = true
				}
			case *ast.CallExpr:
				if tv, ok := info.Types[n.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
					return true
				}
				if _, ok := ast.Unparen(n.Fun).(*ast.FuncLit); ok {
					return true // its body is walked here
				}
				callee, _ := typeutil.Callee(info, n).(*types.Func)
				switch {
				case callee == nil:
					hit = true // a func value
				case pc.funcDecls()[callee.Origin()] != nil:
					work = append(work, pc.funcDecls()[callee.Origin()])
				case callee.Signature().Recv() != nil && types.IsInterface(callee.Signature().Recv().Type()):
					work = append(work, pc.pubIndex().methods[callee.Name()]...)
				}
			}
			return true
		})
		if hit {
			return true
		}
	}
	return false
}

// pubIndex builds the calls of the package's functions (outside tests).
func (pc *Publication) pubIndex() *pubIndex {
	if pc.index != nil {
		return pc.index
	}
	info := pc.Pass.TypesInfo
	x := &pubIndex{calls: map[*types.Func][]pubSite{}, valued: map[*types.Func]bool{}, methods: map[string][]*ast.FuncDecl{}}
	for _, f := range pc.Pass.Files {
		test := strings.HasSuffix(pc.Pass.Fset.Position(f.Pos()).Filename, "_test.go")
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fd.Recv != nil && !test {
				x.methods[fd.Name.Name] = append(x.methods[fd.Name.Name], fd)
			}
			ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok {
					return true
				}
				fn, ok := info.Uses[id].(*types.Func)
				if !ok {
					return true
				}
				fn = fn.Origin()
				call, k := CallOf(id, stack)
				if call == nil {
					x.valued[fn] = true
					return true
				}
				if !test {
					// PreorderStack reuses its stack: keep a copy.
					x.calls[fn] = append(x.calls[fn], pubSite{caller: fd, call: call, stack: slices.Clone(stack[:k])})
				}
				return true
			})
		}
	}
	pc.index = x
	return x
}

// isAtomicArg reports whether u (&x.f) is an argument of a sync/atomic
// function call n.
func (pc *Publication) isAtomicArg(n ast.Node, u *ast.UnaryExpr) bool {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(pc.Pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
		return false
	}
	for _, a := range call.Args {
		if ast.Unparen(a) == u {
			return true
		}
	}
	return false
}

// Reassigned reports whether body assigns x other than by its definition
// (x = ..., x++, &x).
func Reassigned(info *types.Info, body *ast.BlockStmt, x *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.Uses[id] == x {
					found = true
				}
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && info.Uses[id] == x {
				found = true
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND && info.Uses[id] == x {
				found = true
			}
		}
		return !found
	})
	return found
}

// paramIndex returns the position of x among fn's parameters, -1 for
// its receiver.
func paramIndex(fn *types.Func, x *types.Var) (int, bool) {
	sig := fn.Signature()
	if sig.Recv() == x {
		return -1, true
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if sig.Params().At(i) == x {
			return i, !sig.Variadic() || i < sig.Params().Len()-1
		}
	}
	return 0, false
}

// paramAt is the inverse of paramIndex (nil when out of range).
func paramAt(fn *types.Func, idx int) *types.Var {
	sig := fn.Signature()
	if idx < 0 {
		return sig.Recv()
	}
	if idx >= sig.Params().Len() || sig.Variadic() && idx == sig.Params().Len()-1 {
		return nil
	}
	return sig.Params().At(idx)
}

// callArg returns the expression call passes for parameter idx (-1: the
// receiver of a method call x.m(...)), unparenthesized.
func callArg(info *types.Info, call *ast.CallExpr, idx int) ast.Expr {
	if idx < 0 {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		if s := info.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
			return nil
		}
		return ast.Unparen(sel.X)
	}
	if idx >= len(call.Args) || call.Ellipsis.IsValid() {
		return nil
	}
	return ast.Unparen(call.Args[idx])
}

func isGoOrDefer(n ast.Node) bool {
	switch n.(type) {
	case *ast.GoStmt, *ast.DeferStmt:
		return true
	}
	return false
}

func isGoStmt(n ast.Node, call *ast.CallExpr) bool {
	g, ok := n.(*ast.GoStmt)
	return ok && g.Call == call
}

// containsVar reports whether a value of type t (a struct, or a pointer
// to one) holds field v in place, through struct-valued fields.
func containsVar(t types.Type, v *types.Var) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	return structHolds(t, v, 0)
}

func structHolds(t types.Type, v *types.Var, depth int) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || depth > 8 {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if f.Origin() == v || structHolds(f.Type(), v, depth+1) {
			return true
		}
	}
	return false
}

// pointsTo reports whether a value of type t, read out of x, refers to
// memory holding v: a pointer to a struct holding it. A value of
// interface type (a connection, a logger) is taken to be another object.
func pointsTo(t types.Type, v *types.Var) bool {
	if t == nil {
		return true
	}
	if u, ok := t.Underlying().(*types.Pointer); ok {
		return structHolds(u.Elem(), v, 0)
	}
	return false
}

// runsBefore returns whether a node at p of body may run before at: it
// lies before at, or in a loop around at that x is declared outside of
// (the next iteration).
func runsBefore(body *ast.BlockStmt, x *types.Var, at token.Pos) func(p token.Pos) bool {
	var loops []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if n.Pos() <= at && at < n.End() && !(n.Pos() <= x.Pos() && x.Pos() < n.End()) {
				loops = append(loops, n)
			}
		}
		return true
	})
	return func(p token.Pos) bool {
		if p < at {
			return true
		}
		for _, l := range loops {
			if l.Pos() <= p && p < l.End() {
				return true
			}
		}
		return false
	}
}

// StoredBefore reports whether body stores x itself (not a field of it)
// where another goroutine may find it, before at (runsBefore): on the
// right of an assignment, sent, as an element of a composite literal, or
// appended. A value fresh in a function that starts no goroutine is
// shared from then on all the same (s.clients[id] = cl; cl.n = 1).
func StoredBefore(info *types.Info, body *ast.BlockStmt, x types.Object, at token.Pos) bool {
	v, ok := x.(*types.Var)
	if !ok {
		return false
	}
	relevant := runsBefore(body, v, at)
	found := false
	ast.PreorderStack(body, nil, func(n ast.Node, stack []ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if found || !ok || info.Uses[id] != x || !relevant(id.Pos()) || len(stack) == 0 {
			return !found
		}
		var cur ast.Node = id
		i := len(stack) - 1
		for ; i >= 0; i-- { // &x, (x)
			if u, ok := stack[i].(*ast.UnaryExpr); ok && u.Op == token.AND {
				cur = u
				continue
			}
			if _, ok := stack[i].(*ast.ParenExpr); ok {
				cur = stack[i]
				continue
			}
			break
		}
		if i < 0 {
			return true
		}
		switch p := stack[i].(type) {
		case *ast.AssignStmt:
			for _, r := range p.Rhs {
				if r == cur {
					found = true
				}
			}
		case *ast.SendStmt:
			found = p.Value == cur
		case *ast.CompositeLit:
			found = true
		case *ast.KeyValueExpr:
			found = p.Value == cur
		case *ast.CallExpr:
			if b, ok := ast.Unparen(p.Fun).(*ast.Ident); ok && p.Fun != cur {
				if bi, ok := info.Uses[b].(*types.Builtin); ok && bi.Name() == "append" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// capturedElsewhere reports whether stack holds a function literal that
// is not called on the spot (func() { … }() and defer func() { … }() run
// on this goroutine).
func capturedElsewhere(stack []ast.Node) bool {
	for j, n := range stack {
		if _, ok := n.(*ast.FuncLit); !ok {
			continue
		}
		if j == 0 {
			return true
		}
		call, ok := stack[j-1].(*ast.CallExpr)
		if !ok || call.Fun != n {
			return true
		}
		if j >= 2 {
			if _, ok := stack[j-2].(*ast.GoStmt); ok {
				return true
			}
		}
	}
	return false
}

// funcDecls maps the package's functions to their declarations.
func (pc *Publication) funcDecls() map[*types.Func]*ast.FuncDecl {
	if pc.decls != nil {
		return pc.decls
	}
	pc.decls = map[*types.Func]*ast.FuncDecl{}
	for _, f := range pc.Pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pc.Pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					pc.decls[fn] = fd
				}
			}
		}
	}
	return pc.decls
}

// InsideFuncLit reports whether stack holds a function literal.
func InsideFuncLit(stack []ast.Node) bool {
	for _, n := range stack {
		if _, ok := n.(*ast.FuncLit); ok {
			return true
		}
	}
	return false
}
