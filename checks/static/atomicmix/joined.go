package atomicmix

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

// joinedReset reports whether the plain write e of v in fd resets state
// that only fd's own goroutines update atomically: e runs before fd's
// first go statement, outside loops and function literals; fd joins every
// goroutine it starts before it returns (joinedGoroutines); and every
// atomic access of v through e's owner path is in fd outside function
// literals, in a goroutine fd starts, or in a function only those reach
// (goroutineOnly). The package never runs fd itself from a goroutine or a
// function literal. Within one call the go statements order e before the
// atomics; one call's goroutines end before it returns, so a later call's
// reset follows them. Only two overlapping calls of fd race, and those
// would also mix one counting run with another (certificate-transparency's
// ScanLog zeroes its counters, starts a ticker and matchers that add to
// them, and waits for both).
func (pc *passContext) joinedReset(fd *ast.FuncDecl, e ast.Expr, v *types.Var, stack []ast.Node, firstGo token.Pos) bool {
	if firstGo == token.NoPos || e.Pos() >= firstGo || insideFuncLit(stack) {
		return false
	}
	for _, n := range stack {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return false
		}
	}
	spans, ok := pc.joinedGoroutines(fd)
	if !ok {
		return false
	}
	only, self := pc.goroutineOnly(fd, spans)
	if !self {
		return false
	}
	info := pc.pass.TypesInfo
	owner := pc.lockKey(e)
	for _, u := range pc.uses[v.Origin()] {
		if u.owner != owner {
			continue
		}
		if u.decl == fd && (inSpans(spans, u.call.Pos()) || !inFuncLit(fd.Body, u.call.Pos())) {
			continue
		}
		if u.decl != nil && u.decl != fd && !inFuncLit(u.decl.Body, u.call.Pos()) {
			if fn, ok := info.Defs[u.decl.Name].(*types.Func); ok && only[fn] {
				continue
			}
		}
		return false
	}
	return true
}

type span struct{ pos, end token.Pos }

func inSpans(spans []span, p token.Pos) bool {
	for _, s := range spans {
		if s.pos <= p && p < s.end {
			return true
		}
	}
	return false
}

// inFuncLit reports whether p lies inside a function literal of body.
func inFuncLit(body *ast.BlockStmt, p token.Pos) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil || p < n.Pos() || p >= n.End() {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			found = true
		}
		return !found
	})
	return found
}

// joinedGoroutines returns the spans of fd's go statements, when fd joins every one of them before any return
// after it: a function literal that runs `defer wg.Done()` first (or
// wg.Done() last) on a local WaitGroup fd waits on in a later statement
// of its body; or a call of a package function handed an unbuffered local
// channel that fd sends on in a deferred literal registered in a later
// statement of its body, where the function only receives from it to
// return (`case <-stop: return`). No return of fd lies between the go
// statement and its join; no go statement is inside a literal (a
// goroutine of a goroutine, or one started by a closure run elsewhere)
// nor in the started function or literal.
func (pc *passContext) joinedGoroutines(fd *ast.FuncDecl) ([]span, bool) {
	info := pc.pass.TypesInfo
	list := fd.Body.List
	top := func(p token.Pos) int {
		for i, s := range list {
			if s.Pos() <= p && p < s.End() {
				return i
			}
		}
		return -1
	}
	noReturn := func(from, to int) bool {
		ok := true
		for _, s := range list[from:to] {
			ast.Inspect(s, func(n ast.Node) bool {
				switch n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.ReturnStmt:
					ok = false
				}
				return ok
			})
		}
		return ok
	}
	local := func(x ast.Expr) *types.Var {
		id, ok := ast.Unparen(x).(*ast.Ident)
		if !ok {
			return nil
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || v.Pos() < fd.Body.Pos() || v.Pos() >= fd.Body.End() {
			return nil
		}
		return v
	}
	var spans []span
	ok := true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		g, isGo := n.(*ast.GoStmt)
		if !ok || !isGo {
			return ok
		}
		i := top(g.Pos())
		if i < 0 || inFuncLit(fd.Body, g.Pos()) {
			ok = false
			return false
		}
		spans = append(spans, span{g.Pos(), g.End()})
		if lit, isLit := ast.Unparen(g.Call.Fun).(*ast.FuncLit); isLit {
			wg := doneWG(info, lit.Body, local)
			j := -1
			for k := i + 1; wg != nil && k < len(list); k++ {
				if es, isExpr := list[k].(*ast.ExprStmt); isExpr && isWGCall(info, es.X, "Wait") != nil && local(isWGCall(info, es.X, "Wait")) == wg {
					j = k
					break
				}
			}
			ok = j > 0 && noReturn(i, j) && !hasGo(lit.Body)
			return false
		}
		callee := typeutil.StaticCallee(info, g.Call)
		if callee == nil || callee.Pkg() != pc.pass.Pkg {
			ok = false
			return false
		}
		cd := pc.funcDecls()[callee.Origin()]
		if cd == nil || hasGo(cd.Body) {
			ok = false
			return false
		}
		joined := false
		for ai, a := range g.Call.Args {
			ch := local(a)
			if ch == nil || !unbufferedMake(info, fd.Body, ch) {
				continue
			}
			p := paramAt(info, cd, ai)
			if p == nil || !onlyReturnsOnReceive(info, cd.Body, p) {
				continue
			}
			for k := i + 1; k < len(list); k++ {
				if d, isDefer := list[k].(*ast.DeferStmt); isDefer && sendsOn(info, d, ch, local) && noReturn(i, k) {
					joined = true
					break
				}
			}
			if joined {
				break
			}
		}
		ok = joined
		return false
	})
	return spans, ok && len(spans) > 0
}

