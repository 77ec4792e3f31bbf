package checkact

// One serial writer: a field written after construction only by one
// goroutine, started once per value, cannot change between that
// goroutine's critical sections.

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// serialWriter reports whether the write l and the read at readPos both
// run in a function literal of fd started by a go statement outside any
// loop (go func() { for { select { … } } }()), fd runs once per value
// (onceFor), and every other function of the package writing the
// unexported field v is a constructor or Init method (a composite
// literal is no write): v's only writer after construction is that one
// goroutine, which runs its sections in turn, so no update can land
// between them and be lost.
//
// Or both run in fd itself, outside function literals, and fd runs on one
// serial thread per value (serialFunc: a Start calls it, then starts the
// one goroutine that calls it in turn).
func (pc *passContext) serialWriter(fd *ast.FuncDecl, l ast.Expr, readPos token.Pos, v *types.Var) bool {
	if v == nil || v.Exported() {
		return false
	}
	lit := goLiteral(fd.Body, l.Pos())
	switch {
	case lit != nil:
		if readPos < lit.Pos() || readPos >= lit.End() || !pc.onceFor(fd) {
			return false
		}
	case inLiteral(fd.Body, l.Pos()) || inLiteral(fd.Body, readPos) || !pc.serialFunc(fd):
		return false
	}
	for _, w := range pc.mutators(v) {
		if w != fd && !setUp(w) {
			return false
		}
	}
	return true
}

// goLiteral returns the function literal of body containing pos when it
// is started by a go statement outside any loop, with no other function
// literal in between; nil otherwise.
func goLiteral(body *ast.BlockStmt, pos token.Pos) *ast.FuncLit {
	var found *ast.FuncLit
	var stack, path []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if pos < n.Pos() || pos >= n.End() {
			return false
		}
		stack = append(stack, n)
		path = append(path[:0], stack...)
		return true
	})
	// path: body … innermost node containing pos.
	stack = path
	for i := len(stack) - 1; i >= 0; i-- {
		lit, ok := stack[i].(*ast.FuncLit)
		if !ok {
			continue
		}
		if i < 2 {
			return nil
		}
		call, ok := stack[i-1].(*ast.CallExpr)
		if !ok || call.Fun != lit {
			return nil
		}
		if _, ok := stack[i-2].(*ast.GoStmt); !ok {
			return nil
		}
		for _, n := range stack[:i-2] {
			switch n.(type) {
			case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
				return nil
			}
		}
		found = lit
		break
	}
	return found
}

// onceFor reports whether fd, an unexported method, runs at most once per
// receiver: every reference to it (test files included) is a direct call,
// outside loops and function literals, on a local its caller created
// (s := T{…}, &T{…}, new(T)) and passes to no other call of fd.
func (pc *passContext) onceFor(fd *ast.FuncDecl) bool {
	info := pc.pass.TypesInfo
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok || fd.Recv == nil || fn.Exported() {
		return false
	}
	calls := 0
	ok = true
	for _, file := range pc.pass.Files {
		for _, d := range file.Decls {
			caller, isFn := d.(*ast.FuncDecl)
			if !isFn || caller.Body == nil {
				continue
			}
			var stack []ast.Node
			ast.Inspect(caller.Body, func(n ast.Node) bool {
				if n == nil {
					stack = stack[:len(stack)-1]
					return false
				}
				stack = append(stack, n)
				sel, isSel := n.(*ast.SelectorExpr)
				if !isSel || info.Uses[sel.Sel] != fn {
					return true
				}
				calls++
				if len(stack) < 2 {
					ok = false
					return true
				}
				if call, isCall := stack[len(stack)-2].(*ast.CallExpr); !isCall || call.Fun != sel {
					ok = false
					return true
				}
				for _, s := range stack[:len(stack)-1] {
					switch s.(type) {
					case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit, *ast.GoStmt:
						ok = false
					}
				}
				id, isID := ast.Unparen(sel.X).(*ast.Ident)
				if !isID || !createdIn(info, caller.Body, info.Uses[id]) {
					ok = false
				}
				return true
			})
		}
	}
	return ok && calls > 0
}

// createdIn reports whether obj is a local of body defined once from a
// composite literal, its address, or new(T).
func createdIn(info *types.Info, body *ast.BlockStmt, obj types.Object) bool {
	if obj == nil || obj.Pos() < body.Pos() || obj.Pos() >= body.End() {
		return false
	}
	created := false
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || info.ObjectOf(id) != obj {
				continue
			}
			if as.Tok != token.DEFINE || !lockset.Allocated(info, as.Rhs[i], noCtor) {
				created = false
				return false
			}
			created = true
		}
		return true
	})
	return created
}

// noCtor accepts no function as a constructor: only literals and new(T).
func noCtor(string) bool { return false }

// inLiteral reports whether pos is inside a function literal of body.
func inLiteral(body *ast.BlockStmt, pos token.Pos) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && lit.Pos() <= pos && pos < lit.End() {
			found = true
		}
		return !found
	})
	return found
}

