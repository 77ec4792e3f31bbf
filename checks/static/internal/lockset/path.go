package lockset

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A Path names a memory location as an access path relative to a root:
// a parameter (receiver included), a free variable of a closure that was
// not inlined, a package-level variable, a local variable, or, when
// nothing better is known, the SSA value itself.
//
// Fields holds the selected field names, each preceded by a dot
// (".inner.mu"); pointer indirections are implicit, as in Go source, so
// s.mu names the same lock whether s is a *T or a captured variable
// holding a *T. Path is comparable: two Paths are equal exactly when they
// name the same location within one analyzed function (and the closures
// inlined into it).
type Path struct {
	Root   ssa.Value
	Fields string
}

// IsZero reports whether p is the zero Path.
func (p Path) IsZero() bool { return p.Root == nil }

// Child returns the path of field name below p.
func (p Path) Child(name string) Path { return Path{p.Root, p.Fields + "." + name} }

// Under reports whether q is strictly below p (p.x, p.x.y, ...).
func (p Path) Under(q Path) bool {
	return p.Root == q.Root && strings.HasPrefix(q.Fields, p.Fields+".")
}

// Canonical reports whether the root is a named entity (parameter, free
// variable, package-level or local variable) rather than an intermediate
// SSA value. Two loads of the same field yield different intermediate
// values, so a non-canonical path can miss that two locations are equal.
func (p Path) Canonical() bool {
	switch r := p.Root.(type) {
	case *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
		return true
	case *ssa.Alloc:
		return r.Comment != ""
	}
	return false
}

// String renders p the way a Go programmer would write it: s.mu,
// pkg.mu, s.inner.mu.
func (p Path) String() string {
	if p.Root == nil {
		return "<nil>"
	}
	return rootName(p.Root) + p.Fields
}

func rootName(v ssa.Value) string {
	switch r := v.(type) {
	case *ssa.Global:
		if r.Pkg != nil {
			return r.Pkg.Pkg.Name() + "." + r.Name()
		}
		return r.Name()
	case *ssa.Alloc:
		if r.Comment != "" {
			return r.Comment
		}
	case *ssa.Function:
		return r.Name()
	}
	return v.Name()
}

// pathOf computes the access path of v, resolving free variables of
// inlined closures through subst.
func pathOf(v ssa.Value, subst map[*ssa.FreeVar]Path) Path {
	fields := ""
	for depth := 0; depth < 32; depth++ {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			fields = "." + fieldName(x.X.Type(), x.Field) + fields
			v = x.X
			continue
		case *ssa.Field:
			fields = "." + fieldName(x.X.Type(), x.Field) + fields
			v = x.X
			continue
		case *ssa.UnOp:
			if x.Op == token.MUL {
				v = x.X
				continue
			}
		case *ssa.ChangeType:
			v = x.X
			continue
		case *ssa.MakeInterface:
			v = x.X
			continue
		case *ssa.ChangeInterface:
			v = x.X
			continue
		case *ssa.FreeVar:
			if p, ok := subst[x]; ok {
				return Path{p.Root, p.Fields + fields}
			}
		case *ssa.Alloc:
			if p := spilledParam(x); p != nil {
				return Path{p, fields}
			}
		}
		break
	}
	return Path{v, fields}
}

// spilledParam returns the parameter that a is the variable of, when a
// parameter captured by a closure is spilled to the heap (new *S (s);
// *t0 = s) and never reassigned.
func spilledParam(a *ssa.Alloc) *ssa.Parameter {
	if a.Comment == "" || a.Referrers() == nil {
		return nil
	}
	var p *ssa.Parameter
	for _, u := range *a.Referrers() {
		st, ok := u.(*ssa.Store)
		if !ok || st.Addr != a {
			continue
		}
		q, ok := st.Val.(*ssa.Parameter)
		if !ok || p != nil || q.Name() != a.Comment {
			return nil
		}
		p = q
	}
	return p
}

// fieldName returns the name of field i of the struct that t (or *t)
// denotes.
func fieldName(t types.Type, i int) string {
	if s, ok := structOf(t); ok && i < s.NumFields() {
		return s.Field(i).Name()
	}
	return "?"
}

// structOf returns the struct type t or *t denotes.
func structOf(t types.Type) (*types.Struct, bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	s, ok := t.Underlying().(*types.Struct)
	return s, ok
}

// FieldOf returns the field selected by a *ssa.FieldAddr or *ssa.Field.
func FieldOf(v ssa.Value) *types.Var {
	switch x := v.(type) {
	case *ssa.FieldAddr:
		if s, ok := structOf(x.X.Type()); ok {
			return s.Field(x.Field)
		}
	case *ssa.Field:
		if s, ok := structOf(x.X.Type()); ok {
			return s.Field(x.Field)
		}
	}
	return nil
}

// PathOf returns the access path of v within its own function (free
// variables are not resolved).
func PathOf(v ssa.Value) Path { return pathOf(v, nil) }

// PathString renders the access path of v, a value of a function analyzed
// on its own.
func PathString(v ssa.Value) string { return pathOf(v, nil).String() }

// FieldVar returns the struct field that the last selection of p names,
// or nil when p selects no field or a type along it is not a struct.
func (p Path) FieldVar() *types.Var {
	if p.Root == nil || p.Fields == "" {
		return nil
	}
	t := p.Root.Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		if _, isGlobal := p.Elem().Underlying().(*types.Pointer); isGlobal {
			t = p.Elem() // a global or local holding a pointer
		}
	}
	var f *types.Var
	for _, name := range strings.Split(p.Fields[1:], ".") {
		s, ok := structOf(t)
		if !ok {
			return nil
		}
		f = fieldNamed(s, name)
		if f == nil {
			return nil
		}
		t = f.Type()
	}
	return f
}

// BlocksReach reports whether target is reachable from the blocks start
// (start included) along control-flow edges.
func BlocksReach(start []*ssa.BasicBlock, target *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := append([]*ssa.BasicBlock(nil), start...)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == target {
			return true
		}
		if seen[b] {
			continue
		}
		seen[b] = true
		stack = append(stack, b.Succs...)
	}
	return false
}
