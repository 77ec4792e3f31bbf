package gen

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
)

// syncingTargets returns testdata/syncing's guarded targets by name.
func syncingTargets(t *testing.T) map[string]*Target {
	t.Helper()
	abs, err := filepath.Abs("testdata/syncing")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, _, err := load(context.Background(), abs, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*Target{}
	for _, tg := range GuardedTargets(pkgs) {
		out[tg.Name.Name()] = tg
	}
	return out
}

// TestSyncingMethods: a type that claims nothing but holds a lock or an
// atomic is shared through the methods that use one, in their body or
// through a helper (an embedded Mutex's own Lock and Unlock do not
// count); a type none of whose methods does is no target.
func TestSyncingMethods(t *testing.T) {
	ts := syncingTargets(t)
	want := map[string]string{"Host": "Bump", "Meter": "Add", "Gauge": "Set", "Board": "Add", "Sampler": "Close Count"}
	for name, w := range want {
		tg := ts[name]
		if tg == nil {
			t.Errorf("%s is no guarded target", name)
			continue
		}
		if got := strings.Join(slices.Sorted(maps.Keys(tg.Syncing)), " "); got != w {
			t.Errorf("%s's syncing methods = %q, want %q", name, got, w)
		}
	}
	for _, name := range []string{"Quiet", "Pinned"} {
		if ts[name] != nil {
			t.Errorf("%s, whose lock no method of its own uses, is a target", name)
		}
	}
}

// TestSyncingCases: with the changed SetRemote in focus, every case of
// Host calls Bump (the method that uses its atomic) in a goroutine, and
// SetRemote is still called in most; nebula's HostInfo.CreateRemoteCIDR
// against itself is no case.
func TestSyncingCases(t *testing.T) {
	host := syncingTargets(t)["Host"]
	if host == nil {
		t.Fatal("Host is no guarded target")
	}
	for _, m := range host.Methods {
		if m.Fn.Name() == "SetRemote" {
			host.Focus = append(host.Focus, m)
		}
	}
	g := NewGenerator(host.Pkg.PkgPath, host.Pkg.Name, 1)
	all := append(g.Shapes(host, 60), g.Generate(host, 60)...)
	kept := slices.DeleteFunc(slices.Clone(all), func(c *Case) bool { return !c.syncs() })
	focused := 0
	for _, c := range kept {
		if c.callsFocus() {
			focused++
		}
	}
	if len(kept) < 50 || focused < len(kept)/2 {
		t.Errorf("%d of %d cases call Bump, %d of them the changed SetRemote; want ≥ 50, half", len(kept), len(all), focused)
	}
	for _, c := range all[len(all)-60:] {
		if !c.syncs() {
			t.Errorf("%s: no goroutine calls Bump: %v", c.Name, c.Threads)
		}
	}
}

// TestSharedRace: a race on a type that only holds a lock counts when one
// access is inside a method that uses the lock (Meter's Add against the
// forgetful Reset), not between two that use none (Host's SetRemote
// against itself, nebula's false report).
func TestSharedRace(t *testing.T) {
	ts := syncingTargets(t)
	race := func(a, b string) checks.Finding {
		stack := func(m string) []checks.Frame {
			return []checks.Frame{{Func: m}, {Func: "example.com/syncing.TestInterleaveGen_X_1.func2"}}
		}
		return checks.Finding{Kind: checks.DataRace, Goroutines: []checks.Goroutine{{ID: "g1", Stack: stack(a)}, {ID: "g2", Stack: stack(b)}}}
	}
	for _, c := range []struct {
		typ, a, b string
		want      bool
	}{
		{"Host", "example.com/syncing.(*Host).SetRemote", "example.com/syncing.(*Host).SetRemote", false},
		{"Host", "example.com/syncing.(*Host).Remote", "example.com/syncing.(*Host).SetRemote", false},
		{"Meter", "example.com/syncing.(*Meter).Reset", "example.com/syncing.(*Meter).Add", true},
		{"Meter", "example.com/syncing.(*Meter).Add.func1", "example.com/syncing.(*Meter).Reset", true},
		{"Meter", "example.com/syncing.(*Meter).Reset", "example.com/syncing.(*Meter).Reset", false},
		{"Gauge", "example.com/syncing.(*Gauge).set", "example.com/syncing.(*Gauge).Set", true},
		{"Meter", "example.com/syncing.(*Host).Bump", "example.com/syncing.(*Meter).Reset", false},
	} {
		if ts[c.typ] == nil {
			t.Fatalf("%s is no guarded target", c.typ)
		}
		if got := ts[c.typ].sharedRace(race(c.a, c.b)); got != c.want {
			t.Errorf("%s: race %s ∥ %s counted = %v, want %v", c.typ, c.a, c.b, got, c.want)
		}
	}
}
