package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"
)

// hostsGoroutines reports whether dependency package p hands its caller
// goroutines: a function of p starts a goroutine that calls a function
// its caller passed in (a parameter), directly or through the function
// the goroutine runs, and does not wait for it before it
// returns (errgroup's Go, a worker pool's Submit). The caller's code then
// runs on goroutines p started; unless p's synchronization is rewritten
// too, they run outside the scheduler's control, and an order among them
// that fails a test can be neither chosen nor replayed. A function that
// waits for its goroutine itself (an Eventually polling a condition)
// does not count.
func hostsGoroutines(p *packages.Package) bool {
	if p.TypesInfo == nil {
		return false
	}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if ok && fd.Body != nil && hostFunc(p.TypesInfo, fd) {
				return true
			}
		}
	}
	return false
}

// hostFunc: fd starts a goroutine calling one of its function parameters,
// or handing it to the function the goroutine runs, and waits for nothing
// after the go statement.
func hostFunc(info *types.Info, fd *ast.FuncDecl) bool {
	params := map[types.Object]bool{}
	for _, fl := range fd.Type.Params.List {
		for _, n := range fl.Names {
			if obj := info.Defs[n]; obj != nil {
				if _, ok := obj.Type().Underlying().(*types.Signature); ok {
					params[obj] = true
				}
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
