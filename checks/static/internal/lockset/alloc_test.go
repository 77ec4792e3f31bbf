package lockset_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// TestAllocsPerInstruction checks that scanning a function's instructions
// (Package's call-site scan, Accesses) does not allocate once per
// instruction: on a large package that garbage, allocated while the
// collector marks, counted as live and raised the vet tool's peak.
func TestAllocsPerInstruction(t *testing.T) {
	// allocs returns the allocations of Package and of Accesses for a
	// function of n statements with no lock and no field access.
	allocs := func(n int) (pkgAllocs, accAllocs float64) {
		var b strings.Builder
		b.WriteString("func f(a, c int) int {\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "\ta = a*c + %d\n\tg(a)\n", i)
		}
		b.WriteString("\treturn a\n}\n\nfunc g(int) {}\n")
		pkg := build(t, b.String())
		var funcs []*ssa.Function
		for _, name := range []string{"f", "g"} {
			funcs = append(funcs, pkg.Func(name))
		}
		pkgAllocs = testing.AllocsPerRun(5, func() { lockset.New().Package(funcs, nil) })
		r := lockset.New().Func(pkg.Func("f"), lockset.TopLevel, lockset.State{})
		accAllocs = testing.AllocsPerRun(5, func() { r.Accesses() })
		return pkgAllocs, accAllocs
	}
	p1, a1 := allocs(50)
	p2, a2 := allocs(500)
	// 450 more statements are about 1800 more instructions.
	if p2-p1 > 100 {
		t.Errorf("Package: %.0f allocations for 50 statements, %.0f for 500", p1, p2)
	}
	if a2-a1 > 20 {
		t.Errorf("Accesses: %.0f allocations for 50 statements, %.0f for 500", a1, a2)
	}
}
