package gen

import (
	"fmt"
	"go/types"
	"math/rand"
	"slices"
	"strings"
)

// Case is one generated concurrent test of a target.
type Case struct {
	Target *Target
	Name   string // the Test function's name
	// Prefix are the statements of the sequential prefix after the value
	// v is built; Build builds it.
	Build  []string
	Prefix []string
	// Threads are the calls each goroutine makes, in order.
	Threads [][]Call
	// Observers are called on v (and w) after the goroutines return.
	Observers []Call
	// Stops are called after the observers, in every run: they end what
	// the case started (stops).
	Stops []Call
	// Two is set when the prefix builds a second instance, w, for the
	// methods that take one; Env are the names the prefix returns after
	// v (w, then the results later calls reuse), which the calls read
	// as x[1], x[2], ...
	Two bool
	Env []string
	// OnBase is set when the case fails sequentially but passes on the
	// base commit (Options.BaseDir): it is searched, not dropped.
	OnBase bool
	// Shape is set on Shapes' cases: the sequential check decides them
	// before the others, whose crashes would leave them undecided.
	Shape bool
	// Derived is the method whose result v is (Target.Derivers: v :=
	// v0.Derived(...)), "" when v is built.
	Derived string
	// Fresh is set when v must be a value no other test shares
	// (buildFresh): a constructor named New..., else the zero value.
	Fresh bool
}

// size is the number of calls of c, to prefer the smallest failing test.
func (c *Case) size() int {
	n := len(c.Prefix)
	for _, th := range c.Threads {
		n += len(th)
	}
	return n
}

// Call is one method call on the shared value v, as source: Label is what
// the test prints ("Inc(2)"), Body the statements of a func(v) string
// that makes the call and returns its observable results.
type Call struct {
	Label  string
	Body   string
	Method string // the method called
}

// callsFocus reports whether one of c's goroutines calls a method of its
// target's Focus (in pr, a changed one), or they work on the value a
// method of Focus derived (what zap's new WithLazy returns).
func (c *Case) callsFocus() bool {
	if c.Derived != "" && slices.ContainsFunc(c.Target.Focus, func(f Func) bool { return f.Fn.Name() == c.Derived }) {
		return true
	}
	for _, th := range c.Threads {
		for _, call := range th {
			for _, f := range c.Target.Focus {
				if f.Fn.Name() == call.Method {
					return true
				}
			}
		}
	}
	return false
}

// Generator writes cases for targets of one package.
type Generator struct {
	rng    *rand.Rand
	shapes *rand.Rand // Shapes' stream
	q      *qualifier
}

// NewGenerator returns a generator for tests in the external test package
// of pkg, drawing from seed.
func NewGenerator(pkgPath, pkgName string, seed int64) *Generator {
	return &Generator{rng: rand.New(rand.NewSource(seed)), shapes: newShapeRand(seed), q: newQualifier(pkgPath, pkgName)}
}

// Imports are the packages the cases written so far use, path to name.
func (g *Generator) Imports() map[string]string { return g.q.imports }

// maxCalls bounds the calls of a goroutine and of the prefix.
const maxCalls = 2

// Generate returns n cases of t, named TestInterleaveGen_<T>_<i>.
func (g *Generator) Generate(t *Target, n int) []*Case {
	var out []*Case
	for i := 0; i < n; i++ {
		c := &Case{Target: t, Name: fmt.Sprintf("TestInterleaveGen_%s_%d", t.Name.Name(), i)}
		g.fill(c)
		out = append(out, c)
	}
	return out
}

// mutators are the methods that may change state: they take arguments or
// return nothing comparable.
func mutators(t *Target) []Func {
	var out []Func
	for _, m := range t.Methods {
		sig := m.Sig
		if sig.Params().Len() > 0 || !anyObservable(sig.Results()) {
			out = append(out, m)
		}
	}
	return out
}