// isWGCall returns the receiver of x when x calls sync.WaitGroup's
// method name.
func isWGCall(info *types.Info, x ast.Expr, name string) ast.Expr {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return nil
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return nil
	}
	if recv := fn.Type().(*types.Signature).Recv(); recv == nil || !strings.HasSuffix(recv.Type().String(), "sync.WaitGroup") {
		return nil
	}
	return sel.X
}

// doneWG returns the local WaitGroup a literal's body marks done first
// (defer wg.Done()) or last (wg.Done()).
func doneWG(info *types.Info, body *ast.BlockStmt, local func(ast.Expr) *types.Var) *types.Var {
	if len(body.List) == 0 {
		return nil
	}
	if d, ok := body.List[0].(*ast.DeferStmt); ok {
		if x := isWGCall(info, d.Call, "Done"); x != nil {
			return local(x)
		}
	}
	if es, ok := body.List[len(body.List)-1].(*ast.ExprStmt); ok {
		if x := isWGCall(info, es.X, "Done"); x != nil {
			return local(x)
		}
	}
	return nil
}

func hasGo(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if _, ok := n.(*ast.GoStmt); ok {
			found = true
		}
		return !found
	})
	return found
}

// unbufferedMake reports whether ch is defined in body as make(chan T),
// with no capacity, and never assigned again.
func unbufferedMake(info *types.Info, body *ast.BlockStmt, ch *types.Var) bool {
	made, other := false, false
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || info.ObjectOf(id) != ch {
				continue
			}
			if as.Tok != token.DEFINE || len(as.Rhs) != len(as.Lhs) {
				other = true
				continue
			}
			call, ok := as.Rhs[i].(*ast.CallExpr)
			if b, isB := info.Uses[identOf(call)].(*types.Builtin); ok && isB && b.Name() == "make" && len(call.Args) == 1 {
				made = true
			} else {
				other = true
			}
		}
		return true
	})
	return made && !other
}

func identOf(call *ast.CallExpr) *ast.Ident {
	if call == nil {
		return nil
	}
	id, _ := ast.Unparen(call.Fun).(*ast.Ident)
	return id
}

// paramAt returns the parameter of cd that receives the i-th argument.
func paramAt(info *types.Info, cd *ast.FuncDecl, i int) *types.Var {
	k := 0
	for _, f := range cd.Type.Params.List {
		for _, name := range f.Names {
			if k == i {
				v, _ := info.Defs[name].(*types.Var)
				return v
			}
			k++
		}
		if len(f.Names) == 0 {
			k++
		}
	}
	return nil
}

// onlyReturnsOnReceive reports whether every use of p in body is the
// receive of a select case whose first statement is a return.
func onlyReturnsOnReceive(info *types.Info, body *ast.BlockStmt, p *types.Var) bool {
	ok, used := true, false
	ast.PreorderStack(body, nil, func(n ast.Node, stack []ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID || info.Uses[id] != p {
			return ok
		}
		used = true
		// stack: … CommClause, ExprStmt, UnaryExpr(<-)
		if len(stack) < 3 {
			ok = false
			return false
		}
		u, isU := stack[len(stack)-1].(*ast.UnaryExpr)
		es, isES := stack[len(stack)-2].(*ast.ExprStmt)
		cc, isCC := stack[len(stack)-3].(*ast.CommClause)
		if !isU || u.Op != token.ARROW || !isES || !isCC || cc.Comm != es || len(cc.Body) == 0 {
			ok = false
			return false
		}
		if _, isRet := cc.Body[0].(*ast.ReturnStmt); !isRet {
			ok = false
		}
		return ok
	})
	return ok && used
}

