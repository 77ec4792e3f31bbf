package gen

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// TestPairsChangedFirst: in a pull request gen pairs the changed method
// with the others on a fresh value, and the cases that call it come first
// (the first PerType that pass sequentially are searched). The kernel's
// race is the first Fill (changed) against Room, an observer, on a fresh
// Bin (puddle v2.1.0's: Acquire's constructor against Stat). For every
// seed tried, one of the first PerType cases is that pair, and the cases
// that call Fill come first. Fails without focusPairs and focusFirst.
func TestPairsChangedFirst(t *testing.T) {
	dir, err := filepath.Abs("testdata/pairs")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, root, err := load(context.Background(), dir, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	for seed := int64(1); seed <= 5; seed++ {
		var bin *Target
		for _, tg := range Targets(pkgs) {
			if tg.Name.Name() == "Bin" {
				bin = tg
			}
		}
		if bin == nil {
			t.Fatal("Bin is not a target")
		}
		for _, m := range bin.Methods {
			if m.Fn.Name() == "Fill" {
				bin.Focus = append(bin.Focus, m)
			}
		}
		r := &run{opts: Options{PerType: DefaultPerType, Seed: seed}, targets: []*Target{bin}, modRoot: root, copyRoot: t.TempDir()}
		if err := r.generate(); err != nil {
			t.Fatal(err)
		}
		first := r.works[0].cases[:DefaultPerType]
		found := false
		for _, c := range first {
			if len(c.Prefix) == 0 && len(c.Threads) == 2 && len(c.Threads[0]) == 1 && len(c.Threads[1]) == 1 &&
				strings.HasPrefix(c.Threads[0][0].Label, "Fill(") && c.Threads[1][0].Label == "Room()" {
				found = true
			}
		}
		if !found {
			var ls []string
			for _, c := range first {
				ls = append(ls, labels(c))
			}
			t.Errorf("seed %d: no Fill ∥ Room on a fresh Bin among the first %d cases:\n%s", seed, DefaultPerType, strings.Join(ls, "\n"))
		}
		for i, c := range r.works[0].cases[1:] {
			if c.callsFocus() && !r.works[0].cases[i].callsFocus() {
				t.Errorf("seed %d: %s calls Fill after %s, which does not", seed, c.Name, r.works[0].cases[i].Name)
				break
			}
		}
	}
}

// TestFocusPairsOnce: when both methods of a pair changed, the pair is one
// case, not one each way round (puddle v2.1.0 changed every method of
// Pool: its four pairs were Acquire ∥ AcquireAllIdle, the same again the
// other way, Close ∥ Acquire and CreateResource ∥ Acquire). Fails without
// focusPairs' seen: Count ∥ Room and Room ∥ Count.
func TestFocusPairsOnce(t *testing.T) {
	pkgs, _, err := load(context.Background(), "testdata/pairs", []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range Targets(pkgs) {
		if tg.Name.Name() != "Bin" {
			continue
		}
		for _, m := range tg.Methods { // two observers changed: each the other's first partner
			if m.Fn.Name() == "Count" || m.Fn.Name() == "Room" {
				tg.Focus = append(tg.Focus, m)
			}
		}
		seen := map[string]bool{}
		ps := focusPairs(tg)
		for _, p := range ps {
			a, b := p[0].Fn.Name(), p[1].Fn.Name()
			if seen[b+"|"+a] {
				t.Errorf("%s ∥ %s and %s ∥ %s both: %d pairs", a, b, b, a, len(ps))
			}
			seen[a+"|"+b] = true
		}
		if len(ps) != maxPairs {
			t.Errorf("%d pairs, want %d", len(ps), maxPairs)
		}
	}
}

// TestDerivedUsesFirst: when the changed method derives the value (a
// pull request that adds zap's WithLazy), the first PerType cases work on
// a fresh value it returned and make two first uses of it, neither the
// deriver again: the corpus's Journal.Lazy tags its sink on the first Log
// while Enabled and Len read it without the Once. For every seed tried,
// such a case is among the first PerType, and every case that derives
// with Lazy counts as calling the change (focusFirst). Fails without
// derivedUses and Case.Derived: the goroutines called Lazy again on it,
// and the cases that did not came after the PerType searched.
func TestDerivedUsesFirst(t *testing.T) {
	pkgs, root, err := load(context.Background(), corpusDir, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	for seed := int64(1); seed <= 5; seed++ {
		var j *Target
		for _, tg := range Targets(pkgs) {
			if tg.Name.Name() == "Journal" {
				j = tg
			}
		}
		if j == nil {
			t.Fatal("Journal is not a target")
		}
		for _, m := range j.Methods {
			if m.Fn.Name() == "Lazy" {
				j.Focus = append(j.Focus, m)
			}
		}
		r := &run{opts: Options{PerType: DefaultPerType, Seed: seed}, targets: []*Target{j}, modRoot: root, copyRoot: t.TempDir()}
		if err := r.generate(); err != nil {
			t.Fatal(err)
		}
		cases := r.works[0].cases
		found := false
		for _, c := range cases[:DefaultPerType] {
			if strings.Contains(strings.Join(c.Build, "\n"), "v := v0.Lazy(") && len(c.Prefix) == 0 && len(c.Threads) == 2 &&
				c.Threads[0][0].Method != c.Threads[1][0].Method &&
				c.Threads[0][0].Method != "Lazy" && c.Threads[1][0].Method != "Lazy" {
				found = true
			}
		}
		if !found {
			var ls []string
			for _, c := range cases[:DefaultPerType] {
				ls = append(ls, strings.Join(c.Build, "; ")+" | "+labels(c))
			}
			t.Errorf("seed %d: no two first uses of a fresh Lazy journal among the first %d cases:\n%s", seed, DefaultPerType, strings.Join(ls, "\n"))
		}
		for i, c := range cases {
			if strings.Contains(strings.Join(c.Build, "\n"), "v0.Lazy(") && !c.callsFocus() {
				t.Errorf("seed %d: %s works on what Lazy returned but does not count as calling it", seed, c.Name)
			}
			if i > 0 && c.callsFocus() && !cases[i-1].callsFocus() {
				t.Errorf("seed %d: %s calls Lazy after %s, which does not", seed, c.Name, cases[i-1].Name)
			}
		}
	}
}

// TestPairsReaderFirst: a changed method's first partners are the readers
// of the state, also one whose result is a pointer (puddle v2.1.0's Stat
// against Acquire, whose constructor goroutine writes the new resource's
// status outside the lock Stat takes), but not a fluent setter that
// returns the type (gocron's Second). Fails with the observers alone
// ranked first (Stats sorts after Clear and Drop, past the fourth pair)
// and with every method that takes nothing and returns something a
// reader (Fill ∥ Sealed).
func TestPairsReaderFirst(t *testing.T) {
	pkgs, _, err := load(context.Background(), "testdata/pairs", []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range Targets(pkgs) {
		if tg.Name.Name() != "Bin" {
			continue
		}
		for _, m := range tg.Methods {
			if m.Fn.Name() == "Fill" {
				tg.Focus = append(tg.Focus, m)
			}
		}
		var got []string
		for _, p := range focusPairs(tg) {
			got = append(got, p[0].Fn.Name()+" ∥ "+p[1].Fn.Name())
		}
		if !slices.Contains(got, "Fill ∥ Stats") {
			t.Errorf("pairs %q, want Fill ∥ Stats among them", got)
		}
		if slices.Contains(got, "Fill ∥ Sealed") {
			t.Errorf("pairs %q: Sealed returns its *Bin, a setter, not a reader", got)
		}
	}
}

// TestRaceOneCause: two generated tests that race on the same two lines,
// reported either way round (zap v1.26.0: "read at logger.go:330 …
// previous write at lazy_with.go:42" and "write at lazy_with.go:42 …
// previous read at logger.go:330"), are one finding, the smaller test's;
// a race on another line is another. Fails with the reported access
// alone as the key: three findings.
func TestRaceOneCause(t *testing.T) {
	tg := &Target{}
	small := &Case{Target: tg, Name: "TestInterleaveGen_L_1", Threads: [][]Call{{{}}, {{}}}}
	big := &Case{Target: tg, Name: "TestInterleaveGen_L_2", Threads: [][]Call{{{}, {}}, {{}, {}}}}
	race := func(test, file string, line int, rfile string, rline int) checks.Finding {
		return checks.Finding{Kind: checks.DataRace, Package: "p", Test: test, Pos: checks.Position{File: file, Line: line},
			Related: []checks.Related{{Position: checks.Position{File: rfile, Line: rline}}}}
	}
	r := &run{res: &Result{}, works: []*pkgWork{{kept: []*Case{small, big}, pkg: &packages.Package{PkgPath: "p"}}}}
	er := &explore.Result{Findings: []checks.Finding{
		race(big.Name, "logger.go", 330, "lazy_with.go", 42),
		race(small.Name, "lazy_with.go", 42, "logger.go", 330),
		race(small.Name, "logger.go", 302, "lazy_with.go", 42),
	}}
	if err := r.pickFindings(er); err != nil {
		t.Fatal(err)
	}
	if len(r.order) != 2 {
		t.Fatalf("%d findings, want 2: %v", len(r.order), r.order)
	}
	if f := r.best[r.order[0]]; f.Test != small.Name {
		t.Errorf("the race on lines 42 and 330 is kept from %s, want the smaller %s", f.Test, small.Name)
	}
}
