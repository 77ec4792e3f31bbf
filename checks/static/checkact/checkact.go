package checkact

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/interleave-dev/interleave/checks/static/internal/lockregion"
	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
	"github.com/interleave-dev/interleave/checks/static/internal/locktype"
	"github.com/interleave-dev/interleave/checks/static/internal/passdoc"
	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
	"github.com/interleave-dev/interleave/checks/static/internal/syncarg"
)

//go:embed doc.go
var doc string

// Analyzer reports check-then-act sequences (rules IL4001, IL4002, IL4003).
var Analyzer = &analysis.Analyzer{
	Name:     "checkact",
	Doc:      passdoc.MustExtract(doc, "checkact"),
	Run:      run,
	Requires: []*analysis.Analyzer{locktype.Analyzer, syncarg.Analyzer},
}

// opKind says what a call does to shared state.
type opKind int

const (
	mapLoad opKind = iota + 1
	mapStore
	mapDelete
	atomicLoad
	atomicStore
)

// site is one sync.Map or atomic call seen in a function.
type site struct {
	call  *ast.CallExpr
	kind  opKind
	obj   string   // the map or the atomic variable, as written
	key   string   // sync.Map key as written; "" when not a pure expression
	value ast.Expr // stored value (stores only)
	held  lockregion.Held
}

type passContext struct {
	pass *analysis.Pass
	sems *semaphores // built on first use
	// facts and writerIdx serve the ticket and phase re-checks
	// (recheck.go), built on first use.
	facts     map[*ast.FuncDecl]*sectionFacts
	writerIdx map[*types.Var][]*ast.FuncDecl
	// callers holds the caller locksets (callerlock.go), built on first use.
	callers map[*types.Func][]string
}

func (pc *passContext) semaphores() *semaphores {
	if pc.sems == nil {
		pc.sems = newSemaphores(pc.pass.Files, pc.pass.TypesInfo)
	}
	return pc.sems
}

func run(pass *analysis.Pass) (any, error) {
	if !lockset.UsesLocks(pass.Pkg) && !passutil.Imports(pass.Pkg, "sync/atomic") {
		return nil, nil // fast path: nothing to check
	}
	pc := &passContext{pass: pass}
	for _, f := range pass.Files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			pc.checkLoadStore(f, fd) // IL4001, IL4002
			if !strings.HasSuffix(pass.Fset.Position(f.Pos()).Filename, "_test.go") {
				// A test steps shared state through the versions it wants
				// between critical sections: it is the writer.
				pc.checkSplit(fd) // IL4003
			}
		}
	}
	return nil, nil
}

// checkLoadStore pairs each Store or Delete with an earlier Load of the
// same sync.Map key or atomic variable on which it depends.
func (pc *passContext) checkLoadStore(file *ast.File, fd *ast.FuncDecl) {
	if strings.HasSuffix(fd.Name.Name, "Locked") {
		return // by convention the caller holds the lock
	}
	var sites []site
	w := &lockregion.Walker{Info: pc.pass.TypesInfo, Visit: func(n ast.Node, held lockregion.Held) {
		if call, ok := n.(*ast.CallExpr); ok {
			if s, ok := pc.classify(call); ok {
				s.held = held
				sites = append(sites, s)
			}
		}
	}}
	w.WalkFunc(fd.Body, lockregion.Held{})
	captured := capturedVars(pc.pass.TypesInfo, fd.Body)

	for _, st := range sites {
		if st.kind == atomicStore && pc.confined(fd, st.call, captured) {
			continue
		}
		if st.kind != mapStore && st.kind != mapDelete && st.kind != atomicStore {
			continue
		}
		// Only the nearest load counts: in "load, lock, load again, store"
		// the store acts on the re-check.
		var ld *site
		for i := range sites {
			if pairs(sites[i], st) && (ld == nil || sites[i].call.End() > ld.call.End()) {
				ld = &sites[i]
			}
		}
		if ld == nil || lockregion.Common(ld.held, st.held) || pc.reassigned(fd.Body, *ld, st) {
			continue
		}
		if dep, idempotent := pc.dependent(file, *ld, st); dep && !idempotent {
			pc.reportPair(*ld, st)
		}
	}
}

