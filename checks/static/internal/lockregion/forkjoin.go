package lockregion

// Fork-join: goroutines awaited before the starter's next statement.

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

// markJoined records the go statements of list that the statement after
// them joins: go f(); wg.Wait(), or a loop that only starts goroutines
// (and counts them, or binds locals) followed by the join. The starter
// runs nothing between the start and the join, so the goroutines run
// inside its critical section.
func (w *Walker) markJoined(list []ast.Stmt) {
	for i := 0; i+1 < len(list); i++ {
		if !w.isJoin(list[i+1]) {
			continue
		}
		switch s := list[i].(type) {
		case *ast.GoStmt:
			w.markGo(s)
		case *ast.ForStmt:
			w.markLoop(s.Body)
		case *ast.RangeStmt:
			w.markLoop(s.Body)
		}
	}
}

// markGo marks g joined when it starts a function literal that signals
// its end last: its last statement sends, closes a channel or calls
// wg.Done, or it defers one of those (a goroutine that signals "ready"
// and goes on is not joined by the receive).
func (w *Walker) markGo(g *ast.GoStmt) {
	lit, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit)
	if !ok || len(lit.Body.List) == 0 {
		return
	}
	signals := func(s ast.Stmt) bool {
		switch s := s.(type) {
		case *ast.SendStmt:
			return true
		case *ast.ExprStmt:
			return w.syncCall(s.X, "WaitGroup", "Done") || w.isClose(s.X)
		case *ast.DeferStmt:
			return w.syncCall(s.Call, "WaitGroup", "Done") || w.isClose(s.Call)
		}
		return false
	}
	ok = signals(lit.Body.List[len(lit.Body.List)-1])
	for _, s := range lit.Body.List {
		if _, isDefer := s.(*ast.DeferStmt); isDefer && signals(s) {
			ok = true
		}
	}
	if !ok {
		return
	}
	if w.joined == nil {
		w.joined = map[*ast.GoStmt]bool{}
	}
	w.joined[g] = true
}

// markLoop marks the go statements of a loop body whose other statements
// only count goroutines (wg.Add) or bind locals without calls.
func (w *Walker) markLoop(body *ast.BlockStmt) {
	var gos []*ast.GoStmt
	for _, s := range body.List {
		switch s := s.(type) {
		case *ast.GoStmt:
			gos = append(gos, s)
		case *ast.ExprStmt:
			if !w.syncCall(s.X, "WaitGroup", "Add") {
				return
			}
		case *ast.AssignStmt:
			for _, l := range s.Lhs {
				if _, ok := l.(*ast.Ident); !ok {
					return
				}
			}
			for _, r := range s.Rhs {
				if hasCall(r) {
					return
				}
			}
		case *ast.DeclStmt:
			if hasCall(s) {
				return
			}
		default:
			return
		}
	}
	for _, g := range gos {
		w.markGo(g)
	}
}

// isJoin reports whether s waits for goroutines: wg.Wait(), g.Wait() of
// an errgroup, a receive (<-ch, v := <-ch, return <-ch), or a loop whose
// body is one receive.
func (w *Walker) isJoin(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ExprStmt:
		return w.syncCall(s.X, "WaitGroup", "Wait") || isRecv(s.X) || w.errgroupWait(s.X)
	case *ast.AssignStmt:
		return len(s.Rhs) == 1 && (isRecv(s.Rhs[0]) || w.errgroupWait(s.Rhs[0]))
	case *ast.ReturnStmt:
		return len(s.Results) == 1 && (isRecv(s.Results[0]) || w.errgroupWait(s.Results[0]))
	case *ast.ForStmt:
		return len(s.Body.List) == 1 && w.isRecvStmt(s.Body.List[0])
	case *ast.RangeStmt:
		if _, isChan := w.Info.TypeOf(s.X).Underlying().(*types.Chan); isChan {
			return false
		}
		return len(s.Body.List) == 1 && w.isRecvStmt(s.Body.List[0])
	}
	return false
}

func (w *Walker) isRecvStmt(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ExprStmt:
		return isRecv(s.X)
	case *ast.AssignStmt:
		return len(s.Rhs) == 1 && isRecv(s.Rhs[0])
	}
	return false
}

func isRecv(e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	return ok && u.Op == token.ARROW
}

// syncCall reports whether e calls method name of sync's type recv.
func (w *Walker) syncCall(e ast.Expr, recv, name string) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(w.Info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync" || fn.Name() != name {
		return false
	}
	sig := fn.Type().(*types.Signature)
	return sig.Recv() != nil && RecvName(sig.Recv().Type()) == recv
}

// errgroupWait reports whether e calls Wait of an errgroup.Group.
func (w *Walker) errgroupWait(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(w.Info, call).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "golang.org/x/sync/errgroup" && fn.Name() == "Wait"
}

func hasCall(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if _, ok := n.(*ast.CallExpr); ok {
			found = true
		}
		return !found
	})
	return found
}

// isClose reports whether e calls the close builtin.
func (w *Walker) isClose(e ast.Expr) bool {
	return passutil.IsBuiltinCall(w.Info, e, "close")
}
