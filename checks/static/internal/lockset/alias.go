package lockset

// Two fields that name one lock: n.mount = n.mountPoint.

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// fieldAliases returns the pairs of field names (both orders) that one of
// funcs stores one from the other on the same value (x.a = x.b), when
// both fields have the same type.
func fieldAliases(funcs []*ssa.Function) map[[2]string]bool {
	out := map[[2]string]bool{}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				to, ok1 := st.Addr.(*ssa.FieldAddr)
				ld, ok2 := st.Val.(*ssa.UnOp)
				if !ok1 || !ok2 || ld.Op != token.MUL {
					continue
				}
				from, ok := ld.X.(*ssa.FieldAddr)
				if !ok || to.Field == from.Field || !types.Identical(to.Type(), from.Type()) || pathOf(to.X, nil) != pathOf(from.X, nil) {
					continue
				}
				a, b := fieldName(to.X.Type(), to.Field), fieldName(from.X.Type(), from.Field)
				out[[2]string{a, b}] = true
				out[[2]string{b, a}] = true
			}
		}
	}
	return out
}

// aliased reports whether locks p and q, of one root, differ in exactly
// one field of their paths, and the package assigns one of those two
// fields from the other: for the values where it did, both paths name
// one lock.
func (a *Analysis) aliased(p, q Path) bool {
	if len(a.aliases) == 0 || p.Root != q.Root || p == q {
		return false
	}
	ps, qs := strings.Split(p.Fields, "."), strings.Split(q.Fields, ".")
	if len(ps) != len(qs) {
		return false
	}
	var pair [2]string
	n := 0
	for i := range ps {
		if ps[i] != qs[i] {
			n++
			pair = [2]string{ps[i], qs[i]}
		}
	}
	return n == 1 && a.aliases[pair]
}