// reassigned reports whether a variable named in the map, key or atomic
// variable of ld is assigned between ld and st, so that the two calls,
// though written alike, may not address the same thing.
func (pc *passContext) reassigned(body *ast.BlockStmt, ld, st site) bool {
	info := pc.pass.TypesInfo
	vars := map[types.Object]bool{}
	for _, e := range ld.call.Args[:min(1, len(ld.call.Args))] {
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok {
					vars[v] = true
				}
			}
			return true
		})
	}
	if sel, ok := ast.Unparen(ld.call.Fun).(*ast.SelectorExpr); ok {
		if root := passutil.RootIdent(sel.X); root != nil && info.Uses[root] != nil {
			vars[info.Uses[root]] = true
		}
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		lhs := assignedTo(n)
		if lhs == nil || n.Pos() < ld.call.End() || n.Pos() >= st.call.Pos() {
			return !found
		}
		for _, l := range lhs {
			if id, ok := l.(*ast.Ident); ok && vars[info.ObjectOf(id)] {
				found = true
			}
		}
		return !found
	})
	return found
}

// assignedTo returns the expressions n assigns to (an assignment's left
// side, an increment's operand, a range clause's key and value, which may
// be nil), or nil when n assigns nothing.
func assignedTo(n ast.Node) []ast.Expr {
	switch n := n.(type) {
	case *ast.AssignStmt:
		return n.Lhs
	case *ast.IncDecStmt:
		return []ast.Expr{n.X}
	case *ast.RangeStmt:
		return []ast.Expr{n.Key, n.Value}
	}
	return nil
}

// pairs reports whether ld is a Load that st may act upon: same map and
// key, or same atomic variable, with the load completed before the store.
func pairs(ld, st site) bool {
	if ld.call == st.call || ld.obj != st.obj || ld.call.End() > st.call.End() {
		return false
	}
	switch st.kind {
	case mapStore, mapDelete:
		return ld.kind == mapLoad && ld.key != "" && ld.key == st.key
	case atomicStore:
		return ld.kind == atomicLoad
	}
	return false
}

// classify recognizes sync.Map Load/Store/Delete, sync/atomic LoadT/StoreT
// functions and the Load/Store methods of typed atomics.
func (pc *passContext) classify(call *ast.CallExpr) (site, bool) {
	fn, ok := typeutil.Callee(pc.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return site{}, false
	}
	sig := fn.Type().(*types.Signature)
	switch fn.Pkg().Path() {
	case "sync":
		if sig.Recv() == nil || lockregion.RecvName(sig.Recv().Type()) != "Map" || len(call.Args) == 0 {
			return site{}, false
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return site{}, false
		}
		s := site{call: call, obj: types.ExprString(sel.X)}
		if pure(pc.pass.TypesInfo, call.Args[0]) {
			s.key = types.ExprString(call.Args[0])
		}
		switch fn.Name() {
		case "Load":
			s.kind = mapLoad
		case "Store":
			s.kind, s.value = mapStore, call.Args[1]
		case "Delete":
			s.kind = mapDelete
		default:
			return site{}, false
		}
		return s, true
	case "sync/atomic":
		if sig.Recv() == nil { // atomic.LoadInt64(&x), atomic.StoreInt64(&x, v)
			if len(call.Args) == 0 {
				return site{}, false
			}
			addr, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr)
			if !ok || addr.Op != token.AND {
				return site{}, false
			}
			s := site{call: call, obj: types.ExprString(ast.Unparen(addr.X))}
			switch {
			case strings.HasPrefix(fn.Name(), "Load"):
				s.kind = atomicLoad
			case strings.HasPrefix(fn.Name(), "Store") && len(call.Args) == 2:
				s.kind, s.value = atomicStore, call.Args[1]
			default:
				return site{}, false
			}
			return s, true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return site{}, false
		}
		s := site{call: call, obj: types.ExprString(sel.X)}
		switch fn.Name() {
		case "Load":
			s.kind = atomicLoad
		case "Store":
			s.kind, s.value = atomicStore, call.Args[0]
		default:
			return site{}, false
		}
		return s, true
	}
	return site{}, false
}

