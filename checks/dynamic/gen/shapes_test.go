package gen

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// labels renders a case's prefix and goroutines for a message.
func labels(c *Case) string {
	var th []string
	for _, calls := range c.Threads {
		var ls []string
		for _, call := range calls {
			ls = append(ls, call.Label)
		}
		th = append(th, strings.Join(ls, ", "))
	}
	return strings.Join(c.Prefix, "; ") + " | " + strings.Join(th, " || ")
}

// A restart: the prefix starts and stops the value, each goroutine does
// it again on the same value; a fresh value's first calls are concurrent.
// Generate's cases of the same seed do not change.
func TestShapes(t *testing.T) {
	pkg, ts := corpusTargets(t)
	g := NewGenerator(pkg.PkgPath, pkg.Name, 1)
	cs := g.Shapes(ts["Pump"], 36)
	if len(cs) == 0 || cs[0].Name != "TestInterleaveGen_Pump_36" {
		t.Fatalf("no restart case of Pump named after the 36 generated: %v", cs)
	}
	if got, want := labels(cs[0]), "v.Open(); v.Close() | Open(), Close() || Open(), Close()"; got != want {
		t.Errorf("restart case %q, want %q", got, want)
	}
	fresh := g.Shapes(ts["LazyTally"], 0)
	if len(fresh) != 2 {
		t.Fatalf("%d cases of LazyTally, want the two fresh ones", len(fresh))
	}
	for _, c := range fresh {
		if len(c.Prefix) != 0 || len(c.Threads) != 2 {
			t.Errorf("fresh case %q: want no prefix, two goroutines", labels(c))
		}
	}
	if l := fresh[0].Threads[0][0].Label; !strings.HasPrefix(l, "Add(") {
		t.Errorf("the first fresh case starts with %s, want Add (the method that returns nothing)", l)
	}
	if a, b := fresh[0].Threads[0][0].Label, fresh[0].Threads[1][0].Label; a != b {
		t.Errorf("the first fresh case calls %s and %s, want the same call twice", a, b)
	}
	// The shapes draw from their own stream.
	before := NewGenerator(pkg.PkgPath, pkg.Name, 1).Generate(ts["Pump"], 5)
	g2 := NewGenerator(pkg.PkgPath, pkg.Name, 1)
	g2.Shapes(ts["Pump"], 5)
	after := g2.Generate(ts["Pump"], 5)
	for i := range before {
		if labels(before[i]) != labels(after[i]) {
			t.Errorf("case %d changed with the shapes drawn first: %q, then %q", i, labels(before[i]), labels(after[i]))
		}
	}
}

// The restart and the fresh first use find their kernels (Pump's two
// loops after a restart, LazyTally's map made by two first Adds), each
// replayed from the pasted file; their correct twins stay silent.
func TestCorpusShapes(t *testing.T) {
	searchShared(t, "Shapes")
}

// A restart starts and stops by the lifecycle's own verbs: Crontab's
// StartAsync and Stop, not RunAll or RunByTag, which sort first by name
// (as gocron's Scheduler, whose three restarts were RunAll, RunAllWithDelay
// and RunByTag with Stop).
func TestLifecyclePairs(t *testing.T) {
	pkgs, _, err := load(context.Background(), "testdata/onbase/head", []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	var ct *Target
	for _, tg := range Targets(pkgs) {
		if tg.Name.Name() == "Crontab" {
			ct = tg
		}
	}
	if ct == nil {
		t.Fatal("Crontab is not a target")
	}
	for _, m := range ct.Methods {
		if m.Fn.Name() == "Fatal" {
			t.Error("Fatal, which ends the process, is among the methods generated tests call")
		}
	}
	var got []string
	for _, p := range lifecyclePairs(ct) {
		got = append(got, p[0].Fn.Name()+"/"+p[1].Fn.Name())
	}
	if want := []string{"StartAsync/Stop", "StartAt/Stop", "RunAll/Stop"}; !slices.Equal(got, want) {
		t.Errorf("restart pairs %v, want %v", got, want)
	}
}

// A case that starts the value stops it last: PumpOK's cases that call
// Open end with Close (its counterpart), those that never call Open end
// with nothing, and the rendered file has the stop. Without stops
// PumpOK's tests that leave the pump open leak its loop on every
// schedule (TestCorpusShapes: the correct types' tests fail on no
// schedule).
func TestStops(t *testing.T) {
	pkg, ts := corpusTargets(t)
	g := NewGenerator(pkg.PkgPath, pkg.Name, 1)
	tg := ts["PumpOK"]
	cs := append(g.Shapes(tg, 18), g.Generate(tg, 18)...)
	opened := 0
	for _, c := range cs {
		var got []string
		for _, s := range stops(c) {
			got = append(got, s.Label)
		}
		want := []string(nil)
		if strings.Contains(labels(c), "Open()") {
			want = []string{"Close()"}
			opened++
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s (%s): stops %v, want %v", c.Name, labels(c), got, want)
		}
	}
	if opened == 0 || opened == len(cs) {
		t.Fatalf("%d of %d PumpOK cases call Open: want some of each", opened, len(cs))
	}
	c := cs[0]
	c.Stops = stops(c)
	src, err := Render(g, pkg.Name, []*Case{c}, Concurrent)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "stop: []genCall{\n\t\t\t{\"Close()\"") {
		t.Errorf("%s: no Close() to stop with in\n%s", c.Name, src)
	}
}