func (g *Generator) fill(c *Case) {
	t := c.Target
	self := t.selfMethods()
	// A type whose methods take another instance gets a second one, w,
	// built the same way.
	cs := &caseState{t: t, two: len(self) > 0}
	c.Two = cs.two
	// The goroutines may work on a value another method derived (the
	// logger With returns), as a test author calls the methods of the
	// value the setup returns; w is derived the same way.
	d := g.deriver(t)
	c.Build = g.buildDerived(t, "v", "x", d)
	// On the value a changed deriver returned, the goroutines use it:
	// calling the deriver again only derives another value, which the
	// test drops (zap's WithLazy logger races on its first uses).
	focus, uses := t.Focus, mutators(t)
	if d != nil {
		c.Derived = d.Fn.Name()
		if c.callsFocus() {
			focus, uses = without(focus, *d), without(uses, *d)
		}
	}
	if cs.two {
		c.Build = append(c.Build, g.buildDerived(t, "w", "xw", d)...)
		cs.env = append(cs.env, "w")
	}
	muts := mutators(t)
	// The prefix: state-changing calls, whose results and arguments later
	// calls reuse.
	cs.inPrefix = true
	prods, cmds := producers(t, muts), commands(muts)
	n := g.rng.Intn(maxCalls + 1)
	if len(prods)+len(cmds) > 0 && g.rng.Intn(reuseOdds) > 0 {
		n = max(n, 1) // state for the goroutines to work on
	}
	for i := 0; i < n && len(muts) > 0; i++ {
		m := muts[g.rng.Intn(len(muts))]
		switch {
		case i == 0 && len(prods) > 0 && g.rng.Intn(reuseOdds) > 0:
			// A handle first: what Add returns, Remove takes.
			m = prods[g.rng.Intn(len(prods))]
		case len(cmds) > 0 && g.rng.Intn(2) == 0:
			// State to work on: a method that returns nothing.
			m = cmds[g.rng.Intn(len(cmds))]
		}
		m, ok := g.pick(m, muts, cs)
		if !ok {
			continue
		}
		sig := m.Sig
		code, _ := g.args(sig, cs)
		call := "v." + m.Fn.Name() + "(" + strings.ReplaceAll(code, other, "w") + ")"
		if sig.Results().Len() == 0 {
			c.Prefix = append(c.Prefix, call)
			continue
		}
		var names []string
		for j := 0; j < sig.Results().Len(); j++ {
			name := fmt.Sprintf("p%d_%d", i, j)
			names = append(names, name)
			cs.keep(name, sig.Results().At(j).Type())
		}
		blanks := strings.TrimSuffix(strings.Repeat("_, ", len(names)), ", ")
		c.Prefix = append(c.Prefix, strings.Join(names, ", ")+" := "+call, blanks+" = "+strings.Join(names, ", "))
	}
	cs.inPrefix = false
	c.Env = cs.env
	// Two goroutines, each one or two calls; the first is a changed method
	// (Target.Focus) or a mutator when there is one, so that the goroutines
	// interfere. When the first goroutine starts by passing w to v, the
	// second often starts with the mirror call, w given v.
	var mirror *Call
	cons := cs.consumers()
	for th := 0; th < 2; th++ {
		var calls []Call
		for i, n := 0, 1+g.rng.Intn(maxCalls); i < n; i++ {
			if th == 1 && i == 0 && mirror != nil && g.rng.Intn(4) > 0 {
				calls = append(calls, *mirror)
				continue
			}
			if th == 1 && i == 0 && len(c.Threads[0]) > 0 && g.rng.Intn(3) == 0 {
				// The same call twice at once: Take(id) against
				// Take(id).
				calls = append(calls, c.Threads[0][0])
				continue
			}
			m := t.Methods[g.rng.Intn(len(t.Methods))]
			if i == 0 {
				switch {
				case th == 0 && len(self) > 0 && g.rng.Intn(2) == 0:
					m = self[g.rng.Intn(len(self))]
				case len(cons) > 0 && g.rng.Intn(2) == 0:
					// A method that takes a handle of the prefix.
					m = cons[g.rng.Intn(len(cons))]
				case len(focus) > 0 && g.rng.Intn(4) > 0:
					m = focus[g.rng.Intn(len(focus))]
				case len(uses) > 0 && g.rng.Intn(4) > 0:
					m = uses[g.rng.Intn(len(uses))]
				}
			}
			ms := t.Methods
			if th == 0 && i == 0 && t.Syncing != nil {
				// A type that only holds a lock: the first goroutine
				// starts with a method that uses it (syncing.go), a
				// changed one when there is one.
				ms = t.syncing(t.Methods)
				if !t.Syncing[m.Fn.Name()] {
					if sf := t.syncing(focus); len(sf) > 0 {
						m = sf[g.rng.Intn(len(sf))]
					} else {
						m = ms[g.rng.Intn(len(ms))]
					}
				}
			}
			m, ok := g.pick(m, ms, cs)
			if !ok {
				continue
			}
			tm := g.call(m, cs)
			calls = append(calls, tm.render("v", cs.two))
			if th == 0 && i == 0 && strings.Contains(tm.code, other) {
				mc := tm.render("w", cs.two)
				mirror = &mc
			}
		}
		c.Threads = append(c.Threads, calls)
	}
	for _, m := range t.Observers {
		c.Observers = append(c.Observers, g.call(m, cs).render("v", cs.two))
		if cs.two {
			c.Observers = append(c.Observers, g.call(m, cs).render("w", true))
		}
	}
}

