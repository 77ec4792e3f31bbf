package gen

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/interleave-dev/interleave/checks"
)

// Synchronizing methods. A type that claims nothing but holds a lock or an
// atomic (Target.Guard) says it is shared through the methods that use
// them; a method that touches none of its guard fields is not promised to
// run beside another such method (nebula's HostInfo.CreateRemoteCIDR sets a
// plain field while the value is still private, beside an atomic counter
// other methods share). So such a target's goroutines call at least one
// method that does (Target.Syncing), and a type none of whose methods does
// is not a target. A data race counts only when one of its two accesses
// runs inside such a method (sharedRace): two methods that use no lock
// racing with each other is a use the type does not promise.

// syncingMethods returns the methods of t that select one of T's fields
// named in guards, in their own body or in a function of the package they
// reach (packageCalls), or that are promoted through such a field from a
// type of the package (a lock wrapper's; not an embedded sync.Mutex's
// Lock).
func syncingMethods(p *packages.Package, t *Target, guards []string) map[string]bool {
	origin := t.Type.Origin()
	st, ok := origin.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	guard := map[int]bool{}
	for i := 0; i < st.NumFields(); i++ {
		if slices.Contains(guards, st.Field(i).Name()) {
			guard[i] = true
		}
	}
	ofT := func(sel *types.Selection) bool {
		recv := sel.Recv()
		if ptr, ok := recv.(*types.Pointer); ok {
			recv = ptr.Elem()
		}
		named, ok := recv.(*types.Named)
		return ok && named.Origin() == origin
	}
	for i := range atomicFields(p, ofT) {
		guard[i] = true
	}
	onGuard := func(sel *types.Selection) bool {
		return ofT(sel) && guard[sel.Index()[0]]
	}
	touches := map[*types.Func]bool{}
	for fn, fd := range packageFuncs(p) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if se, ok := n.(*ast.SelectorExpr); ok {
				if sel := p.TypesInfo.Selections[se]; sel != nil && onGuard(sel) {
					touches[fn] = true
				}
			}
			return !touches[fn]
		})
	}
	calls := packageCalls(p)
	ms := types.NewMethodSet(types.NewPointer(t.Type))
	out := map[string]bool{}
	for _, m := range t.Methods {
		if sel := ms.Lookup(m.Fn.Pkg(), m.Fn.Name()); sel != nil && len(sel.Index()) > 1 && guard[sel.Index()[0]] && !syncPkg(m.Fn) {
			out[m.Fn.Name()] = true
			continue
		}
		if calls.reachesAny(m.Fn, touches) {
			out[m.Fn.Name()] = true
		}
	}
	return out
}

// atomicFields are the fields of T (the selections ofT accepts) whose
// address, or that of a field inside them, the package passes to a
// function of sync/atomic: a counter of plain type updated by
// atomic.AddUint64(&c.metrics.Total, 1) is an atomic as much as an
// atomic.Uint64 field is (datadog-go's statsd.Client: Gauge and the other
// metric methods count so; only Close used its lock).
func atomicFields(p *packages.Package, ofT func(*types.Selection) bool) map[int]bool {
	out := map[int]bool{}
	for _, fd := range packageFuncs(p) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			fn, ok := typeutil.Callee(p.TypesInfo, call).(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
				return true
			}
			addr, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr)
			if !ok || addr.Op != token.AND {
				return true
			}
			// Down the selectors to the one of T's own field.
			for x := ast.Unparen(addr.X); ; {
				se, ok := x.(*ast.SelectorExpr)
				if !ok {
					break
				}
				if sel := p.TypesInfo.Selections[se]; sel != nil && sel.Kind() == types.FieldVal && ofT(sel) {
					out[sel.Index()[0]] = true
					break
				}
				x = ast.Unparen(se.X)
			}
			return true
		})
	}
	return out
}

// syncing returns the methods of fs in t.Syncing.
func (t *Target) syncing(fs []Func) []Func {
	return slices.DeleteFunc(slices.Clone(fs), func(f Func) bool { return !t.Syncing[f.Fn.Name()] })
}

// syncs reports whether one of c's goroutines calls a method of
// Target.Syncing, or c's target has no such set (it claims safety).
func (c *Case) syncs() bool {
	if c.Target.Syncing == nil {
		return true
	}
	for _, th := range c.Threads {
		for _, call := range th {
			if c.Target.Syncing[call.Method] {
				return true
			}
		}
	}
	return false
}

// syncPkg reports whether fn is a method of package sync or sync/atomic
// (an embedded Mutex's Lock): the type's own methods, not those, say how
// it is shared.
func syncPkg(fn *types.Func) bool {
	return fn.Pkg() != nil && (fn.Pkg().Path() == "sync" || fn.Pkg().Path() == "sync/atomic")
}

// reachesAny reports whether from, or a function it reaches, is in set.
func (g callGraph) reachesAny(from *types.Func, set map[*types.Func]bool) bool {
	seen := map[*types.Func]bool{from.Origin(): true}
	queue := []*types.Func{from.Origin()}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if set[cur] {
			return true
		}
		for _, next := range g[cur] {
			if !seen[next] {
				seen[next] = true
				queue = append(queue, next)
			}
		}
	}
	return false
}

// sharedRace reports whether data race f on a value of t has an access
// inside a method of t.Syncing (its frame, or a closure of it, on the
// access's stack), or t has no such set (it claims safety).
func (t *Target) sharedRace(f checks.Finding) bool {
	if t.Syncing == nil {
		return true
	}
	for _, g := range f.Goroutines {
		for _, fr := range g.Stack {
			if m, ok := t.methodOf(fr.Func); ok && t.Syncing[m] {
				return true
			}
		}
	}
	return false
}

// methodOf returns the method of t that fn, a function name as a stack
// shows it ("path.(*T[...]).M.func1"), is or is a closure of.
func (t *Target) methodOf(fn string) (string, bool) {
	rest, ok := strings.CutPrefix(fn, t.Pkg.PkgPath+".")
	if !ok {
		return "", false
	}
	rest = strings.TrimPrefix(rest, "(*")
	typ, rest, ok := strings.Cut(rest, ".")
	if !ok {
		return "", false
	}
	typ = strings.TrimSuffix(typ, ")")
	if i := strings.IndexByte(typ, '['); i >= 0 {
		typ = typ[:i]
	}
	if typ != t.Name.Name() {
		return "", false
	}
	m, _, _ := strings.Cut(rest, ".")
	return m, true
}
