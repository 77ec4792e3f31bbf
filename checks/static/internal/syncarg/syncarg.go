// Package syncarg defines an Analyzer that finds the function arguments a
// function runs on its caller's goroutine before it returns, so that a
// function literal handed to it runs under its caller's locks, across
// packages (an object fact per function and interface method).
package syncarg

import (
	"fmt"
	"go/ast"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/interleave-dev/interleave/checks/static/internal/lockregion"
	"github.com/interleave-dev/interleave/checks/static/internal/locktype"
)

// Analyzer exports, for each function and method of a package, which of
// its func-typed parameters it only calls on the spot (calls) and which
// it returns unchanged (returns), and for each method of an interface of
// the package what every implementation declared beside it does. Its
// result answers that for the calls of the package being analyzed.
var Analyzer = &analysis.Analyzer{
	Name:       "syncarg",
	Doc:        "find the function arguments a function runs on its caller's goroutine before returning",
	Run:        run,
	Requires:   []*analysis.Analyzer{locktype.Analyzer},
	FactTypes:  []analysis.Fact{(*paramsFact)(nil)},
	ResultType: reflect.TypeFor[*Result](),
}

// paramsFact lists parameter indexes (receiver excluded): Calls, those
// called only on the spot (never started by go, deferred, stored or
// passed on but to such a parameter of another function); Returns, those
// returned unchanged by every return (the function's one result),
// otherwise only called on the spot.
type paramsFact struct {
	Calls, Returns []int
}

// AFact implements analysis.Fact.AFact.
func (*paramsFact) AFact() {}

func (f *paramsFact) String() string {
	if f == nil {
		return ""
	}
	var parts []string
	if len(f.Calls) > 0 {
		parts = append(parts, fmt.Sprintf("calls %v", f.Calls))
	}
	if len(f.Returns) > 0 {
		parts = append(parts, fmt.Sprintf("returns %v", f.Returns))
	}
	return strings.Join(parts, "; ")
}

func (f *paramsFact) empty() bool { return f == nil || len(f.Calls)+len(f.Returns) == 0 }

// Result answers, for a call of the analyzed package, what its callee
// does with an argument.
type Result struct {
	info  *types.Info
	pkg   *types.Package
	local map[*types.Func]*paramsFact
	// imported caches the facts of other packages' functions.
	imported map[*types.Func]*paramsFact
}

// Arg reports whether the callee of call runs its argument i on the
// spot (calls) or returns it unchanged (returns). It implements
// lockregion.ArgRuns.
func (r *Result) Arg(call *ast.CallExpr, i int) (calls, returns bool) {
	if r == nil {
		return false, false
	}
	fn, _ := typeutil.Callee(r.info, call).(*types.Func)
	if fn == nil {
		return false, false
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := r.info.Selections[sel]; s != nil && s.Kind() == types.MethodExpr {
			i-- // T.M(x, args): the receiver comes first
		}
	}
	f := r.fact(fn.Origin())
	if f == nil {
		return false, false
	}
	return slices.Contains(f.Calls, i), slices.Contains(f.Returns, i)
}

func (r *Result) fact(fn *types.Func) *paramsFact {
	if fn.Pkg() == r.pkg {
		return r.local[fn]
	}
	return r.imported[fn]
}

func run(pass *analysis.Pass) (any, error) {
	r := &Result{info: pass.TypesInfo, pkg: pass.Pkg, local: map[*types.Func]*paramsFact{}, imported: map[*types.Func]*paramsFact{}}
	// The facts of every function of another package this one calls.
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg() != pass.Pkg {
					fn = fn.Origin()
					if _, seen := r.imported[fn]; !seen {
						var fact paramsFact
						if pass.ImportObjectFact(fn, &fact) {
							r.imported[fn] = &fact
						} else {
							r.imported[fn] = nil
						}
					}
				}
			}
			return true
		})
	}
	decls := funcDecls(pass)
	// Least fixpoint: a parameter passed to another function of the
	// package counts once that function is known to call it.
	for changed := true; changed; {
		changed = false
		for fn, fd := range decls {
			f := params(pass.TypesInfo, fd, r.Arg)
			if old := r.local[fn]; f.String() != old.String() {
				r.local[fn] = f
				changed = true
			}
		}
	}
	interfaces(pass, r)
	for fn, f := range r.local {
		if !f.empty() && (fn.Exported() || isMethod(fn)) {
			pass.ExportObjectFact(fn, f)
		}
	}
	return r, nil
}

func isMethod(fn *types.Func) bool { return fn.Type().(*types.Signature).Recv() != nil }

func funcDecls(pass *analysis.Pass) map[*types.Func]*ast.FuncDecl {
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					decls[fn] = fd
				}
			}
		}
	}
	return decls
}