// without returns fs without f.
func without(fs []Func, f Func) []Func {
	return slices.DeleteFunc(slices.Clone(fs), func(m Func) bool { return m.Fn == f.Fn })
}

// producers are the mutators that return a handle: a result of a type
// that a parameter of a method of t has (not an error, a bool or a
// string: those are results, not handles).
func producers(t *Target, muts []Func) []Func {
	var out []Func
	for _, m := range muts {
		r := m.Sig.Results()
	results:
		for j := 0; j < r.Len(); j++ {
			rt := r.At(j).Type()
			if b, ok := rt.Underlying().(*types.Basic); isError(rt) || ok && b.Info()&(types.IsBoolean|types.IsString) != 0 {
				continue
			}
			for _, c := range t.Methods {
				for k := 0; k < c.Sig.Params().Len(); k++ {
					if types.Identical(c.Sig.Params().At(k).Type(), rt) {
						out = append(out, m)
						break results
					}
				}
			}
		}
	}
	return out
}

// commands are the mutators that return nothing: they only change state.
func commands(muts []Func) []Func {
	var out []Func
	for _, m := range muts {
		if m.Sig.Results().Len() == 0 {
			out = append(out, m)
		}
	}
	return out
}

// build writes the statements that build a value of t as *T named name;
// tmp names the value a constructor of T (not *T) returns.
func (g *Generator) build(t *Target, name, tmp string) []string {
	return g.buildBy(t, g.rng.Intn(len(t.Ctors)+btoi(t.Zero)), name, tmp)
}

// buildBy is build by t's constructor k, or by its zero value when k is
// len(t.Ctors).
func (g *Generator) buildBy(t *Target, k int, name, tmp string) []string {
	if k == len(t.Ctors) {
		return []string{fmt.Sprintf("%s := new(%s)", name, g.q.typ(t.Type))}
	}
	fn := t.Ctors[k]
	sig := fn.Sig
	args, _ := g.args(sig, nil)
	call := g.q.fn(fn.Fn) + g.targs(fn.TArgs) + "(" + args + ")"
	return bindResult(sig, call, name, tmp)
}

// bindResult writes the statements that set name (a *T) to what call
// returns: T or *T, with an error that panics; tmp names a T result.
func bindResult(sig *types.Signature, call, name, tmp string) []string {
	ptr := isPointer(sig.Results().At(0).Type())
	v := name
	if !ptr {
		v = tmp
	}
	var out []string
	if sig.Results().Len() == 2 {
		out = append(out, fmt.Sprintf("%s, err := %s", v, call), "if err != nil {\n\tpanic(err)\n}")
	} else {
		out = append(out, fmt.Sprintf("%s := %s", v, call))
	}
	if !ptr {
		out = append(out, fmt.Sprintf("%s := &%s", name, tmp))
	}
	return out
}

// deriver picks the method whose result the goroutines work on, or nil
// for the built value itself: a changed deriver (Target.Focus) 3 times in
// 4, else any deriver half of the time. Types without derivers draw
// nothing, so their cases stay those of the same seed before.
func (g *Generator) deriver(t *Target) *Func {
	if len(t.Derivers) == 0 {
		return nil
	}
	var focus []Func
	for _, d := range t.Derivers {
		if slices.ContainsFunc(t.Focus, func(f Func) bool { return f.Fn == d.Fn }) {
			focus = append(focus, d)
		}
	}
	switch {
	case len(focus) > 0 && g.rng.Intn(4) > 0:
		return &focus[g.rng.Intn(len(focus))]
	case g.rng.Intn(2) == 0:
		return &t.Derivers[g.rng.Intn(len(t.Derivers))]
	}
	return nil
}

// buildDerived writes the statements that build name as build does, or,
// when d is set, build name+"0" and set name to what d returns on it.
func (g *Generator) buildDerived(t *Target, name, tmp string, d *Func) []string {
	return g.buildDerivedBy(t, g.rng.Intn(len(t.Ctors)+btoi(t.Zero)), name, tmp, d)
}

