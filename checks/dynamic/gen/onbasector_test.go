package gen

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestOnBaseNewConstructor: of two cases that failed sequentially on the
// head, the one built by the constructor the change added (NewOpen) does
// not compile on the base; the other is still run there, passes and is
// marked OnBase, and a note names the one left out. Before, the file of
// both did not compile, and neither was compared.
func TestOnBaseNewConstructor(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on the base commit")
	}
	ctx := context.Background()
	head, base := copyHeadBase(t, "testdata/onbasector")
	pkgs, _, err := load(ctx, head, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	ts := Targets(pkgs)
	if len(ts) != 1 {
		t.Fatalf("targets %v, want Valve", ts)
	}
	tg := ts[0]
	ctor := func(name string) int {
		i := slices.IndexFunc(tg.Ctors, func(f Func) bool { return f.Fn.Name() == name })
		if i < 0 {
			t.Fatalf("no constructor %s", name)
		}
		return i
	}
	g := NewGenerator(pkgs[0].PkgPath, pkgs[0].Name, 1)
	cs := g.Generate(tg, 2)
	cs[0].Build = g.buildBy(tg, ctor("New"), "v", "x")
	cs[1].Build = g.buildBy(tg, ctor("NewOpen"), "v", "x")
	w := &pkgWork{pkg: pkgs[0], gen: g, cases: cs, dir: head}
	status := map[string]string{}
	for _, c := range cs {
		status[pkgs[0].PkgPath+"."+c.Name] = "fail"
	}
	var built time.Duration
	notes, err := onBase(ctx, head, base, []*pkgWork{w}, status, nil, time.Now().Add(10*time.Minute), &built)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("notes: %q", notes)
	if !cs[0].OnBase {
		t.Errorf("%s (built by New) was not run on the base commit, or failed there", cs[0].Name)
	}
	if cs[1].OnBase {
		t.Errorf("%s (built by NewOpen, which the base lacks) is marked as passing there", cs[1].Name)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], cs[1].Name) || !strings.Contains(notes[0], "do not compile on the base commit") {
		t.Errorf("notes %q, want one naming %s as not compiling on the base", notes, cs[1].Name)
	}
	if _, err := os.Stat(filepath.Join(base, FileName)); !os.IsNotExist(err) {
		t.Errorf("the generated file is left on the base commit (%v)", err)
	}
}
