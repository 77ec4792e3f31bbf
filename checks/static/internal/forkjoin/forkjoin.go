// Package forkjoin finds goroutines that a function starts and waits for
// (fork-join), for the static passes. A goroutine is joined when the
// starter waits for a signal it sends as it ends: wg.Done and wg.Wait, a
// send or close and a receive, an errgroup's Wait. What counts differs
// with the question a pass asks, so each kind of region has its own
// function, and each keeps the rules its pass had before the passes
// shared this package (no pass changed behaviour):
//
//   - JoinedNext (lockregion's fork-join under a held lock, used by
//     atomicmix): the go statements of a statement list that the very
//     next statement joins. Any wg.Wait(), an errgroup's Wait, a receive
//     or a loop of receives joins a literal that signals its end last or
//     in a defer; the WaitGroup or channel is not matched. A loop that
//     only starts goroutines and counts them counts as the go statement.
//     The starter runs nothing between the start and the join.
//   - JoinedAll (atomicmix's reset before the goroutines a function
//     starts): every go statement of a function body joined before any
//     later return, or none. The join may be any later statement, but it
//     must wait on the goroutine's own local WaitGroup (a literal that
//     marks it done first in a defer or last), or, for a started package
//     function, send in a deferred literal on the unbuffered local channel
//     it returns on. Goroutines of goroutines are not allowed.
//   - StartWG, Waits (guardedby, on SSA): the WaitGroup struct field a
//     goroutine is registered with (Add before the go statement on every
//     path, a deferred Done in the started function), and the waits on
//     such fields that run before an instruction on every path.
//   - HeldAtWait (guardedby, on SSA): the mutex fields a starter holds at
//     a go statement and still holds, in the same critical section, at a
//     later wait (WaitPoint: a receive, a blocking select, wg.Wait) that
//     the go statement dominates or every path from it passes; the wait
//     is not matched to the goroutine.
package forkjoin

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

// syncCall reports whether e calls method name of sync's type recv (a
// pointer receiver or not), and returns the receiver expression when e
// calls it through a selector (wg in wg.Wait()), nil otherwise.
func syncCall(info *types.Info, e ast.Expr, recv, name string) (ast.Expr, bool) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync" || fn.Name() != name {
		return nil, false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || !lockset.IsNamed(sig.Recv().Type(), "sync", recv) {
		return nil, false
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == name {
		return sel.X, true
	}
	return nil, true
}

// wgCall returns the receiver of x when x calls sync.WaitGroup's method
// name through a selector.
func wgCall(info *types.Info, x ast.Expr, name string) ast.Expr {
	recv, _ := syncCall(info, x, "WaitGroup", name)
	return recv
}

func isWG(info *types.Info, e ast.Expr, name string) bool {
	_, ok := syncCall(info, e, "WaitGroup", name)
	return ok
}

// errgroupWait reports whether e calls Wait of an errgroup.Group.
func errgroupWait(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "golang.org/x/sync/errgroup" && fn.Name() == "Wait"
}

// isRecv reports whether e is a channel receive (<-ch).
func isRecv(e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	return ok && u.Op == token.ARROW
}

// HasGo reports whether n holds a go statement (in a literal too).
func HasGo(n ast.Node) bool { return has[*ast.GoStmt](n) }

func hasCall(n ast.Node) bool { return has[*ast.CallExpr](n) }

// has reports whether n holds a node of type T.
func has[T ast.Node](n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if _, ok := n.(T); ok {
			found = true
		}
		return !found
	})
	return found
}

// InFuncLit reports whether p lies inside a function literal of body.
func InFuncLit(body *ast.BlockStmt, p token.Pos) bool {
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

// InGo reports whether p lies inside one of gos.
func InGo(gos []*ast.GoStmt, p token.Pos) bool {
	for _, g := range gos {
		if g.Pos() <= p && p < g.End() {
			return true
		}
	}
	return false
}

func isClose(info *types.Info, e ast.Expr) bool {
	return passutil.IsBuiltinCall(info, e, "close")
}