// OtherBuilds are the other ways to build c's values (its Build), one by
// each constructor of its type and one by its zero value when usable,
// each derived as c's is: for a base commit that does not compile the
// constructor c was drawn with (fsnotify v1.7.0's NewBufferedWatcher),
// where the same calls on a value built otherwise still say whether the
// base fails the same way. The way c's are built is left out; a Fresh
// case keeps to New... constructors.
func (g *Generator) OtherBuilds(c *Case) [][]string {
	t := c.Target
	if c.Fresh {
		t = freshTarget(t)
	}
	var d *Func
	for i := range t.Derivers {
		if t.Derivers[i].Fn.Name() == c.Derived {
			d = &t.Derivers[i]
		}
	}
	if c.Derived != "" && d == nil {
		return nil
	}
	var out [][]string
	for k := 0; k < len(t.Ctors)+btoi(t.Zero); k++ {
		b := g.buildDerivedBy(t, k, "v", "x", d)
		if c.Two {
			b = append(b, g.buildDerivedBy(t, k, "w", "xw", d)...)
		}
		if !sameWay(b, c.Build) {
			out = append(out, b)
		}
	}
	return out
}

// sameWay reports whether builds a and b call the same constructor (or
// both take the zero value): their first statements agree up to the
// arguments.
func sameWay(a, b []string) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	x, _, _ := strings.Cut(a[0], "(")
	y, _, _ := strings.Cut(b[0], "(")
	return x == y
}

// buildDerivedBy is buildDerived by t's constructor k (buildBy).
func (g *Generator) buildDerivedBy(t *Target, k int, name, tmp string, d *Func) []string {
	if d == nil {
		return g.buildBy(t, k, name, tmp)
	}
	base := name + "0"
	out := g.buildBy(t, k, base, tmp+"0")
	call := base + "." + d.Fn.Name() + "(" + g.deriveArgs(d.Sig) + ")"
	return append(out, bindResult(d.Sig, call, name, tmp)...)
}

// deriveArgs writes fresh arguments of a deriving call; a variadic
// parameter gets one value (a With of no fields may return the receiver).
func (g *Generator) deriveArgs(sig *types.Signature) string {
	var out []string
	p := sig.Params()
	for i := 0; i < p.Len(); i++ {
		t := p.At(i).Type()
		if sig.Variadic() && i == p.Len()-1 {
			t = t.(*types.Slice).Elem()
		}
		out = append(out, g.fresh(t, 0))
	}
	return strings.Join(out, ", ")
}

// callTmpl is a call of a method with its arguments drawn, before the
// receiver is chosen: other stands for the other instance.
type callTmpl struct {
	m           Func
	code, label string // the arguments
}

// call draws the arguments of a call of m.
func (g *Generator) call(m Func, cs *caseState) callTmpl {
	code, label := g.args(m.Sig, cs)
	return callTmpl{m: m, code: code, label: label}
}

// render writes the call on recv (v or w); labels name the receiver when
// there are two instances.
func (tm callTmpl) render(recv string, two bool) Call {
	o := "w"
	if recv == "w" {
		o = "v"
	}
	name := tm.m.Fn.Name()
	label := name + "(" + strings.ReplaceAll(tm.label, other, o) + ")"
	if two {
		label = recv + "." + label
	}
	call := recv + "." + name + "(" + strings.ReplaceAll(tm.code, other, o) + ")"
	r := tm.m.Sig.Results()
	var names, shown []string
	for j := 0; j < r.Len(); j++ {
		if observable(r.At(j).Type()) {
			n := fmt.Sprintf("r%d", j)
			names = append(names, n)
			shown = append(shown, n)
		} else {
			names = append(names, "_")
		}
	}
	if len(shown) == 0 {
		return Call{Label: label, Body: call + "\nreturn \"\"", Method: name}
	}
	return Call{Label: label, Body: strings.Join(names, ", ") + " := " + call + "\nreturn genShow(" + strings.Join(shown, ", ") + ")", Method: name}
}

// targs writes explicit type arguments, if any.
func (g *Generator) targs(ts []types.Type) string {
	if len(ts) == 0 {
		return ""
	}
	var out []string
	for _, t := range ts {
		out = append(out, g.q.typ(t))
	}
	return "[" + strings.Join(out, ", ") + "]"
}