// sendsOn reports whether d defers a literal that sends on ch in a
// statement of its own body.
func sendsOn(info *types.Info, d *ast.DeferStmt, ch *types.Var, local func(ast.Expr) *types.Var) bool {
	lit, ok := ast.Unparen(d.Call.Fun).(*ast.FuncLit)
	if !ok {
		return false
	}
	for _, s := range lit.Body.List {
		if send, ok := s.(*ast.SendStmt); ok && local(send.Chan) == ch {
			return true
		}
	}
	return false
}

// goroutineOnly returns the unexported functions of the package (outside
// tests, starting no goroutine, not named by an interface method call)
// that run only on fd's goroutines or fd's own: every reference is a
// direct call in one of fd's go statements, in fd outside function
// literals, or in such a function outside literals. Calls in test files
// do not count. self says fd is never itself started by a go statement,
// called from a function literal or used as a value in the package.
func (pc *passContext) goroutineOnly(fd *ast.FuncDecl, spans []span) (map[*types.Func]bool, bool) {
	info := pc.pass.TypesInfo
	target, _ := info.Defs[fd.Name].(*types.Func)
	ifaceNames := map[string]bool{}
	for _, sel := range info.Selections {
		if sel.Kind() == types.MethodVal && types.IsInterface(sel.Recv()) {
			ifaceNames[sel.Obj().Name()] = true
		}
	}
	type site struct {
		caller *types.Func
		ok     bool // in fd's goroutines, or in fd outside literals
		inLit  bool
	}
	cands := map[*types.Func]bool{}
	sites := map[*types.Func][]site{}
	self := true
	for fn, d := range pc.funcDecls() {
		if fn != target && !fn.Exported() && !ifaceNames[fn.Name()] && !hasGo(d.Body) && !strings.HasSuffix(pc.pass.Fset.Position(d.Pos()).Filename, "_test.go") {
			cands[fn] = true
		}
	}
	for _, f := range pc.pass.Files {
		if strings.HasSuffix(pc.pass.Fset.Position(f.Pos()).Filename, "_test.go") {
			continue
		}
		for _, decl := range f.Decls {
			d, isFD := decl.(*ast.FuncDecl)
			if !isFD || d.Body == nil {
				ast.Inspect(decl, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						if fn, ok := info.Uses[id].(*types.Func); ok {
							sites[fn.Origin()] = append(sites[fn.Origin()], site{})
						}
					}
					return true
				})
				continue
			}
			caller, _ := info.Defs[d.Name].(*types.Func)
			calls := map[ast.Expr]bool{}
			gos := map[ast.Expr]bool{}
			ast.Inspect(d.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					calls[ast.Unparen(n.Fun)] = true
				case *ast.GoStmt:
					gos[ast.Unparen(n.Call.Fun)] = true
				}
				return true
			})
			ast.PreorderStack(d.Body, nil, func(n ast.Node, stack []ast.Node) bool {
				var id *ast.Ident
				var fun ast.Expr
				switch n := n.(type) {
				case *ast.SelectorExpr:
					id, fun = n.Sel, n
				case *ast.Ident:
					if len(stack) > 0 {
						if sel, ok := stack[len(stack)-1].(*ast.SelectorExpr); ok && sel.Sel == n {
							return true
						}
					}
					id, fun = n, n
				default:
					return true
				}
				fn, ok := info.Uses[id].(*types.Func)
				if !ok {
					return true
				}
				fn = fn.Origin()
				lit := insideFuncLit(stack)
				if fn == target && (gos[fun] || lit || !calls[fun]) {
					self = false
				}
				s := site{caller: caller, inLit: lit}
				if !calls[fun] && !gos[fun] {
					s.caller = nil // a func or method value: runs anywhere
				} else if d == fd && (inSpans(spans, id.Pos()) || !lit) {
					s.ok = true
				}
				sites[fn] = append(sites[fn], s)
				return true
			})
		}
	}
	only := passutil.EveryCall(cands, sites, func(s site, out map[*types.Func]bool) bool {
		return s.ok || s.caller != nil && out[s.caller] && !s.inLit
	})
	return only, self
}
