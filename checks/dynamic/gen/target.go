// Package gen generates concurrent tests for Go types that claim to be safe
// for concurrent use, in the manner of ConTeGe (PLDI 2012): a sequential
// prefix builds a value, two goroutines then call methods on it at once,
// and the generated test fails only when the outcome (the calls' results and
// what observer methods return afterwards) is one that no sequential order
// of the same calls produces. Run drives the tests under the controlled
// scheduler with the race detector, so panics, deadlocks and data races are
// found too.
//
// The files: target.go finds the types that claim safety (Targets);
// generate.go generates a type's cases (Generator), drawing arguments from
// a per-test pool (pool.go: the prefix's results and the literals used
// before, and a second instance for methods that take one); render.go renders them
// as a test file, concurrent or sequential (Render); run.go is Run, read as
// its steps; feedback.go runs the cases sequentially and drops those that
// fail so; module.go loads the packages and copies the module the tests
// are added to; claim.go names the directive a type can claim safety with
// and says what a target promises (a claim, or a lock it holds).
package gen

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/tools/go/packages"

	"github.com/interleave-dev/interleave/checks/claim"
)

// Target is an exported type that claims safety for concurrent use, with
// what the generator can do with it.
type Target struct {
	Pkg   *packages.Package
	Name  *types.TypeName
	Claim string    // the doc phrase, or Directive; "" for a guarded type
	Guard string    // the lock or atomic field of a type that claims nothing
	Pos   token.Pos // the type's declaration
	// Ctors are exported package functions whose first result is T or *T
	// (an optional error last) and whose arguments can be generated.
	Ctors []Func
	// Zero is set when the zero value may be used (no constructor, or the
	// doc says the zero value is ready to use).
	Zero bool
	// Methods are the exported methods of *T whose arguments can be
	// generated; Observers the ones without arguments whose results can be
	// compared.
	Methods   []Func
	Observers []Func
	// Derivers are the methods of Methods that return another T or *T
	// (With, Named, a clone) and take arguments the generator can make:
	// the goroutines may work on such a derived value.
	Derivers []Func
	// Type is T, instantiated when T is generic (TArgs says with what).
	Type  *types.Named
	TArgs []types.Type
	// Focus, when set, are the methods the goroutines call first (in a
	// pull request, the changed ones).
	Focus []Func
	// Pairs, when set, are exported methods reaching the two sides of
	// static candidates (Options.Sides): each pair is a case of its own
	// (accessPairs).
	Pairs [][2]Func
	// Syncing, for a type that claims nothing but holds a lock or an
	// atomic, are the names of its methods that use one (syncing.go); a
	// case's goroutines call at least one of them.
	Syncing map[string]bool
	// Owns, when set, is the unexported type a static candidate is in that
	// this type holds: it is a target for reaching the candidate's sides
	// (sides.owners), not for a claim or a lock of its own.
	Owns string
	// starters are the names of Ctors that start a goroutine
	// (startsGoroutines), once asked.
	starters map[string]bool
}

// Func is a constructor or method with its signature (instantiated when
// generic); TArgs are the type arguments a generic constructor is called
// with.
type Func struct {
	Fn    *types.Func
	Sig   *types.Signature
	TArgs []types.Type
}

// String is the type as pkg.T.
func (t *Target) String() string { return t.Pkg.Name + "." + t.Name.Name() }

// skipMethods are methods that are expected to block or to run for a
// long time, or to end the process (log.Fatal's convention: zap's
// Logger.Fatal exits, and the sequential check's go test then reports
// no test at all): calling them from generated tests tells nothing.
var skipMethods = map[string]bool{
	"Wait": true, "Run": true, "Serve": true, "ListenAndServe": true, "Start": true,
	"Loop": true, "Listen": true, "Accept": true, "Sleep": true,
	"Fatal": true, "Fatalf": true, "Fatalln": true, "Fatalw": true, "Exit": true,
}