// args writes the arguments of a call of sig, as code and as the test
// labels them; cs, when set, is the case the call is in.
func (g *Generator) args(sig *types.Signature, cs *caseState) (code, label string) {
	var out, labels []string
	p := sig.Params()
	for i := 0; i < p.Len(); i++ {
		t := p.At(i).Type()
		if sig.Variadic() && i == p.Len()-1 {
			if g.rng.Intn(2) == 0 {
				break
			}
			t = t.(*types.Slice).Elem()
		}
		c, l, ok := namedValue(p.At(i).Name(), t)
		if !ok {
			c, l = g.value(t, cs, 0)
		}
		out, labels = append(out, c), append(labels, l)
	}
	return strings.Join(out, ", "), strings.Join(labels, ", ")
}

// namedValue is the value a test author gives a parameter whose name says
// more than its type: an address to dial or listen on ("addr", "address",
// "listenAddr") is a local one with any port; a rate or probability
// ("rate", "sampleRate", "ratio", "probability", "fraction") is between 0
// and 1. statsd.New("a") fails ("missing port in address"), and
// datadog-go v4.3.0's race between two Gauge calls of rate 0.5 needs a
// client and a rate under 1 (the pool's floats are 0, 1.5 and 2).
func namedValue(name string, t types.Type) (code, label string, ok bool) {
	u, basic := t.Underlying().(*types.Basic)
	if !basic || isDuration(t) {
		return "", "", false
	}
	n := strings.ToLower(name)
	switch {
	case u.Info()&types.IsString != 0 && (strings.HasSuffix(n, "addr") || strings.HasSuffix(n, "address") || n == "hostport"):
		return `"127.0.0.1:0"`, `"127.0.0.1:0"`, true
	case u.Info()&types.IsFloat != 0 && (strings.HasSuffix(n, "rate") || n == "ratio" || n == "probability" || n == "fraction"):
		return "0.5", "0.5", true
	}
	return "", "", false
}

// argsCode writes fresh arguments of a call of sig.
func (g *Generator) argsCode(sig *types.Signature) string {
	code, _ := g.args(sig, nil)
	return code
}

// value writes an expression of type t (as code and as its label): within
// a case, the other instance, or most often a value the case used before
// (pool.go); else a small literal (so that the calls of the goroutines
// collide on the same keys), a constructed value, or a zero value.
func (g *Generator) value(t types.Type, cs *caseState, depth int) (code, label string) {
	if cs != nil {
		if cs.two && cs.t.isSelf(t) {
			if isPointer(t) {
				return other, other
			}
			return "*" + other, "*" + other
		}
		if c, l, ok := g.reuse(t, cs); ok {
			return c, l
		}
		if u, ok := t.Underlying().(*types.Basic); ok && !isDuration(t) {
			lit := g.basic(u)
			cs.lits = append(cs.lits, litVal{lit, litClass(u)})
			return lit, lit
		}
	}
	e := g.fresh(t, depth)
	return e, e
}

// fresh writes a new expression of type t.
func (g *Generator) fresh(t types.Type, depth int) string {
	if isContext(t) {
		return g.q.pkg("context", "context") + ".Background()"
	}
	if isDuration(t) {
		return g.q.pkg("time", "time") + ".Hour"
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		// An untyped constant is assignable to any type of its kind.
		return g.basic(u)
	case *types.Slice:
		n := g.rng.Intn(3)
		var elems []string
		for i := 0; i < n; i++ {
			elems = append(elems, g.fresh(u.Elem(), depth+1))
		}
		return g.q.typ(t) + "{" + strings.Join(elems, ", ") + "}"
	case *types.Map:
		if g.rng.Intn(2) == 0 {
			return g.q.typ(t) + "{}"
		}
		return g.q.typ(t) + "{" + g.fresh(u.Key(), depth+1) + ": " + g.fresh(u.Elem(), depth+1) + "}"
	case *types.Signature:
		return g.funcLit(u)
	case *types.Interface:
		// Any value: a number, or a small struct for APIs that reflect.
		if g.rng.Intn(4) == 0 {
			return g.basic(types.Typ[types.Int])
		}
		return `struct{ A, B string }{"a", "b"}`
	case *types.Pointer, *types.Struct:
		if fn := ctorFor(t); fn != nil && depth < 2 {
			return g.q.fn(fn) + "(" + g.argsCode(fn.Type().(*types.Signature)) + ")"
		}
		// A literal with the exported fields of basic types set to small
		// positive values (sizes, counts, capacities), and those of
		// function types to functions that return zero values (a pool's
		// Constructor: left nil, every call that creates one panics).
		base, amp := t, ""
		if p, ok := t.(*types.Pointer); ok {
			base, amp = p.Elem(), "&"
		}
		var fields []string
		if st, ok := base.Underlying().(*types.Struct); ok {
			for i := 0; i < st.NumFields(); i++ {
				f := st.Field(i)
				if sig, ok := f.Type().Underlying().(*types.Signature); ok && f.Exported() && !f.Embedded() {
					fields = append(fields, f.Name()+": "+g.funcLit(sig))
					continue
				}
				b, ok := f.Type().Underlying().(*types.Basic)
				if !f.Exported() || f.Embedded() || !ok {
					continue
				}
				switch {
				case b.Info()&types.IsNumeric != 0 && b.Info()&types.IsComplex == 0:
					fields = append(fields, f.Name()+": "+[]string{"1", "2", "3", "64"}[g.rng.Intn(4)])
				case b.Info()&types.IsBoolean != 0:
					fields = append(fields, f.Name()+": "+g.basic(b))
				}
			}
		}
		return amp + g.q.typ(base) + "{" + strings.Join(fields, ", ") + "}"
	}
	return "*new(" + g.q.typ(t) + ")"
}

