// The per-test pool: the values a case used before (the prefix's results,
// the literals drawn), which later calls reuse as a test author would.

package gen

import (
	"fmt"
	"go/types"
	"slices"
)

// other stands for the other instance in a call's arguments until the
// receiver is chosen (callTmpl.render).
const other = "\x00other"

// caseState is what the calls of one case draw from.
type caseState struct {
	t        *Target
	two      bool // w is built
	inPrefix bool // drawing for the prefix, which names its results
	vars     []poolVar
	lits     []litVal
	// env are the names the prefix returns after v.
	env []string
}

// poolVar is a result of the prefix; slot is its index in the slice the
// prefix returns (-1 when it is not returned: its type cannot be written
// in the test, or it is an error).
type poolVar struct {
	name string
	typ  types.Type
	slot int
}

// litVal is a literal drawn for a parameter of a basic type of class.
type litVal struct {
	expr, class string
}

// reuseOdds: a value that fits is reused 3 times in 4.
const reuseOdds = 4

// keep adds a result of the prefix to the pool, returned to the calls
// when its type can be written in the test.
func (cs *caseState) keep(name string, t types.Type) {
	slot := -1
	if writable(t) && !isError(t) {
		cs.env = append(cs.env, name)
		slot = len(cs.env) // env[0] is v
	}
	cs.vars = append(cs.vars, poolVar{name, t, slot})
}

// reuse picks a value of type t the case used before, most of the time
// when there is one: a result of the prefix of that type (the handle an
// Add returned), else a literal drawn earlier for the same basic class
// (the key a Put used).
func (g *Generator) reuse(t types.Type, cs *caseState) (code, label string, ok bool) {
	var fits []poolVar
	for _, v := range cs.vars {
		if types.Identical(v.typ, t) && (cs.inPrefix || v.slot >= 0) {
			fits = append(fits, v)
		}
	}
	// A handle the test cannot make is always reused.
	if len(fits) > 0 && (g.rng.Intn(reuseOdds) > 0 || !generatable(t, 0)) {
		v := fits[g.rng.Intn(len(fits))]
		if cs.inPrefix {
			return v.name, v.name, true
		}
		return fmt.Sprintf("x[%d].(%s)", v.slot, g.q.typ(v.typ)), v.name, true
	}
	u, isBasic := t.Underlying().(*types.Basic)
	if !isBasic || isContext(t) {
		return "", "", false
	}
	var lits []string
	for _, l := range cs.lits {
		if l.class == litClass(u) {
			lits = append(lits, l.expr)
		}
	}
	if len(lits) > 0 && g.rng.Intn(reuseOdds) > 0 {
		l := lits[g.rng.Intn(len(lits))]
		return l, l, true
	}
	return "", "", false
}

// litClass groups the basic types whose literals basic draws alike: an
// untyped literal of one is assignable to all of its class.
func litClass(u *types.Basic) string {
	switch info := u.Info(); {
	case info&types.IsBoolean != 0:
		return "bool"
	case info&types.IsString != 0:
		return "string"
	case info&types.IsFloat != 0:
		return "float"
	case info&types.IsUnsigned != 0:
		return "uint"
	}
	return "int"
}

// consumers are the methods of the target that take a result of the
// prefix that the calls can read.
func (cs *caseState) consumers() []Func {
	var out []Func
	for _, m := range cs.t.Methods {
	params:
		for k := 0; k < m.Sig.Params().Len(); k++ {
			for _, v := range cs.vars {
				if v.slot >= 0 && types.Identical(v.typ, m.Sig.Params().At(k).Type()) {
					out = append(out, m)
					break params
				}
			}
		}
	}
	return out
}

// callable reports whether the arguments of m can be drawn now: each is
// generated, the other instance, or a handle the pool holds.
func (cs *caseState) callable(m Func) bool {
	for k := 0; k < m.Sig.Params().Len(); k++ {
		pt := m.Sig.Params().At(k).Type()
		if generatable(pt, 0) || cs.two && cs.t.isSelf(pt) {
			continue
		}
		if !slices.ContainsFunc(cs.vars, func(v poolVar) bool {
			return types.Identical(v.typ, pt) && (cs.inPrefix || v.slot >= 0)
		}) {
			return false
		}
	}
	return true
}

// pick returns m when it is callable, else one of ms that is; false when
// none is.
func (g *Generator) pick(m Func, ms []Func, cs *caseState) (Func, bool) {
	if cs.callable(m) {
		return m, true
	}
	var ok []Func
	for _, c := range ms {
		if cs.callable(c) {
			ok = append(ok, c)
		}
	}
	if len(ok) == 0 {
		return m, false
	}
	return ok[g.rng.Intn(len(ok))], true
}
