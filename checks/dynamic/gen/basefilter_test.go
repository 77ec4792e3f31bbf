package gen

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// TestBaseCheckPicks: only the findings Options.BaseCheck picks are
// checked on the base commit (the pull-request job's, in its change); the
// others get no verdict and no build there. The package is new (absent
// on the base), so the check decides without building anything.
func TestBaseCheckPicks(t *testing.T) {
	tmp := t.TempDir()
	pkg := &packages.Package{PkgPath: "example.com/m/fresh", Name: "fresh"}
	in, out := findingKey{&Target{}, checks.DataRace, "a.go:3"}, findingKey{&Target{}, checks.DataRace, "b.go:7"}
	var stages []string
	r := &run{
		opts: Options{
			BaseDir:   filepath.Join(tmp, "base"),
			BaseCheck: func(f *checks.Finding) bool { return f.Pos.File == "a.go" },
			Stage: func(ev explore.StageEvent) {
				if !ev.Done {
					stages = append(stages, ev.Name)
				}
			},
		},
		copyRoot: filepath.Join(tmp, "copy"),
		works:    []*pkgWork{{pkg: pkg, dir: filepath.Join(tmp, "copy", "fresh")}},
		order:    []findingKey{in, out},
		best: map[findingKey]checks.Finding{
			in:  {Kind: checks.DataRace, Package: pkg.PkgPath, Test: "TestInterleaveGen_T_1", Pos: checks.Position{File: "a.go", Line: 3}},
			out: {Kind: checks.DataRace, Package: pkg.PkgPath, Test: "TestInterleaveGen_T_2", Pos: checks.Position{File: "b.go", Line: 7}},
		},
	}
	r.checkBase(context.Background())
	if len(r.base) != 1 {
		t.Errorf("%d finding(s) checked on the base, want 1: %+v", len(r.base), r.base)
	}
	if v, ok := r.base[in]; !ok || v.onBase || !strings.Contains(v.how, "no package") {
		t.Errorf("the picked finding: %+v (checked %v), want a new package's verdict", v, ok)
	}
	if _, ok := r.base[out]; ok {
		t.Errorf("the finding BaseCheck leaves out was checked on the base")
	}
	if len(stages) != 1 || !strings.HasPrefix(stages[0], "checking 1 finding(s)") {
		t.Errorf("stages %q, want one that checks 1 finding", stages)
	}
}