// serialFunc reports whether fd, an unexported method, runs on one serial
// thread per receiver: it is called, always directly on the caller's own
// receiver and outside function literals and go statements, by at most
// two methods — a starter S that runs once per value (onceFor, or a
// Start method by contract) and, if any, the one goroutine body C that S
// starts (go s.C(…), its only reference, outside loops and literals)
// after its own calls of fd (growthbook's PollDataSource: Start calls
// loadData, then go ds.startPolling, which calls loadData on each tick).
func (pc *passContext) serialFunc(fd *ast.FuncDecl) bool {
	info := pc.pass.TypesInfo
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok || fd.Recv == nil || fn.Exported() {
		return false
	}
	callers := pc.refs(fn)
	if len(callers) == 0 {
		return false
	}
	var starter, body *ast.FuncDecl
	var goStmt *ast.GoStmt
	for caller := range callers {
		if g, s := pc.startedOnce(caller); g != nil {
			if body != nil {
				return false // two goroutine bodies
			}
			body, goStmt = caller, g
			if starter != nil && starter != s {
				return false
			}
			starter = s
			continue
		}
		if starter != nil && starter != caller {
			return false
		}
		starter = caller
	}
	if starter == nil || !pc.onceFor(starter) && !startMethod(starter) {
		return false
	}
	for caller, refs := range callers {
		for _, r := range refs {
			if !r.direct || !r.onRecv || r.inLitOrGo || caller == starter && (r.inLoop || goStmt != nil && r.pos > goStmt.Pos()) {
				return false
			}
		}
	}
	return true
}

// startMethod reports whether fd is a method named Start or StartX: a
// value is started once, by contract.
func startMethod(fd *ast.FuncDecl) bool {
	rest, ok := strings.CutPrefix(fd.Name.Name, "Start")
	return fd.Recv != nil && ok && (rest == "" || rest[0] >= 'A' && rest[0] <= 'Z')
}

// fnRef is one reference to a method in a function of the package.
type fnRef struct {
	pos       token.Pos
	direct    bool // a call x.f(…), not a method value
	onRecv    bool // x is the enclosing method's receiver
	inLoop    bool
	inLitOrGo bool // inside a function literal or a go statement
	goStmt    *ast.GoStmt
}

// refs returns the references to fn, by enclosing function declaration
// (test files included).
func (pc *passContext) refs(fn *types.Func) map[*ast.FuncDecl][]fnRef {
	info := pc.pass.TypesInfo
	out := map[*ast.FuncDecl][]fnRef{}
	for _, file := range pc.pass.Files {
		for _, d := range file.Decls {
			caller, isFn := d.(*ast.FuncDecl)
			if !isFn || caller.Body == nil {
				continue
			}
			var recv types.Object
			if caller.Recv != nil && len(caller.Recv.List) == 1 && len(caller.Recv.List[0].Names) == 1 {
				recv = info.Defs[caller.Recv.List[0].Names[0]]
			}
			var stack []ast.Node
			ast.Inspect(caller.Body, func(n ast.Node) bool {
				if n == nil {
					stack = stack[:len(stack)-1]
					return false
				}
				stack = append(stack, n)
				sel, isSel := n.(*ast.SelectorExpr)
				if !isSel || info.Uses[sel.Sel] != fn {
					return true
				}
				r := fnRef{pos: sel.Pos()}
				if call, isCall := stack[len(stack)-2].(*ast.CallExpr); isCall && call.Fun == sel {
					r.direct = true
				}
				if id, isID := ast.Unparen(sel.X).(*ast.Ident); isID && recv != nil && info.Uses[id] == recv {
					r.onRecv = true
				}
				for i, s := range stack[:len(stack)-1] {
					switch s := s.(type) {
					case *ast.ForStmt, *ast.RangeStmt:
						r.inLoop = true
					case *ast.FuncLit:
						r.inLitOrGo = true
					case *ast.GoStmt:
						r.inLitOrGo = true
						if i == len(stack)-3 {
							r.goStmt = s // go x.f(…)
						}
					}
				}
				out[caller] = append(out[caller], r)
				return true
			})
		}
	}
	return out
}

// startedOnce returns, when fd is an unexported method whose only
// reference is go s.fd(…) on the receiver of a method S, outside loops
// and function literals, that go statement and S.
func (pc *passContext) startedOnce(fd *ast.FuncDecl) (*ast.GoStmt, *ast.FuncDecl) {
	fn, ok := pc.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok || fd.Recv == nil || fn.Exported() {
		return nil, nil
	}
	refs := pc.refs(fn)
	if len(refs) != 1 {
		return nil, nil
	}
	for s, rs := range refs {
		if len(rs) != 1 {
			return nil, nil
		}
		r := rs[0]
		if r.goStmt == nil || !r.direct || !r.onRecv || r.inLoop || inLiteral(s.Body, r.pos) {
			return nil, nil
		}
		return r.goStmt, s
	}
	return nil, nil
}
