package gen

import (
	"fmt"
	"go/types"
	"math/rand"
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
	// Observers are called on v after the goroutines return.
	Observers []Call
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
	Label string
	Body  string
}

// Generator writes cases for targets of one package.
type Generator struct {
	rng *rand.Rand
	q   *qualifier
}

// NewGenerator returns a generator for tests in the external test package
// of pkg, drawing from seed.
func NewGenerator(pkgPath, pkgName string, seed int64) *Generator {
	return &Generator{rng: rand.New(rand.NewSource(seed)), q: newQualifier(pkgPath, pkgName)}
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
	var pool []poolVar
	// Build v.
	k := g.rng.Intn(len(t.Ctors) + btoi(t.Zero))
	if k == len(t.Ctors) {
		c.Build = append(c.Build, fmt.Sprintf("v := new(%s)", g.q.typ(t.Type)))
	} else {
		fn := t.Ctors[k]
		sig := fn.Sig
		call := g.q.fn(fn.Fn) + g.targs(fn.TArgs) + "(" + g.args(sig, nil) + ")"
		ptr := isPointer(sig.Results().At(0).Type())
		name := "v"
		if !ptr {
			name = "x"
		}
		if sig.Results().Len() == 2 {
			c.Build = append(c.Build, fmt.Sprintf("%s, err := %s", name, call), "if err != nil {\n\tpanic(err)\n}")
		} else {
			c.Build = append(c.Build, fmt.Sprintf("%s := %s", name, call))
		}
		if !ptr {
			c.Build = append(c.Build, "v := &x")
		}
	}
	muts := mutators(t)
	// The prefix: state-changing calls, whose results later calls may use.
	for i, n := 0, g.rng.Intn(maxCalls+1); i < n && len(muts) > 0; i++ {
		m := muts[g.rng.Intn(len(muts))]
		sig := m.Sig
		call := "v." + m.Fn.Name() + "(" + g.args(sig, pool) + ")"
		if sig.Results().Len() == 0 {
			c.Prefix = append(c.Prefix, call)
			continue
		}
		var names []string
		for j := 0; j < sig.Results().Len(); j++ {
			name := fmt.Sprintf("p%d_%d", i, j)
			names = append(names, name)
			pool = append(pool, poolVar{name, sig.Results().At(j).Type()})
		}
		blanks := strings.TrimSuffix(strings.Repeat("_, ", len(names)), ", ")
		c.Prefix = append(c.Prefix, strings.Join(names, ", ")+" := "+call, blanks+" = "+strings.Join(names, ", "))
	}
	// Two goroutines, each one or two calls; the first is a mutator when
	// there is one, so that the goroutines interfere.
	for th := 0; th < 2; th++ {
		var calls []Call
		for i, n := 0, 1+g.rng.Intn(maxCalls); i < n; i++ {
			m := t.Methods[g.rng.Intn(len(t.Methods))]
			if i == 0 && len(muts) > 0 && g.rng.Intn(4) > 0 {
				m = muts[g.rng.Intn(len(muts))]
			}
			calls = append(calls, g.call(m))
		}
		c.Threads = append(c.Threads, calls)
	}
	for _, m := range t.Observers {
		c.Observers = append(c.Observers, g.call(m))
	}
}

// call writes a call of m on v with fresh arguments.
func (g *Generator) call(m Func) Call {
	sig := m.Sig
	args := g.args(sig, nil)
	label := m.Fn.Name() + "(" + args + ")"
	call := "v." + m.Fn.Name() + "(" + args + ")"
	r := sig.Results()
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
		return Call{Label: label, Body: call + "\nreturn \"\""}
	}
	return Call{Label: label, Body: strings.Join(names, ", ") + " := " + call + "\nreturn genShow(" + strings.Join(shown, ", ") + ")"}
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

type poolVar struct {
	name string
	typ  types.Type
}

// args writes the arguments of a call of sig.
func (g *Generator) args(sig *types.Signature, pool []poolVar) string {
	var out []string
	p := sig.Params()
	for i := 0; i < p.Len(); i++ {
		t := p.At(i).Type()
		if sig.Variadic() && i == p.Len()-1 {
			if g.rng.Intn(2) == 0 {
				break
			}
			t = t.(*types.Slice).Elem()
		}
		out = append(out, g.value(t, pool, 0))
	}
	return strings.Join(out, ", ")
}

// value writes an expression of type t: a small literal (so that the calls
// of the goroutines collide on the same keys), a constructed value, or an
// earlier result.
func (g *Generator) value(t types.Type, pool []poolVar, depth int) string {
	var fits []string
	for _, v := range pool {
		if types.Identical(v.typ, t) {
			fits = append(fits, v.name)
		}
	}
	if len(fits) > 0 && g.rng.Intn(3) == 0 {
		return fits[g.rng.Intn(len(fits))]
	}
	if isContext(t) {
		return g.q.pkg("context", "context") + ".Background()"
	}
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration" {
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
			elems = append(elems, g.value(u.Elem(), nil, depth+1))
		}
		return g.q.typ(t) + "{" + strings.Join(elems, ", ") + "}"
	case *types.Map:
		if g.rng.Intn(2) == 0 {
			return g.q.typ(t) + "{}"
		}
		return g.q.typ(t) + "{" + g.value(u.Key(), nil, depth+1) + ": " + g.value(u.Elem(), nil, depth+1) + "}"
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
			return g.q.fn(fn) + "(" + g.args(fn.Type().(*types.Signature), nil) + ")"
		}
		// A literal with the exported fields of basic types set to small
		// positive values (sizes, counts, capacities).
		base, amp := t, ""
		if p, ok := t.(*types.Pointer); ok {
			base, amp = p.Elem(), "&"
		}
		var fields []string
		if st, ok := base.Underlying().(*types.Struct); ok {
			for i := 0; i < st.NumFields(); i++ {
				f := st.Field(i)
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
}

// reserved are the names the generated file uses itself.
var reserved = map[string]bool{"fmt": true, "sync": true, "testing": true, "strings": true, "v": true, "x": true, "t": true}

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
