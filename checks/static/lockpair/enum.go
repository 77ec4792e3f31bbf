package lockpair

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// enumExhausted reports whether the successor of b taken when c is val
// is dead: c compares a value of a named type with one of the type's
// constants, the edge is the "not equal" one, and the chain of If blocks
// leading to b (a switch's cases, an if-else chain) has already ruled
// out every other constant the type's package declares. The default of
// a switch over every constant of an enum is dead code.
func (pc *passContext) enumExhausted(b *ssa.BasicBlock, c ssa.Value, val bool) bool {
	v, k, ok := notEqualEdge(c, val)
	if !ok {
		return false
	}
	consts := pc.enumConsts(v.Type())
	if len(consts) < 2 {
		return false
	}
	ruled := map[string]bool{k: true}
	for cur := b; ; {
		if len(cur.Preds) != 1 {
			break
		}
		p := cur.Preds[0]
		x, isIf := p.Instrs[len(p.Instrs)-1].(*ssa.If)
		if !isIf {
			break
		}
		pc, neg := stripNot(x.Cond)
		pv, pk, ok := notEqualEdge(pc, (p.Succs[0] == cur) != neg)
		if !ok || pv != v || p.Succs[0] == p.Succs[1] {
			break
		}
		ruled[pk] = true
		cur = p
	}
	for _, s := range consts {
		if !ruled[s] {
			return false
		}
	}
	return true
}

// notEqualEdge reports the value and the constant c compares (v == k or
// v != k), when the edge where c is val is the one where they differ.
func notEqualEdge(c ssa.Value, val bool) (ssa.Value, string, bool) {
	bin, ok := c.(*ssa.BinOp)
	if !ok || (bin.Op != token.EQL && bin.Op != token.NEQ) {
		return nil, "", false
	}
	if (bin.Op == token.EQL) == val {
		return nil, "", false // the edge where they are equal
	}
	v, k := bin.X, bin.Y
	if _, isConst := v.(*ssa.Const); isConst {
		v, k = k, v
	}
	kc, ok := k.(*ssa.Const)
	if !ok || kc.Value == nil {
		return nil, "", false
	}
	if _, isConst := v.(*ssa.Const); isConst {
		return nil, "", false
	}
	return v, kc.Value.ExactString(), true
}

// enumConsts returns the distinct values of the constants of named type
// t declared at package level in t's package, computed once per type (a
// scope's Names sorts them on every call).
func (pc *passContext) enumConsts(t types.Type) []string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.TypeParams().Len() > 0 {
		return nil
	}
	if out, ok := pc.enums[n]; ok {
		return out
	}
	out := scanEnumConsts(n)
	if pc.enums == nil {
		pc.enums = map[*types.Named][]string{}
	}
	pc.enums[n] = out
	return out
}

// scanEnumConsts is enumConsts of n, uncached. An alias of n has the same
// constants: types.Identical sees through aliases.
func scanEnumConsts(n *types.Named) []string {
	t := types.Type(n)
	b, ok := n.Underlying().(*types.Basic)
	if !ok || b.Info()&(types.IsInteger|types.IsString) == 0 {
		return nil
	}
	scope := n.Obj().Pkg().Scope()
	seen := map[string]bool{}
	var out []string
	for _, name := range scope.Names() {
		k, ok := scope.Lookup(name).(*types.Const)
		if !ok || !types.Identical(k.Type(), t) || k.Val().Kind() == constant.Unknown {
			continue
		}
		if s := k.Val().ExactString(); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
