package gen

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestAccessPairsFirst: a candidate's two sides (Options.Sides) are
// called against each other on one value, among the first PerType cases,
// for every seed tried: Pool.Add (its unguarded lookup of p.all) ∥ Clear
// (which replaces p.all under p.mu), and Chain's exported Process ∥ AddHook
// (Process reaches the unexported process). Both methods count as
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
	sides := map[string][2]Method{"Pool": {{"Pool", "Add"}, {"Pool", "Clear"}}, "Chain": {{"Chain", "process"}, {"Chain", "AddHook"}}}
	for seed := int64(1); seed <= 5; seed++ {
		for _, tg := range GuardedTargets(pkgs) {
			want, ok := pairs[tg.Name.Name()]
			if !ok {
				continue
			}
			resolveSides(tg.Pkg, [][2]Method{sides[tg.Name.Name()], {{tg.Name.Name(), "Nope"}, {tg.Name.Name(), want[0]}}}).setPairs(tg)
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

// TestOwnersReachSides: a candidate in a method of an unexported type is
// tested through the exported types that hold a value of it and whose
// exported methods reach both its sides, though the change touched none
// of them: Client (embeds hookChain) pairs Do, which reaches the unguarded
// hookChain.process, with the promoted AddHook; Group (holds its workers
// in a map) pairs ExitIdle, which reaches worker.exitIdle, with Connect;
// SafeClient (embeds the mirror's safeChain) is tested the same way, and
// its test stays silent (TestOwnedRace). Router reaches hookChain's
// methods but holds none: not a target. Of hookChain's three owners
// (Proxy and Relay in more.go) two are tested, Client, declared next to
// it, one of them. Each pair is among the first PerType cases. Fails
// without owners: no target at all; and without the held type's file
// first: Proxy and Relay, not Client.
func TestOwnersReachSides(t *testing.T) {
	dir, err := filepath.Abs("testdata/owned")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, root, err := load(context.Background(), dir, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	sides := [][2]Method{
		{{"hookChain", "process"}, {"hookChain", "AddHook"}},
		{{"worker", "exitIdle"}, {"Group", "Connect"}},
		{{"safeChain", "process"}, {"safeChain", "AddHook"}},
	}
	ts := addSides(pkgs, nil, func(*packages.Package) [][2]Method { return sides })
	want := map[string][2]string{"Client": {"Do", "AddHook"}, "Group": {"ExitIdle", "Connect"}, "SafeClient": {"Do", "AddHook"},
		"Proxy": {"Forward", "AddHook"}, "Relay": {"Send", "Hook"}}
	var got []string
	for _, tg := range ts {
		got = append(got, tg.Name.Name()+" owns "+tg.Owns)
		w, ok := want[tg.Name.Name()]
		if !ok {
			t.Errorf("%s is a target: it holds no value of the candidates' types", tg.Name.Name())
			continue
		}
		if len(tg.Pairs) == 0 || tg.Pairs[0][0].Fn.Name() != w[0] || tg.Pairs[0][1].Fn.Name() != w[1] {
			t.Errorf("%s: first pair %v, want %s ∥ %s", tg.Name.Name(), tg.Pairs, w[0], w[1])
			continue
		}
		r := &run{opts: Options{PerType: DefaultPerType, Seed: 1}, targets: []*Target{tg}, modRoot: root, copyRoot: t.TempDir()}
		if err := r.generate(); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, c := range r.works[0].cases[:DefaultPerType] {
			if len(c.Threads) == 2 && len(c.Threads[0]) == 1 && len(c.Threads[1]) == 1 &&
				strings.HasPrefix(c.Threads[0][0].Label, w[0]+"(") && strings.HasPrefix(c.Threads[1][0].Label, w[1]+"(") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no %s ∥ %s among the first %d cases", tg.Name.Name(), w[0], w[1], DefaultPerType)
		}
	}
	if len(ts) != 4 || !slices.Contains(got, "Client owns hookChain") {
		t.Errorf("targets %v, want Client, Group, SafeClient and one of Proxy and Relay", got)
	}
}