// Targets returns the types of pkgs that claim safety for concurrent use and
// that the generator can build and call, sorted by package and name.
func Targets(pkgs []*packages.Package) []*Target { return targets(pkgs, false) }

// GuardedTargets returns Targets and also the exported struct types whose
// doc claims nothing (and disclaims nothing) but that hold a mutex or an
// atomic (claim.Guard): a lock says the type is meant to be shared.
func GuardedTargets(pkgs []*packages.Package) []*Target { return targets(pkgs, true) }

func targets(pkgs []*packages.Package, guarded bool) []*Target {
	var out []*Target
	for _, p := range pkgs {
		if p.Types == nil || p.TypesInfo == nil || p.Name == "main" {
			continue
		}
		var files []*ast.File
		for _, f := range p.Syntax {
			if !strings.HasSuffix(p.Fset.File(f.Pos()).Name(), "_test.go") {
				files = append(files, f)
			}
		}
		for _, c := range claim.Types(files, p.TypesInfo) {
			if t := newTarget(p, c.Name, c.Spec, c.Doc); t != nil {
				t.Claim = c.Phrase
				out = append(out, t)
			}
		}
		if !guarded {
			continue
		}
		for _, f := range files {
			for ts, doc := range claim.StructDocs([]*ast.File{f}) {
				if claim.Of(doc) != "" || claim.Disclaims(doc) {
					continue
				}
				st := ts.Type.(*ast.StructType)
				guard := claim.Guard(files, f, st)
				tn, ok := p.TypesInfo.Defs[ts.Name].(*types.TypeName)
				if guard == "" || !ok {
					continue
				}
				if t := newTarget(p, tn, ts, doc); t != nil {
					t.Guard = guard
					if t.Syncing = syncingMethods(p, t, claim.GuardFields(files, f, st)); len(t.Syncing) > 0 {
						out = append(out, t)
					}
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Pkg.PkgPath != out[j].Pkg.PkgPath {
			return out[i].Pkg.PkgPath < out[j].Pkg.PkgPath
		}
		return out[i].Name.Name() < out[j].Name.Name()
	})
	return out
}

// newTarget returns the target of type tn declared by spec, or nil when it
// is not exported, cannot be instantiated, built or called.
func newTarget(p *packages.Package, tn *types.TypeName, spec *ast.TypeSpec, doc *ast.CommentGroup) *Target {
	if !tn.Exported() {
		return nil
	}
	t := &Target{Pkg: p, Name: tn, Pos: spec.Pos(), Type: tn.Type().(*types.Named)}
	if tps := t.Type.TypeParams(); tps != nil {
		targs, ok := typeArgs(tps)
		if !ok {
			return nil
		}
		inst, err := types.Instantiate(nil, t.Type, targs, true)
		if err != nil {
			return nil
		}
		t.Type, t.TArgs = inst.(*types.Named), targs
	}
	t.fill(strings.Contains(strings.ToLower(doc.Text()), "zero value"))
	if len(t.Ctors) == 0 && !t.Zero || len(t.Methods) == 0 {
		return nil
	}
	return t
}

// fill finds the constructors, methods and observers of t.
func (t *Target) fill(zeroDoc bool) {
	named := t.Type
	scope := t.Pkg.Types.Scope()
	for _, n := range scope.Names() {
		fn, ok := scope.Lookup(n).(*types.Func)
		if !ok || !fn.Exported() {
			continue
		}
		c := Func{Fn: fn, Sig: fn.Type().(*types.Signature)}
		if c.Sig.TypeParams() != nil {
			if c.TArgs = ctorTypeArgs(c.Sig, named); c.TArgs == nil {
				continue
			}
			inst, err := types.Instantiate(nil, c.Sig, c.TArgs, true)
			if err != nil {
				continue
			}
			c.Sig = inst.(*types.Signature)
		}
		if !returnsTarget(c.Sig, named) || !argsOK(c.Sig, 0) {
			continue
		}
		t.Ctors = append(t.Ctors, c)
	}
	t.Zero = zeroDoc || len(t.Ctors) == 0
	ms := types.NewMethodSet(types.NewPointer(named))
	handles := handleTypes(ms)
	for i := 0; i < ms.Len(); i++ {
		fn, ok := ms.At(i).Obj().(*types.Func)
		if !ok || !fn.Exported() || skipMethods[fn.Name()] {
			continue
		}
		sig, ok := ms.At(i).Type().(*types.Signature)
		if !ok || !t.paramsOK(sig, handles) {
			continue
		}
		m := Func{Fn: fn, Sig: sig}
		t.Methods = append(t.Methods, m)
		if returnsTarget(sig, named) && argsOK(sig, 0) {
			t.Derivers = append(t.Derivers, m)
		}
		if sig.Params().Len() == 0 && sig.Results().Len() > 0 && anyObservable(sig.Results()) && !changes(fn.Name()) {
			t.Observers = append(t.Observers, m)
		}
	}
	if len(t.Observers) > maxObservers {
		t.Observers = t.Observers[:maxObservers]
	}
}

// paramsOK reports whether every parameter of a method can be generated,
// is the target itself (T or *T: another instance is passed) or is a
// handle another method returns (the prefix's call of it provides one).
func (t *Target) paramsOK(sig *types.Signature, handles []types.Type) bool {
	for i := 0; i < sig.Params().Len(); i++ {
		pt := sig.Params().At(i).Type()
		if !t.isSelf(pt) && !generatable(pt, 0) && !slices.ContainsFunc(handles, func(h types.Type) bool { return types.Identical(h, pt) }) {
			return false
		}
	}
	return true
}

// handleTypes are the results of the methods of ms that the test can name
// (the channel Subscribe returns, which Unsubscribe takes).
func handleTypes(ms *types.MethodSet) []types.Type {
	var out []types.Type
	for i := 0; i < ms.Len(); i++ {
		fn, ok := ms.At(i).Obj().(*types.Func)
		sig, ok2 := ms.At(i).Type().(*types.Signature)
		if !ok || !ok2 || !fn.Exported() {
			continue
		}
		for j := 0; j < sig.Results().Len(); j++ {
			if r := sig.Results().At(j).Type(); writable(r) && !isError(r) {
				out = append(out, r)
			}
		}
	}
	return out
}

// isSelf reports whether typ is T or *T.
func (t *Target) isSelf(typ types.Type) bool {
	if p, ok := typ.(*types.Pointer); ok {
		typ = p.Elem()
	}
	return types.Identical(typ, t.Type)
}

// selfMethods are the methods that take another instance of T.
func (t *Target) selfMethods() []Func {
	var out []Func
	for _, m := range t.Methods {
		for i := 0; i < m.Sig.Params().Len(); i++ {
			if t.isSelf(m.Sig.Params().At(i).Type()) {
				out = append(out, m)
				break
			}
		}
	}
	return out
}

// typeArgs picks a type argument for each type parameter: string where the
// constraint allows it (keys collide on the generator's few strings), else
// int.
func typeArgs(tps *types.TypeParamList) ([]types.Type, bool) {
	var out []types.Type
	for i := 0; i < tps.Len(); i++ {
		iface, ok := tps.At(i).Constraint().Underlying().(*types.Interface)
		if !ok {
			return nil, false
		}
		found := false
		for _, cand := range []types.Type{types.Typ[types.String], types.Typ[types.Int]} {
			if types.Satisfies(cand, iface) {
				out, found = append(out, cand), true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return out, true
}

// ctorTypeArgs returns the type arguments of a generic function whose
// first result is (a pointer to) the generic type instantiated with the
// function's own type parameters, so that it builds the instance named;
// nil otherwise.
func ctorTypeArgs(sig *types.Signature, named *types.Named) []types.Type {
	if sig.Results().Len() == 0 {
		return nil
	}
	r := sig.Results().At(0).Type()
	if p, ok := r.(*types.Pointer); ok {
		r = p.Elem()
	}
	rn, ok := r.(*types.Named)
	if !ok || rn.Origin() != named.Origin() || rn.TypeArgs().Len() != named.TypeArgs().Len() {
		return nil
	}
	tps := sig.TypeParams()
	out := make([]types.Type, tps.Len())
	for j := 0; j < rn.TypeArgs().Len(); j++ {
		tp, ok := rn.TypeArgs().At(j).(*types.TypeParam)
		if !ok {
			return nil
		}
		out[tp.Index()] = named.TypeArgs().At(j)
	}
	for _, a := range out {
		if a == nil {
			return nil
		}
	}
	return out
}

// changes reports whether a method's name says it changes state: such a
// method is no observer, even without arguments.
func changes(name string) bool {
	for _, verb := range []string{"Inc", "Dec", "Add", "Pop", "Push", "Next", "Take", "Reset", "Clear", "Delete", "Remove", "Close", "Flush", "Swap", "Put", "Set", "Store", "Drain", "Purge", "Evict", "Shift", "Acquire", "Release", "Get"} {
		if strings.HasPrefix(name, verb) && (len(name) == len(verb) || !unicode.IsLower(rune(name[len(verb)]))) {
			return true
		}
	}
	return false
}

// maxObservers bounds the observer calls made after the goroutines join.
const maxObservers = 6

// returnsTarget reports whether sig returns T or *T first, and at most an
// error besides.
func returnsTarget(sig *types.Signature, named *types.Named) bool {
	r := sig.Results()
	if r.Len() == 0 || r.Len() > 2 {
		return false
	}
	first := r.At(0).Type()
	if p, ok := first.(*types.Pointer); ok {
		first = p.Elem()
	}
	if !types.Identical(first, named) {
		return false
	}
	return r.Len() == 1 || isError(r.At(1).Type())
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// argsOK reports whether every parameter of sig can be generated.
func argsOK(sig *types.Signature, depth int) bool {
	for i := 0; i < sig.Params().Len(); i++ {
		if !generatable(sig.Params().At(i).Type(), depth) {
			return false
		}
	}
	return true
}

// generatable reports whether the generator can produce a value of type t.
func generatable(t types.Type, depth int) bool {
	if depth > 3 {
		return false
	}
	if a, ok := t.(*types.Alias); ok {
		// zap.Field = zapcore.Field: the test names the alias.
		if !writable(a) {
			return false
		}
		t = types.Unalias(a)
	}
	if isContext(t) {
		return true
	}
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && !n.Obj().Exported() {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsBoolean|types.IsNumeric|types.IsString) != 0 && u.Kind() != types.UnsafePointer && u.Info()&types.IsComplex == 0
	case *types.Slice:
		return generatable(u.Elem(), depth+1)
	case *types.Map:
		return generatable(u.Key(), depth+1) && generatable(u.Elem(), depth+1)
	case *types.Signature:
		return u.TypeParams() == nil && exportedTypes(u)
	case *types.Interface:
		// Any value satisfies an empty interface.
		return u.Empty()
	case *types.Pointer, *types.Struct:
		return ctorFor(t) != nil || isZeroUsable(t)
	}
	return false
}

// exportedTypes reports whether a function type can be written outside its
// package.
func exportedTypes(sig *types.Signature) bool {
	ok := true
	check := func(tup *types.Tuple) {
		for i := 0; i < tup.Len(); i++ {
			if !writable(tup.At(i).Type()) {
				ok = false
			}
		}
	}
	check(sig.Params())
	check(sig.Results())
	return ok
}

// writable reports whether t can be named outside its package.
func writable(t types.Type) bool {
	switch t := t.(type) {
	case *types.Alias:
		o := t.Obj()
		if o.Pkg() != nil && (!o.Exported() || strings.Contains(o.Pkg().Path(), "/internal/")) {
			return false
		}
		return writable(types.Unalias(t))
	case *types.Named:
		if t.Obj().Pkg() != nil && !t.Obj().Exported() {
			return false
		}
		if t.Obj().Pkg() != nil && strings.Contains(t.Obj().Pkg().Path(), "/internal/") {
			return false
		}
		for i := 0; i < t.TypeArgs().Len(); i++ {
			if !writable(t.TypeArgs().At(i)) {
				return false
			}
		}
		return true
	case *types.Pointer:
		return writable(t.Elem())
	case *types.Slice:
		return writable(t.Elem())
	case *types.Array:
		return writable(t.Elem())
	case *types.Map:
		return writable(t.Key()) && writable(t.Elem())
	case *types.Chan:
		return writable(t.Elem())
	case *types.Signature:
		return exportedTypes(t)
	case *types.Basic, *types.Interface:
		return true
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			if !t.Field(i).Exported() || !writable(t.Field(i).Type()) {
				return false
			}
		}
		return true
	}
	return false
}

// isZeroUsable: a pointer to, or a value of, an exported struct type of a
// package other than the standard library's, which the generator writes as
// a literal.
func isZeroUsable(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	t = types.Unalias(t)
	n, ok := t.(*types.Named)
	if !ok || n.TypeParams().Len() != n.TypeArgs().Len() || !n.Obj().Exported() || n.Obj().Pkg() == nil {
		return false // an uninstantiated generic type
	}
	_, isStruct := n.Underlying().(*types.Struct)
	return isStruct && writable(n) && strings.Contains(n.Obj().Pkg().Path(), ".")
}

// ctorFor returns an exported function of t's package that returns t (or the
// struct t points to) and takes basic arguments only, or nil.
func ctorFor(t types.Type) *types.Func {
	t = types.Unalias(t)
	base := t
	if p, ok := t.(*types.Pointer); ok {
		base = types.Unalias(p.Elem())
	}
	n, ok := base.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.TypeParams() != nil {
		return nil
	}
	scope := n.Obj().Pkg().Scope()
	for _, name := range scope.Names() {
		fn, ok := scope.Lookup(name).(*types.Func)
		if !ok || !fn.Exported() {
			continue
		}
		sig := fn.Type().(*types.Signature)
		if sig.TypeParams() != nil || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), t) {
			continue
		}
		basic := true
		for i := 0; i < sig.Params().Len(); i++ {
			if _, ok := sig.Params().At(i).Type().Underlying().(*types.Basic); !ok {
				basic = false
			}
		}
		if basic {
			return fn
		}
	}
	return nil
}

func isContext(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// observable reports whether values of t print the same for equal states:
// no pointers, channels, functions or interfaces (but error, compared by
// its message).
func observable(t types.Type) bool { return observableDepth(t, 0) }

func observableDepth(t types.Type, depth int) bool {
	if depth > 4 {
		return false
	}
	if isError(t) {
		return true
	}
	if n, ok := t.(*types.Named); ok {
		// A type with its own formatting may print anything.
		for _, m := range []string{"GoString", "Format"} {
			obj, _, _ := types.LookupFieldOrMethod(n, true, n.Obj().Pkg(), m)
			if _, ok := obj.(*types.Func); ok {
				return false
			}
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer && u.Kind() != types.Uintptr
	case *types.Slice:
		return observableDepth(u.Elem(), depth+1)
	case *types.Array:
		return observableDepth(u.Elem(), depth+1)
	case *types.Map:
		return observableDepth(u.Key(), depth+1) && observableDepth(u.Elem(), depth+1)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if !observableDepth(u.Field(i).Type(), depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

func anyObservable(tup *types.Tuple) bool {
	for i := 0; i < tup.Len(); i++ {
		if observable(tup.At(i).Type()) {
			return true
		}
	}
	return false
}
