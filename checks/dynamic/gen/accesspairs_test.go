package gen

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestAccessPairsFirst: a candidate's two sides (Options.AccessPairs) are
// called against each other on one value, among the first PerType cases,
// for every seed tried: Pool.Add (its unguarded lookup of p.all) ∥ Clear
// (which replaces p.all under p.mu), and Chain's exported Process ∥ AddHook
// (the pair prjob maps the unexported process to). Both methods count as
// focused. Fails without accessPairs: the focused methods' partners are
// the four readers, so neither pair is a case of its own.
func TestAccessPairsFirst(t *testing.T) {
	dir, err := filepath.Abs("testdata/accesspairs")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, root, err := load(context.Background(), dir, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	pairs := map[string][2]string{"Pool": {"Add", "Clear"}, "Chain": {"Process", "AddHook"}}
	for seed := int64(1); seed <= 5; seed++ {
		for _, tg := range GuardedTargets(pkgs) {
			want, ok := pairs[tg.Name.Name()]
			if !ok {
				continue
			}
			setPairs(tg, func(*Target) [][2]string { return [][2]string{want, {"Nope", want[0]}} })
			if len(tg.Pairs) != 1 || len(tg.Focus) != 2 {
				t.Fatalf("%s: pairs %d, focus %d; want the one pair of methods it has, both focused", tg.Name.Name(), len(tg.Pairs), len(tg.Focus))
			}
			r := &run{opts: Options{PerType: DefaultPerType, Seed: seed}, targets: []*Target{tg}, modRoot: root, copyRoot: t.TempDir()}
			if err := r.generate(); err != nil {
				t.Fatal(err)
			}
			first := r.works[0].cases[:DefaultPerType]
			found := false
			var ls []string
			for _, c := range first {
				ls = append(ls, labels(c))
				if len(c.Prefix) == 0 && len(c.Threads) == 2 && len(c.Threads[0]) == 1 && len(c.Threads[1]) == 1 &&
					strings.HasPrefix(c.Threads[0][0].Label, want[0]+"(") && strings.HasPrefix(c.Threads[1][0].Label, want[1]+"(") {
					found = true
				}
			}
			if !found {
				t.Errorf("seed %d: no %s ∥ %s on a fresh %s among the first %d cases:\n%s", seed, want[0], want[1], tg.Name.Name(), DefaultPerType, strings.Join(ls, "\n"))
			}
			tg.Pairs, tg.Focus = nil, nil
		}
	}
}