// basic writes a literal of u: few distinct values, so calls collide.
func (g *Generator) basic(u *types.Basic) string {
	switch {
	case u.Info()&types.IsBoolean != 0:
		return []string{"true", "false"}[g.rng.Intn(2)]
	case u.Info()&types.IsString != 0:
		return []string{`"a"`, `"b"`, `"a"`, `"c"`}[g.rng.Intn(4)]
	case u.Info()&types.IsFloat != 0:
		return []string{"0", "1.5", "2"}[g.rng.Intn(3)]
	case u.Info()&types.IsUnsigned != 0:
		return []string{"0", "1", "2", "3"}[g.rng.Intn(4)]
	}
	return []string{"0", "1", "2", "3", "-1"}[g.rng.Intn(5)]
}

// funcLit writes a function of type sig that returns zero values.
func (g *Generator) funcLit(sig *types.Signature) string {
	var ps, rs, zs []string
	for i := 0; i < sig.Params().Len(); i++ {
		t := g.q.typ(sig.Params().At(i).Type())
		if sig.Variadic() && i == sig.Params().Len()-1 {
			t = "..." + g.q.typ(sig.Params().At(i).Type().(*types.Slice).Elem())
		}
		ps = append(ps, "_ "+t)
	}
	for i := 0; i < sig.Results().Len(); i++ {
		t := sig.Results().At(i).Type()
		rs = append(rs, g.q.typ(t))
		if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsBoolean != 0 {
			zs = append(zs, "true") // keep iterating
		} else {
			zs = append(zs, "*new("+g.q.typ(t)+")")
		}
	}
	res := strings.Join(rs, ", ")
	if len(rs) > 1 {
		res = "(" + res + ")"
	}
	body := "{}"
	if len(zs) > 0 {
		body = "{ return " + strings.Join(zs, ", ") + " }"
	}
	return "func(" + strings.Join(ps, ", ") + ") " + res + " " + body
}

func isDuration(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}

func isPointer(t types.Type) bool { _, ok := t.(*types.Pointer); return ok }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// qualifier names packages in the generated file and records its imports.
type qualifier struct {
	imports map[string]string // path -> name used
	names   map[string]string // name -> path
	// decls are the file's own types (implementations of the callbacks'
	// interfaces, reenter.go), implNames their names by interface.
	decls     []string
	implNames map[string]string
	implUsed  []string
}

// reserved are the names the generated file uses itself.
var reserved = map[string]bool{"fmt": true, "sync": true, "testing": true, "strings": true, "v": true, "x": true, "t": true, "w": true, "xw": true, "err": true,
	"v0": true, "x0": true, "w0": true, "xw0": true, "genIn": true}

func newQualifier(pkgPath, pkgName string) *qualifier {
	q := &qualifier{imports: map[string]string{}, names: map[string]string{}}
	q.pkg(pkgPath, pkgName)
	return q
}

// pkg returns the name the file uses for the package, importing it.
func (q *qualifier) pkg(path, name string) string {
	if n, ok := q.imports[path]; ok {
		return n
	}
	n := name
	for i := 2; reserved[n] || q.names[n] != ""; i++ {
		n = fmt.Sprintf("%s%d", name, i)
	}
	q.imports[path], q.names[n] = n, path
	return n
}

func (q *qualifier) typ(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return q.pkg(p.Path(), p.Name()) })
}

func (q *qualifier) fn(f *types.Func) string {
	return q.pkg(f.Pkg().Path(), f.Pkg().Name()) + "." + f.Name()
}
