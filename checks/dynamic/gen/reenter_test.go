package gen

import (
	"context"
	"strings"
	"testing"
)

// reenterTargets loads the re-entry kernels' head (testdata/reenter).
func reenterTargets(t *testing.T, dir string) map[string]*Target {
	t.Helper()
	pkgs, _, err := load(context.Background(), dir, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	ts := map[string]*Target{}
	for _, tg := range GuardedTargets(pkgs) {
		ts[tg.Name.Name()] = tg
	}
	return ts
}

// reentryShapes are the re-entry cases among tg's Shapes.
func reentryShapes(g *Generator, tg *Target) []*Case {
	var out []*Case
	for _, c := range g.Shapes(tg, 0) {
		if strings.Contains(strings.Join(c.Prefix, "\n"), "genIn.CompareAndSwap") {
			out = append(out, c)
		}
	}
	return out
}

// Bus runs its handlers (an interface) and Ledger its change function
// with the lock held: each gets a case whose prefix hands it a callback
// that calls back the method that takes the lock, and whose goroutines
// call the methods that run the callback. Feed (which unlocks first) gets
// one too, and passes it; Board, whose Subscribe says handlers must not
// call it, gets none.
func TestReentries(t *testing.T) {
	ts := reenterTargets(t, "testdata/reenter/head")
	for _, tc := range []struct {
		typ, register, back, trigger string
	}{
		{"Bus", "v.Subscribe(genImplHandler{", "v.Topics()", "Publish("},
		{"Ledger", "v.OnChange(func(", "v.Len()", "Put("},
		{"Feed", "v.Subscribe(genImplHandler{", "v.Topics()", "Publish("},
	} {
		tg := ts[tc.typ]
		if tg == nil {
			t.Fatalf("%s is not a target", tc.typ)
		}
		g := NewGenerator(tg.Pkg.PkgPath, tg.Pkg.Name, 1)
		cs := reentryShapes(g, tg)
		if len(cs) != 1 {
			t.Fatalf("%s: %d re-entry cases, want 1", tc.typ, len(cs))
		}
		c := cs[0]
		prefix := strings.Join(c.Prefix, "\n")
		if !strings.Contains(prefix, tc.register) || !strings.Contains(prefix, tc.back) {
			t.Errorf("%s: prefix %q does not register a callback that calls %s", tc.typ, prefix, tc.back)
		}
		for _, th := range c.Threads {
			for _, call := range th {
				if !strings.HasPrefix(call.Label, tc.trigger) {
					t.Errorf("%s: a goroutine calls %s, want only %s (the method that runs the callback)", tc.typ, call.Label, tc.trigger)
				}
			}
		}
		src, err := Render(g, tg.Pkg.Name, cs, Concurrent)
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.typ, err, src)
		}
		if tc.typ == "Bus" && !strings.Contains(string(src), "func (h genImplHandler) Handle(p0 string) { h.fHandle(p0) }") {
			t.Errorf("Bus: the generated file does not implement Handler:\n%s", src)
		}
	}
	if cs := reentryShapes(NewGenerator("example.com/bus", "bus", 1), ts["Board"]); len(cs) != 0 {
		t.Errorf("Board documents that handlers must not call it, got %d re-entry cases: %s", len(cs), labels(cs[0]))
	}
}

// A change that makes a method of another type take a target's lock
// selects the target (logrus v1.5.0's Entry.WithFields takes the
// Logger's mu): Bus.Topics' Lock line, changed, locks Bus; Feed's lines
// lock Feed.
func TestLockedOn(t *testing.T) {
	ts := reenterTargets(t, "testdata/reenter/head")
	topics := func(file string, line int) bool { return strings.HasSuffix(file, "bus.go") && line == 44 }
	if !ts["Bus"].LockedOn(topics) {
		t.Error("Bus: the changed line bus.go:44 (b.mu.Lock() in Topics) does not lock it")
	}
	if ts["Feed"].LockedOn(topics) || ts["Ledger"].LockedOn(topics) {
		t.Error("Feed or Ledger is locked by bus.go:44, which locks Bus")
	}
}