// dependent reports whether st depends on ld: the stored value uses the
// loaded one, or st runs only on a branch decided by it. idempotent is set
// for "store if changed" (if x.Load() != v { x.Store(v) }), which loses
// nothing.
func (pc *passContext) dependent(file *ast.File, ld, st site) (dep, idempotent bool) {
	ldPath, _ := astutil.PathEnclosingInterval(file, ld.call.Pos(), ld.call.End())
	stPath, _ := astutil.PathEnclosingInterval(file, st.call.Pos(), st.call.End())
	if enclosingFunc(ldPath) != enclosingFunc(stPath) {
		return false, false
	}
	results := pc.derived(enclosingFunc(ldPath), pc.loadResults(ldPath))
	uses := func(n ast.Node) bool {
		return n != nil && (within(ld.call, n) || mentions(pc.pass.TypesInfo, n, results))
	}
	if st.value != nil && uses(st.value) {
		dep = true
	}
	for i := 1; i < len(stPath); i++ {
		child := stPath[i-1]
		switch p := stPath[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return dep, false
		case *ast.IfStmt:
			if child != p.Body && child != p.Else {
				continue
			}
			if uses(p.Cond) || uses(p.Init) {
				dep = true
				if st.value != nil && child == p.Body && isNotEqualTo(p.Cond, types.ExprString(st.value), uses) {
					return true, true
				}
			}
		}
		// An early exit decided by the load (if ok { return v }) makes a
		// sync.Map Store dependent. For atomics only a plain state test
		// that returns counts (if p := x.Load(); p != nil { return p }):
		// sanity checks that panic and bounds tests precede unrelated resets.
		strict := st.kind == atomicStore
		switch p := stPath[i].(type) {
		case *ast.BlockStmt:
			if earlyExitBefore(pc.pass.TypesInfo, p.List, child, ld, uses, strict) {
				dep = true
			}
		case *ast.CaseClause:
			if earlyExitBefore(pc.pass.TypesInfo, p.Body, child, ld, uses, strict) {
				dep = true
			}
		case *ast.CommClause:
			if earlyExitBefore(pc.pass.TypesInfo, p.Body, child, ld, uses, strict) {
				dep = true
			}
		}
	}
	return dep, false
}

// earlyExitBefore reports whether, among the statements of list before
// child and after ld, an if statement decided by ld leaves the block
// (if ok { return v }).
func earlyExitBefore(info *types.Info, list []ast.Stmt, child ast.Node, ld site, uses func(ast.Node) bool, strict bool) bool {
	for _, s := range list {
		if s == child {
			return false
		}
		ifs, ok := s.(*ast.IfStmt)
		if !ok || ifs.Else != nil || ifs.End() <= ld.call.Pos() {
			continue
		}
		if !(uses(ifs.Cond) || uses(ifs.Init)) || !terminates(info, ifs.Body) {
			continue
		}
		if !strict {
			return true
		}
		if _, ret := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); ret && stateTest(info, ifs.Cond, uses) {
			return true
		}
	}
	return false
}

// stateTest reports whether cond tests the loaded value itself: v, !v,
// v == c or v != c with c a constant or nil.
func stateTest(info *types.Info, cond ast.Expr, uses func(ast.Node) bool) bool {
	cond = ast.Unparen(cond)
	if u, ok := cond.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		cond = ast.Unparen(u.X)
	}
	switch c := cond.(type) {
	case *ast.Ident, *ast.CallExpr:
		return uses(c)
	case *ast.BinaryExpr:
		if c.Op != token.EQL && c.Op != token.NEQ {
			return false
		}
		constant := func(e ast.Expr) bool {
			tv, ok := info.Types[e]
			return ok && (tv.Value != nil || tv.IsNil())
		}
		return (uses(c.X) && constant(c.Y)) || (uses(c.Y) && constant(c.X))
	}
	return false
}

// isNotEqualTo reports whether cond is "load != v" or "v != load" with v
// written as want.
func isNotEqualTo(cond ast.Expr, want string, uses func(ast.Node) bool) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ {
		return false
	}
	return (uses(b.X) && types.ExprString(b.Y) == want) || (uses(b.Y) && types.ExprString(b.X) == want)
}

// derived extends objs with the locals of fn computed from them, to a
// fixed point (old := x.Load(); n := old + 1).
func (pc *passContext) derived(fn ast.Node, objs map[types.Object]bool) map[types.Object]bool {
	info := pc.pass.TypesInfo
	for changed := len(objs) > 0; changed; {
		changed = false
		ast.Inspect(fn, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok {
				return true
			}
			for i, l := range as.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					continue
				}
				obj := info.ObjectOf(id)
				if obj == nil || objs[obj] {
					continue
				}
				rhs := as.Rhs
				if len(as.Rhs) == len(as.Lhs) {
					rhs = as.Rhs[i : i+1]
				}
				for _, r := range rhs {
					if mentions(info, r, objs) {
						objs[obj] = true
						changed = true
					}
				}
			}
			return true
		})
	}
	return objs
}

// confined reports whether the atomic variable of a store is a local of fd
// held by value and never captured by a closure: no other goroutine can
// reach it.
func (pc *passContext) confined(fd *ast.FuncDecl, call *ast.CallExpr, captured map[types.Object]bool) bool {
	var x ast.Expr
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && pc.pass.TypesInfo.Selections[sel] != nil {
		x = sel.X
	} else if len(call.Args) > 0 {
		if u, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr); ok && u.Op == token.AND {
			x = u.X
		}
	}
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := pc.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.Pos() < fd.Body.Pos() || v.Pos() >= fd.Body.End() || captured[v] {
		return false
	}
	_, isPtr := v.Type().Underlying().(*types.Pointer)
	return !isPtr
}

