package forkjoin

// Every goroutine of a function joined before it returns.

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// JoinedAll returns the go statements of body, a function's body, when
// the function joins every one of them before any return after it, and
// whether it does (false also when body starts none). A go statement is
// joined by a function literal that runs `defer wg.Done()` first (or
// wg.Done() last) on a local WaitGroup that body waits on in a later
// statement of its own list; or by a call of a function decl declares
// (decl returns nil for a function it does not) handed an unbuffered
// local channel that body sends on in a deferred literal registered in a
// later statement of its list, where the function only receives from it
// to return (`case <-stop: return`). No return of the function lies
// between the go statement and its join; no go statement is inside a
// literal (a goroutine of a goroutine, or one started by a closure run
// elsewhere) nor in the started function or literal.
func JoinedAll(info *types.Info, body *ast.BlockStmt, decl func(*types.Func) *ast.FuncDecl) ([]*ast.GoStmt, bool) {
	list := body.List
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
		if !ok || v.Pos() < body.Pos() || v.Pos() >= body.End() {
			return nil
		}
		return v
	}
	var gos []*ast.GoStmt
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		g, isGo := n.(*ast.GoStmt)
		if !ok || !isGo {
			return ok
		}
		i := top(g.Pos())
		if i < 0 || InFuncLit(body, g.Pos()) {
			ok = false
			return false
		}
		gos = append(gos, g)
		if lit, isLit := ast.Unparen(g.Call.Fun).(*ast.FuncLit); isLit {
			wg := doneWG(info, lit.Body, local)
			j := -1
			for k := i + 1; wg != nil && k < len(list); k++ {
				if es, isExpr := list[k].(*ast.ExprStmt); isExpr && wgCall(info, es.X, "Wait") != nil && local(wgCall(info, es.X, "Wait")) == wg {
					j = k
					break
				}
			}
			ok = j > 0 && noReturn(i, j) && !HasGo(lit.Body)
			return false
		}
		callee := typeutil.StaticCallee(info, g.Call)
		if callee == nil {
			ok = false
			return false
		}
		cd := decl(callee.Origin())
		if cd == nil || HasGo(cd.Body) {
			ok = false
			return false
		}
		joined := false
		for ai, a := range g.Call.Args {
			ch := local(a)
			if ch == nil || !unbufferedMake(info, body, ch) {
				continue
			}
			p := paramAt(info, cd, ai)
			if p == nil || !onlyReturnsOnReceive(info, cd.Body, p) {
				continue
			}
			for k := i + 1; k < len(list); k++ {
				if d, isDefer := list[k].(*ast.DeferStmt); isDefer && sendsOn(d, ch, local) && noReturn(i, k) {
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
	return gos, ok && len(gos) > 0
}

// doneWG returns the local WaitGroup a literal's body marks done first
// (defer wg.Done()) or last (wg.Done()).
func doneWG(info *types.Info, body *ast.BlockStmt, local func(ast.Expr) *types.Var) *types.Var {
	if len(body.List) == 0 {
		return nil
	}
	if d, ok := body.List[0].(*ast.DeferStmt); ok {
		if x := wgCall(info, d.Call, "Done"); x != nil {
			return local(x)
		}
	}
	if es, ok := body.List[len(body.List)-1].(*ast.ExprStmt); ok {
		if x := wgCall(info, es.X, "Done"); x != nil {
			return local(x)
		}
	}
	return nil
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
func sendsOn(d *ast.DeferStmt, ch *types.Var, local func(ast.Expr) *types.Var) bool {
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
