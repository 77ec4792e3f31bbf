package lockpair

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"testing"
)

// TestEnumConstsOnce: a type's constants are read from its package's
// scope once per pass (Scope.Names sorts every name on each call, which
// made lockpair's branch pruning the largest cost on a large package).
func TestEnumConstsOnce(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	e := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "E", nil), types.Typ[types.Int], nil)
	pkg.Scope().Insert(e.Obj())
	add := func(name string, v int64) {
		pkg.Scope().Insert(types.NewConst(token.NoPos, pkg, name, e, constant.MakeInt64(v)))
	}
	add("A", 1)
	add("B", 2)
	pc := &passContext{}
	if got := pc.enumConsts(e); !slices.Equal(got, []string{"1", "2"}) {
		t.Fatalf("enumConsts = %q, want [1 2]", got)
	}
	add("C", 3) // not seen: the first answer is kept
	alias := types.NewAlias(types.NewTypeName(token.NoPos, pkg, "F", nil), e)
	for _, typ := range []types.Type{e, alias} {
		if got := pc.enumConsts(typ); !slices.Equal(got, []string{"1", "2"}) {
			t.Errorf("enumConsts(%v) again = %q, want the cached [1 2]", typ, got)
		}
	}
	if got := scanEnumConsts(e); !slices.Equal(got, []string{"1", "2", "3"}) {
		t.Errorf("scanEnumConsts = %q, want [1 2 3]", got)
	}
}