// params finds which func-typed parameters of fd it calls on the spot or
// returns unchanged, given what its callees do (arg).
func params(info *types.Info, fd *ast.FuncDecl, arg lockregion.ArgRuns) *paramsFact {
	fn := info.Defs[fd.Name].(*types.Func)
	sig := fn.Type().(*types.Signature)
	f := &paramsFact{}
	for i := range sig.Params().Len() {
		p := sig.Params().At(i)
		if _, ok := p.Type().Underlying().(*types.Signature); !ok || p.Name() == "" || p.Name() == "_" {
			continue
		}
		if sig.Variadic() && i == sig.Params().Len()-1 {
			continue
		}
		called, returned, other := uses(info, fd.Body, p, arg)
		switch {
		case other:
		case returned && sig.Results().Len() == 1 && everyReturn(fd.Body, info, p):
			f.Returns = append(f.Returns, i)
		case !returned && called:
			f.Calls = append(f.Calls, i)
		}
	}
	return f
}

// uses classifies the uses of p in body: called on the spot (directly,
// by a callee that calls it, or through callees that return it
// unchanged), returned, or anything else (stored, assigned, started by
// go, deferred, passed elsewhere, captured by a literal that does not run
// on the spot).
func uses(info *types.Info, body *ast.BlockStmt, p *types.Var, arg lockregion.ArgRuns) (called, returned, other bool) {
	ast.PreorderStack(body, nil, func(n ast.Node, stack []ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == p {
			switch use(id, stack, arg) {
			case useCalled:
				called = true
			case useReturned:
				returned = true
			default:
				other = true
			}
		}
		return true
	})
	return called, returned, other
}

const (
	useOther = iota
	useCalled
	useReturned
)

// use classifies one use of a parameter, id, whose ancestors are stack.
func use(id *ast.Ident, stack []ast.Node, arg lockregion.ArgRuns) int {
	var e ast.Expr = id
	for j := len(stack) - 1; j >= 0; j-- {
		switch n := stack[j].(type) {
		case *ast.ParenExpr:
			e = n
			continue
		case *ast.ReturnStmt:
			if e == id && len(n.Results) == 1 && lockregion.RunsHere(stack[:j], arg) {
				return useReturned
			}
		case *ast.CallExpr:
			if !lockregion.RunsHere(stack[:j], arg) {
				return useOther
			}
			if n.Fun == e {
				return useCalled
			}
			i := slices.Index(n.Args, e)
			if i < 0 || n.Ellipsis.IsValid() {
				return useOther
			}
			calls, returns := arg(n, i)
			if calls {
				return useCalled
			}
			if returns {
				e = n
				continue
			}
		}
		return useOther
	}
	return useOther
}

// everyReturn reports whether every return statement of body (outside
// function literals) returns exactly p.
func everyReturn(body *ast.BlockStmt, info *types.Info, p *types.Var) bool {
	all := true
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) != 1 {
				all = false
			} else if id, ok := ast.Unparen(n.Results[0]).(*ast.Ident); !ok || info.Uses[id] != p {
				all = false
			}
		}
		return all
	})
	return all
}

// interfaces gives each method of an interface type declared in the
// package the parameters every implementation declared in the package
// (a named type, or a pointer to one) calls or returns, when there is at
// least one. Implementations elsewhere are not seen: the fact says what
// the package's own ones do.
func interfaces(pass *analysis.Pass, r *Result) {
	scope := pass.Pkg.Scope()
	var concrete []types.Type
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if _, isIface := tn.Type().Underlying().(*types.Interface); !isIface {
			concrete = append(concrete, tn.Type())
		}
	}
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		it, ok := tn.Type().Underlying().(*types.Interface)
		if !ok || it.NumMethods() == 0 {
			continue
		}
		var impls []types.Type
		for _, t := range concrete {
			if types.Implements(t, it) {
				impls = append(impls, t)
			} else if pt := types.NewPointer(t); types.Implements(pt, it) {
				impls = append(impls, pt)
			}
		}
		if len(impls) == 0 {
			continue
		}
		for m := range it.Methods() {
			if m.Pkg() != pass.Pkg {
				continue
			}
			var acc *paramsFact
			for _, t := range impls {
				obj, _, _ := types.LookupFieldOrMethod(t, false, pass.Pkg, m.Name())
				impl, ok := obj.(*types.Func)
				if !ok {
					acc = &paramsFact{}
					break
				}
				f := r.fact(impl.Origin())
				if f == nil {
					f = &paramsFact{}
				}
				if acc == nil {
					acc = &paramsFact{Calls: slices.Clone(f.Calls), Returns: slices.Clone(f.Returns)}
				} else {
					acc.Calls = slices.DeleteFunc(acc.Calls, func(i int) bool { return !slices.Contains(f.Calls, i) })
					acc.Returns = slices.DeleteFunc(acc.Returns, func(i int) bool { return !slices.Contains(f.Returns, i) })
				}
			}
			if !acc.empty() {
				r.local[m] = acc
			}
		}
	}
}
