// Callback re-entry: a hook, formatter or visitor the caller hands to the
// value calls back into it, as a user's hook does.

package gen

import (
	"fmt"
	"go/ast"
	"go/types"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// maxReentries bounds the re-entry cases of a type; reentrantsPerHook the
// methods its callbacks call back, per registering method.
const (
	maxReentries      = 6
	reentrantsPerHook = 2
)

// noReentry matches the doc comments by which an API says its callbacks
// run under its lock or must not call back into it (sync.Once.Do: "If f
// calls Do, it will deadlock"; expvar.Map.Do: "The map is locked during
// the iteration"): such a callback is not made to re-enter.
var noReentry = regexp.MustCompile(`(?i)\b(must|should|may|can)\s*(not|never)\s+(call|re-?enter|invoke|use|access)\b|\b(do not|never|don't) call\b|\bnot re-?entrant\b|\bdeadlock|\bwith the (lock|mutex) held\b|\b(is|are|being) locked\b|\bwhile holding\b|\bunder (the|its) (lock|mutex)\b|\blocked (during|while)\b`)

// pkgIndex is what the re-entry cases read of a package's source: its
// functions' declarations and its types' doc comments.
type pkgIndex struct {
	pkg   *packages.Package
	decls map[*types.Func]*ast.FuncDecl
	docs  map[*types.TypeName]string
}

func newPkgIndex(p *packages.Package) *pkgIndex {
	ix := &pkgIndex{pkg: p, decls: map[*types.Func]*ast.FuncDecl{}, docs: map[*types.TypeName]string{}}
	for _, f := range p.Syntax {
		if strings.HasSuffix(p.Fset.File(f.Pos()).Name(), "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if fn, ok := p.TypesInfo.Defs[d.Name].(*types.Func); ok && d.Body != nil {
					ix.decls[fn] = d
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						if tn, ok := p.TypesInfo.Defs[ts.Name].(*types.TypeName); ok {
							ix.docs[tn] = d.Doc.Text() + ts.Doc.Text()
						}
					}
				}
			}
		}
	}
	return ix
}

// reaches reports whether a call in fn's body, or in the body of a
// function of the package fn calls statically (transitively), satisfies
// at.
func (ix *pkgIndex) reaches(fn *types.Func, at func(call *ast.CallExpr) bool) bool {
	seen := map[*types.Func]bool{}
	var walk func(fn *types.Func) bool
	walk = func(fn *types.Func) bool {
		fn = fn.Origin()
		d := ix.decls[fn]
		if d == nil || seen[fn] {
			return false
		}
		seen[fn] = true
		found := false
		ast.Inspect(d.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if found || !ok {
				return !found
			}
			if at(call) {
				found = true
				return false
			}
			if callee := typeutil.StaticCallee(ix.pkg.TypesInfo, call); callee != nil && walk(callee) {
				found = true
			}
			return !found
		})
		return found
	}
	return walk(fn)
}

// locksSelf reports whether call locks a lock of t's value: X.f.Lock()
// or RLock() where f is a field of T (logrus v1.5.0's Entry.WithFields:
// entry.Logger.mu.Lock(), the Logger's lock wrapper), or X.Lock() on a
// lock T embeds.
func (ix *pkgIndex) locksSelf(t *Target, call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Lock" && sel.Sel.Name != "RLock" {
		return false
	}
	info := ix.pkg.TypesInfo
	if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal && len(s.Index()) > 1 && t.isSelf(s.Recv()) {
		return true // a promoted Lock: T embeds its lock
	}
	x, ok := ast.Unparen(sel.X).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := info.Selections[x]
	return s != nil && s.Kind() == types.FieldVal && t.isSelf(s.Recv())
}