// capturedVars returns the variables referred to inside function literals.
func capturedVars(info *types.Info, body *ast.BlockStmt) map[types.Object]bool {
	out := map[types.Object]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok {
			ast.Inspect(lit.Body, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if obj := info.Uses[id]; obj != nil {
						out[obj] = true
					}
				}
				return true
			})
		}
		return true
	})
	return out
}

// loadResults returns the variables a Load's results are assigned to.
func (pc *passContext) loadResults(path []ast.Node) map[types.Object]bool {
	out := map[types.Object]bool{}
	if len(path) < 2 {
		return out
	}
	var lhs []*ast.Ident
	switch p := path[1].(type) {
	case *ast.AssignStmt:
		if len(p.Rhs) != 1 && len(p.Rhs) != len(p.Lhs) {
			return out
		}
		for i, l := range p.Lhs {
			if len(p.Rhs) > 1 && p.Rhs[i] != path[0] {
				continue
			}
			if id, ok := l.(*ast.Ident); ok {
				lhs = append(lhs, id)
			}
		}
	case *ast.ValueSpec:
		lhs = p.Names
	}
	for _, id := range lhs {
		if obj := pc.pass.TypesInfo.ObjectOf(id); obj != nil && id.Name != "_" {
			out[obj] = true
		}
	}
	return out
}

func (pc *passContext) reportPair(ld, st site) {
	at := pc.shortPos(ld.call.Pos())
	related := []analysis.RelatedInformation{{Pos: ld.call.Pos(), End: ld.call.End(), Message: "the load: " + types.ExprString(ld.call)}}
	var rule, msg string
	switch st.kind {
	case mapStore:
		fix := "LoadOrStore"
		if st.value != nil && pc.usesLoadedValue(ld, st) {
			fix = "CompareAndSwap"
		}
		rule = RuleSyncMapCheckThenAct
		msg = fmt.Sprintf("%s.Store(%s, ...) depends on %s.Load(%s) at %s, and another goroutine can store the key in between (use %s)", st.obj, st.key, ld.obj, ld.key, at, fix)
	case mapDelete:
		rule = RuleSyncMapCheckThenAct
		msg = fmt.Sprintf("%s.Delete(%s) depends on %s.Load(%s) at %s, and another goroutine can change the key in between (use LoadAndDelete or CompareAndDelete)", st.obj, st.key, ld.obj, ld.key, at)
	case atomicStore:
		rule = RuleAtomicCheckThenAct
		msg = fmt.Sprintf("atomic store to %s depends on its atomic load at %s, and an update made in between is lost (use CompareAndSwap or Add)", st.obj, at)
	}
	pc.pass.Report(analysis.Diagnostic{Pos: st.call.Pos(), End: st.call.End(), Category: rule, Message: msg, Related: related})
}

func (pc *passContext) usesLoadedValue(ld, st site) bool {
	for _, f := range pc.pass.Files {
		if f.FileStart <= ld.call.Pos() && ld.call.Pos() < f.FileEnd {
			path, _ := astutil.PathEnclosingInterval(f, ld.call.Pos(), ld.call.End())
			res := pc.loadResults(path)
			// The first result is the value; ok alone does not count.
			for obj := range res {
				if obj.Type() != types.Typ[types.Bool] && mentions(pc.pass.TypesInfo, st.value, map[types.Object]bool{obj: true}) {
					return true
				}
			}
		}
	}
	return false
}

func (pc *passContext) shortPos(pos token.Pos) string {
	p := pc.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// enclosingFunc returns the innermost function of a path.
func enclosingFunc(path []ast.Node) ast.Node {
	for _, n := range path {
		switch n.(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return n
		}
	}
	return nil
}

// within reports whether inner lies inside outer.
func within(inner, outer ast.Node) bool {
	return outer != nil && inner.Pos() >= outer.Pos() && inner.End() <= outer.End()
}

// mentions reports whether n refers to one of objs.
func mentions(info *types.Info, n ast.Node, objs map[types.Object]bool) bool {
	if n == nil || len(objs) == 0 {
		return false
	}
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && objs[info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}

// pure reports whether e is free of calls and receives, so that two
// occurrences written alike denote the same value.
func pure(info *types.Info, e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if tv, isConv := info.Types[n.Fun]; !isConv || !tv.IsType() {
				ok = false
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ok = false
			}
		case *ast.FuncLit:
			ok = false
		}
		return ok
	})
	return ok
}

// terminates reports whether a block always leaves the enclosing flow.
func terminates(info *types.Info, b *ast.BlockStmt) bool {
	if b == nil || len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok != token.FALLTHROUGH
	case *ast.ExprStmt:
		return lockregion.IsPanic(info, s.X)
	}
	return false
}
