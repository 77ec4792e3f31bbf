package forkjoin

// Joined by the next statement: go f(); wg.Wait().

import (
	"go/ast"
	"go/types"
)

// JoinedNext returns the go statements of list that the statement after
// them joins: go f(); wg.Wait(), or a loop that only starts goroutines
// (and counts them, or binds locals) followed by the join. The starter
// runs nothing between the start and the join.
func JoinedNext(info *types.Info, list []ast.Stmt) []*ast.GoStmt {
	var out []*ast.GoStmt
	for i := 0; i+1 < len(list); i++ {
		if !isJoin(info, list[i+1]) {
			continue
		}
		switch s := list[i].(type) {
		case *ast.GoStmt:
			if signalsEnd(info, s) {
				out = append(out, s)
			}
		case *ast.ForStmt:
			out = append(out, loopStarts(info, s.Body)...)
		case *ast.RangeStmt:
			out = append(out, loopStarts(info, s.Body)...)
		}
	}
	return out
}

// signalsEnd reports whether g starts a function literal that signals
// its end last: its last statement sends, closes a channel or calls
// wg.Done, or it defers one of those (a goroutine that signals "ready"
// and goes on is not joined by the receive).
func signalsEnd(info *types.Info, g *ast.GoStmt) bool {
	lit, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit)
	if !ok || len(lit.Body.List) == 0 {
		return false
	}
	signals := func(s ast.Stmt) bool {
		switch s := s.(type) {
		case *ast.SendStmt:
			return true
		case *ast.ExprStmt:
			return isWG(info, s.X, "Done") || isClose(info, s.X)
		case *ast.DeferStmt:
			return isWG(info, s.Call, "Done") || isClose(info, s.Call)
		}
		return false
	}
	ok = signals(lit.Body.List[len(lit.Body.List)-1])
	for _, s := range lit.Body.List {
		if _, isDefer := s.(*ast.DeferStmt); isDefer && signals(s) {
			ok = true
		}
	}
	return ok
}

// loopStarts returns the go statements of a loop body that signal their
// end, when its other statements only count goroutines (wg.Add) or bind
// locals without calls; none otherwise.
func loopStarts(info *types.Info, body *ast.BlockStmt) []*ast.GoStmt {
	var gos []*ast.GoStmt
	for _, s := range body.List {
		switch s := s.(type) {
		case *ast.GoStmt:
			gos = append(gos, s)
		case *ast.ExprStmt:
			if !isWG(info, s.X, "Add") {
				return nil
			}
		case *ast.AssignStmt:
			for _, l := range s.Lhs {
				if _, ok := l.(*ast.Ident); !ok {
					return nil
				}
			}
			for _, r := range s.Rhs {
				if hasCall(r) {
					return nil
				}
			}
		case *ast.DeclStmt:
			if hasCall(s) {
				return nil
			}
		default:
			return nil
		}
	}
	var out []*ast.GoStmt
	for _, g := range gos {
		if signalsEnd(info, g) {
			out = append(out, g)
		}
	}
	return out
}

// isJoin reports whether s waits for goroutines: wg.Wait(), g.Wait() of
// an errgroup, a receive (<-ch, v := <-ch, return <-ch), or a loop whose
// body is one receive (not a range over a channel).
func isJoin(info *types.Info, s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ExprStmt:
		return isWG(info, s.X, "Wait") || isRecv(s.X) || errgroupWait(info, s.X)
	case *ast.AssignStmt:
		return len(s.Rhs) == 1 && (isRecv(s.Rhs[0]) || errgroupWait(info, s.Rhs[0]))
	case *ast.ReturnStmt:
		return len(s.Results) == 1 && (isRecv(s.Results[0]) || errgroupWait(info, s.Results[0]))
	case *ast.ForStmt:
		return len(s.Body.List) == 1 && isRecvStmt(s.Body.List[0])
	case *ast.RangeStmt:
		if _, isChan := info.TypeOf(s.X).Underlying().(*types.Chan); isChan {
			return false
		}
		return len(s.Body.List) == 1 && isRecvStmt(s.Body.List[0])
	}
	return false
}

func isRecvStmt(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ExprStmt:
		return isRecv(s.X)
	case *ast.AssignStmt:
		return len(s.Rhs) == 1 && isRecv(s.Rhs[0])
	}
	return false
}