// callsBack reports whether call runs a callback of type cb: a method of
// the interface cb, or a function value of the function type cb.
func (ix *pkgIndex) callsBack(cb types.Type, call *ast.CallExpr) bool {
	info := ix.pkg.TypesInfo
	if _, ok := cb.Underlying().(*types.Signature); ok {
		return typeutil.StaticCallee(info, call) == nil && types.Identical(info.TypeOf(call.Fun), cb.Underlying())
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := info.Selections[sel]
	return s != nil && s.Kind() == types.MethodVal && types.IsInterface(s.Recv()) && types.Identical(s.Recv(), cb)
}

// hook is a method of T that takes a callback: the parameter at index
// param, of type cb (a function type, or an interface whose methods a test
// can implement); its other parameters can be generated.
type hook struct {
	m     Func
	param int
	cb    types.Type
}

// hooks are the methods of t that take a callback and whose docs (the
// method's, the callback type's) do not say it must not call back.
func (t *Target) hooks(ix *pkgIndex) []hook {
	var out []hook
	ms := types.NewMethodSet(types.NewPointer(t.Type))
	for i := 0; i < ms.Len(); i++ {
		fn, ok := ms.At(i).Obj().(*types.Func)
		sig, ok2 := ms.At(i).Type().(*types.Signature)
		if !ok || !ok2 || !fn.Exported() || skipMethods[fn.Name()] {
			continue
		}
		h := hook{m: Func{Fn: fn, Sig: sig}, param: -1}
		for k := 0; k < sig.Params().Len(); k++ {
			pt := sig.Params().At(k).Type()
			switch {
			case h.param < 0 && callbackType(pt) && !(sig.Variadic() && k == sig.Params().Len()-1):
				h.param, h.cb = k, pt
			case !generatable(pt, 0):
				h.param = -2
			}
		}
		if h.param < 0 {
			continue
		}
		doc := ""
		if d := ix.decls[fn.Origin()]; d != nil {
			doc = d.Doc.Text()
		}
		if n, ok := types.Unalias(h.cb).(*types.Named); ok {
			doc += ix.docs[n.Obj()]
		}
		if noReentry.MatchString(doc) {
			continue
		}
		out = append(out, h)
	}
	return out
}

// callbackType reports whether a test can write a value of type t that
// runs code of its own: a function type, or an interface with methods,
// all exported, that it can name; not an error or a context.Context,
// values the generator makes otherwise.
func callbackType(t types.Type) bool {
	if isError(t) || isContext(t) {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Signature:
		return u.TypeParams() == nil && exportedTypes(u)
	case *types.Interface:
		if u.NumMethods() == 0 || !writable(t) {
			return false
		}
		for i := 0; i < u.NumMethods(); i++ {
			m := u.Method(i)
			if !m.Exported() || !exportedTypes(m.Type().(*types.Signature)) {
				return false
			}
		}
		return true
	}
	return false
}

// reentries are cases whose prefix hands t a callback that calls back
// into the value (once at a time: a call that runs the callback again
// does not recurse), and whose goroutines call the methods that run it.
// The call back is to a method that takes t's lock (Focus first) and
// whose name does not say it changes state, nor registers: one made
// while the value holds its lock blocks for ever (logrus v1.5.0's
// WithFields from a hook or formatter). A hook is skipped when no method
// of t runs it or none the callback could call takes the lock.
func (g *Generator) reentries(t *Target) []*Case {
	ix := newPkgIndex(t.Pkg)
	hooks := t.hooks(ix)
	if len(hooks) == 0 {
		return nil
	}
	cs0 := &caseState{t: t}
	var lockers []Func
	registers := func(m Func) bool { return slices.ContainsFunc(hooks, func(h hook) bool { return h.m.Fn == m.Fn }) }
	for _, m := range t.Methods {
		if cs0.callable(m) && !changes(m.Fn.Name()) && !panics(m.Fn.Name()) && !registers(m) && ix.reaches(m.Fn, func(c *ast.CallExpr) bool { return ix.locksSelf(t, c) }) {
			lockers = append(lockers, m)
		}
	}
	focused := func(m Func) bool { return slices.ContainsFunc(t.Focus, func(f Func) bool { return f.Fn == m.Fn }) }
	slices.SortStableFunc(lockers, func(a, b Func) int { return b2i(!focused(a)) - b2i(!focused(b)) })
	var out []*Case
	for _, h := range hooks {
		var runs, triggers []Func
		for _, m := range t.Methods {
			if m.Fn != h.m.Fn && ix.reaches(m.Fn, func(c *ast.CallExpr) bool { return ix.callsBack(h.cb, c) }) {
				runs = append(runs, m)
				if cs0.callable(m) && !panics(m.Fn.Name()) {
					triggers = append(triggers, m)
				}
			}
		}
		if len(triggers) == 0 {
			continue
		}
		n := 0
		for _, re := range lockers {
			if n == reentrantsPerHook || len(out) == maxReentries {
				break
			}
			if slices.ContainsFunc(runs, func(f Func) bool { return f.Fn == re.Fn }) {
				continue // calling it back runs the callback again
			}
			out = append(out, g.reentry(t, h, re, triggers))
			n++
		}
	}
	return out
}

// panics reports whether a method's name says it panics by design
// (log.Panic's convention), as Fatal ends the process.
func panics(name string) bool { return strings.HasPrefix(name, "Panic") }

// reentry is the case whose prefix registers h's callback calling re on
// v, and whose two goroutines each call two of triggers, dealt from a
// shuffled deck.
func (g *Generator) reentry(t *Target, h hook, re Func, triggers []Func) *Case {
	c := &Case{Target: t, Fresh: true}
	cs := &caseState{t: t}
	c.Build = g.buildFresh(t)
	call := g.call(re, cs).render("v", false)
	back := "if genIn.CompareAndSwap(false, true) {\n_ = func() string {\n" + call.Body + "\n}()\ngenIn.Store(false)\n}"
	var args []string
	sig := h.m.Sig
	for k := 0; k < sig.Params().Len(); k++ {
		pt := sig.Params().At(k).Type()
		if k == h.param {
			args = append(args, g.callback(h.cb, back))
			continue
		}
		if sig.Variadic() && k == sig.Params().Len()-1 {
			break
		}
		code, _ := g.value(pt, cs, 0)
		args = append(args, code)
	}
	c.Prefix = append(c.Prefix, "genIn := new("+g.q.pkg("sync/atomic", "atomic")+".Bool)",
		prefixStmt(callTmpl{m: h.m, code: strings.Join(args, ", ")}))
	deck := slices.Clone(triggers)
	g.rng.Shuffle(len(deck), func(a, b int) { deck[a], deck[b] = deck[b], deck[a] })
	for th := 0; th < 2; th++ {
		var calls []Call
		for k := 0; k < maxCalls; k++ {
			calls = append(calls, g.call(deck[(th*maxCalls+k)%len(deck)], cs).render("v", false))
		}
		c.Threads = append(c.Threads, calls)
	}
	g.observe(c, cs)
	return c
}

// buildFresh is build, but by a constructor named New... when t has one,
// else its zero value when usable: the callback registered must not stay
// on a value other tests share (logrus's StandardLogger).
func (g *Generator) buildFresh(t *Target) []string {
	if t = freshTarget(t); len(t.Ctors) == 0 {
		return []string{"v := new(" + g.q.typ(t.Type) + ")"}
	}
	return g.build(t, "v", "x")
}

// freshTarget is t with the ways buildFresh builds it: its constructors
// named New... when it has one, else its zero value when usable, else t.
func freshTarget(t *Target) *Target {
	fresh := *t
	fresh.Ctors = nil
	for _, c := range t.Ctors {
		if strings.HasPrefix(c.Fn.Name(), "New") {
			fresh.Ctors = append(fresh.Ctors, c)
		}
	}
	switch {
	case len(fresh.Ctors) > 0:
		fresh.Zero = false
	case !t.Zero:
		return t
	}
	return &fresh
}

// callback writes a value of type cb whose functions run back, then
// return what keeps the caller going: true for a bool (keep iterating),
// for a slice the package's exported variable of that type when it has
// one (logrus.AllLevels for a Hook's Levels: the hook fires at every
// level), else zero values. An interface is implemented by a type of the
// generated file with a function field per method.
func (g *Generator) callback(cb types.Type, back string) string {
	if sig, ok := cb.Underlying().(*types.Signature); ok {
		return g.backLit(sig, back)
	}
	iface := cb.Underlying().(*types.Interface)
	name := g.q.impl(cb, func(name string) string {
		var fields, methods []string
		for i := 0; i < iface.NumMethods(); i++ {
			m := iface.Method(i)
			sig := m.Type().(*types.Signature)
			pts, res := paramTypes(g, sig), resultTypes(g, sig)
			fields = append(fields, "f"+m.Name()+" func("+strings.Join(pts, ", ")+")"+res)
			var ps, as []string
			for k, pt := range pts {
				a := fmt.Sprintf("p%d", k)
				if sig.Variadic() && k == len(pts)-1 {
					a += "..."
				}
				ps, as = append(ps, fmt.Sprintf("p%d %s", k, pt)), append(as, a)
			}
			ret := ""
			if sig.Results().Len() > 0 {
				ret = "return "
			}
			methods = append(methods, fmt.Sprintf("func (h %s) %s(%s)%s { %sh.f%s(%s) }", name, m.Name(), strings.Join(ps, ", "), res, ret, m.Name(), strings.Join(as, ", ")))
		}
		return fmt.Sprintf("// %s runs a generated test's callbacks.\ntype %s struct {\n%s\n}\n\n%s\n", name, name, strings.Join(fields, "\n"), strings.Join(methods, "\n"))
	})
	var inits []string
	for i := 0; i < iface.NumMethods(); i++ {
		m := iface.Method(i)
		inits = append(inits, "f"+m.Name()+": "+g.backLit(m.Type().(*types.Signature), back))
	}
	return name + "{" + strings.Join(inits, ", ") + "}"
}

// paramTypes are the parameter types of sig as the file writes them.
func paramTypes(g *Generator, sig *types.Signature) []string {
	var out []string
	for k := 0; k < sig.Params().Len(); k++ {
		pt := g.q.typ(sig.Params().At(k).Type())
		if sig.Variadic() && k == sig.Params().Len()-1 {
			pt = "..." + g.q.typ(sig.Params().At(k).Type().(*types.Slice).Elem())
		}
		out = append(out, pt)
	}
	return out
}

// resultTypes are the results of sig as a function type writes them.
func resultTypes(g *Generator, sig *types.Signature) string {
	var rs []string
	for i := 0; i < sig.Results().Len(); i++ {
		rs = append(rs, g.q.typ(sig.Results().At(i).Type()))
	}
	switch len(rs) {
	case 0:
		return ""
	case 1:
		return " " + rs[0]
	}
	return " (" + strings.Join(rs, ", ") + ")"
}

// backLit writes a function literal of type sig that runs back and
// returns (callback's results).
func (g *Generator) backLit(sig *types.Signature, back string) string {
	var ps, rs, sets []string
	for _, pt := range paramTypes(g, sig) {
		ps = append(ps, "_ "+pt)
	}
	for i := 0; i < sig.Results().Len(); i++ {
		rt := sig.Results().At(i).Type()
		r := fmt.Sprintf("r%d", i)
		rs = append(rs, r+" "+g.q.typ(rt))
		if b, ok := rt.Underlying().(*types.Basic); ok && b.Info()&types.IsBoolean != 0 {
			sets = append(sets, r+" = true")
		} else if v := g.exportedVarOf(rt); v != "" {
			sets = append(sets, r+" = "+v)
		}
	}
	res := ""
	if len(rs) > 0 {
		res = " (" + strings.Join(rs, ", ") + ")"
	}
	return "func(" + strings.Join(ps, ", ") + ")" + res + " {\n" + back + "\n" + strings.Join(append(sets, "return"), "\n") + "\n}"
}

// exportedVarOf names an exported package-level variable of slice type t
// in the package of t's element type, or "".
func (g *Generator) exportedVarOf(t types.Type) string {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return ""
	}
	n, ok := types.Unalias(s.Elem()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	scope := n.Obj().Pkg().Scope()
	for _, name := range scope.Names() {
		if v, ok := scope.Lookup(name).(*types.Var); ok && v.Exported() && types.Identical(v.Type(), t) {
			return g.q.pkg(v.Pkg().Path(), v.Pkg().Name()) + "." + name
		}
	}
	return ""
}

// impl names the generated file's implementation of interface t, writing
// its declaration with decl the first time.
func (q *qualifier) impl(t types.Type, decl func(name string) string) string {
	key := types.TypeString(t, nil)
	if n, ok := q.implNames[key]; ok {
		return n
	}
	base := "genImpl"
	if n, ok := types.Unalias(t).(*types.Named); ok {
		base += n.Obj().Name()
	}
	name := base
	for i := 2; slices.Contains(q.implUsed, name); i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	if q.implNames == nil {
		q.implNames = map[string]string{}
	}
	q.implNames[key] = name
	q.implUsed = append(q.implUsed, name)
	q.decls = append(q.decls, decl(name))
	return name
}

// LockedOn reports whether a line changed (as changed says) locks a lock
// of t's value, in t's package: a change that makes a method of another
// type take t's lock (logrus v1.5.0: Entry.WithFields takes the Logger's
// mu) changes what t's callbacks may call.
func (t *Target) LockedOn(changed func(file string, line int) bool) bool {
	ix := newPkgIndex(t.Pkg)
	for _, d := range ix.decls {
		found := false
		ast.Inspect(d.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && !found && ix.locksSelf(t, call) {
				p := t.Pkg.Fset.Position(call.Pos())
				found = changed(p.Filename, p.Line)
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
