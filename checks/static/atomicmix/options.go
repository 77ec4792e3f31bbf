package atomicmix

// Functional options applied only while constructing: a write through an
// option literal's parameter, or an option function's, is construction.

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

// constructionOptions returns the named func types of the package whose
// first parameter is a pointer and whose every call in non-test files is
// made by a constructor (new*, init*) on a value it allocated, before
// its first go statement: type Option func(*T) error applied as
// t := &T{}; for _, o := range opts { o(t) } in NewT.
func (pc *passContext) constructionOptions() map[*types.Named]bool {
	if pc.options != nil {
		return pc.options
	}
	info := pc.pass.TypesInfo
	ok := map[*types.Named]bool{}
	scope := pc.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, isType := scope.Lookup(name).(*types.TypeName)
		if !isType || tn.IsAlias() {
			continue
		}
		named, _ := tn.Type().(*types.Named)
		sig, isFunc := tn.Type().Underlying().(*types.Signature)
		if named == nil || !isFunc || sig.Params().Len() == 0 {
			continue
		}
		if _, ptr := sig.Params().At(0).Type().(*types.Pointer); ptr {
			ok[named] = true
		}
	}
	for _, f := range pc.pass.Files {
		test := strings.HasSuffix(pc.pass.Fset.Position(f.Pos()).Filename, "_test.go")
		for _, d := range f.Decls {
			fd, isFunc := d.(*ast.FuncDecl)
			if !isFunc || fd.Body == nil {
				continue
			}
			var fresh map[types.Object]bool
			var firstGo token.Pos
			ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
				call, isCall := n.(*ast.CallExpr)
				if !isCall {
					return true
				}
				named, _ := info.TypeOf(call.Fun).(*types.Named)
				if named == nil || !ok[named] || test {
					return true
				}
				if len(call.Args) == 0 {
					delete(ok, named)
					return true
				}
				if fresh == nil {
					fresh, firstGo = freshLocals(info, fd.Body)
				}
				id, isIdent := ast.Unparen(call.Args[0]).(*ast.Ident)
				if !constructorName(fd.Name.Name) || passutil.InsideFuncLit(stack) || !isIdent || !fresh[info.Uses[id]] || firstGo != token.NoPos && call.Pos() > firstGo {
					delete(ok, named) // applied to a value that may be shared
				}
				return true
			})
		}
	}
	pc.options = ok
	return ok
}

// optionParam reports whether root is the parameter of the innermost
// function literal of stack (the ancestors in fd's body), and that
// literal is returned as (or converted to) a construction option
// (constructionOptions).
func (pc *passContext) optionParam(fd *ast.FuncDecl, root *ast.Ident, stack []ast.Node) bool {
	info := pc.pass.TypesInfo
	if !passutil.InsideFuncLit(stack) {
		return pc.optionFunc(fd, root)
	}
	for i := len(stack) - 1; i > 0; i-- {
		lit, isLit := stack[i].(*ast.FuncLit)
		if !isLit {
			continue
		}
		param := false
		for _, fld := range lit.Type.Params.List {
			for _, name := range fld.Names {
				if info.Defs[name] == info.Uses[root] {
					param = true
				}
			}
		}
		if !param {
			return false
		}
		var t types.Type
		switch p := stack[i-1].(type) {
		case *ast.ReturnStmt:
			// The result type of fd, when the return is fd's own.
			if passutil.InsideFuncLit(stack[:i-1]) {
				return false
			}
			if r := fd.Type.Results; r != nil && len(r.List) == 1 && len(r.List[0].Names) <= 1 && len(p.Results) == 1 {
				t = info.TypeOf(r.List[0].Type)
			}
		case *ast.CallExpr:
			if tv, isConv := info.Types[p.Fun]; isConv && tv.IsType() {
				t = tv.Type
			}
		}
		named, _ := t.(*types.Named)
		return named != nil && pc.constructionOptions()[named]
	}
	return false
}

// optionFunc reports whether root is the first parameter of fd, a
// function that is itself a construction option: its signature is a
// construction option type's (func WithNoRetransmit(c *Client) for
// type ClientOption func(c *Client), pion/stun), and the package never
// calls it directly, so it runs only where options are applied.
func (pc *passContext) optionFunc(fd *ast.FuncDecl, root *ast.Ident) bool {
	info := pc.pass.TypesInfo
	fn, _ := info.Defs[fd.Name].(*types.Func)
	if fn == nil || fd.Recv != nil || fn.Signature().TypeParams() != nil || fn.Signature().Params().Len() == 0 || info.Uses[root] != fn.Signature().Params().At(0) {
		return false
	}
	if pc.called == nil {
		pc.called = map[*types.Func]bool{}
		for _, f := range pc.pass.Files {
			if strings.HasSuffix(pc.pass.Fset.Position(f.Pos()).Filename, "_test.go") {
				continue
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if c := typeutil.StaticCallee(info, call); c != nil {
						pc.called[c.Origin()] = true
					}
				}
				return true
			})
		}
	}
	if pc.called[fn] {
		return false
	}
	for named := range pc.constructionOptions() {
		if types.Identical(fn.Signature(), named.Underlying()) {
			return true
		}
	}
	return false
}
