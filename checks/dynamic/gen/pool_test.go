package gen

import (
	"context"
	"go/token"
	"go/types"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// corpusTargets loads the corpus and returns its targets (guarded ones
// too) by name.
func corpusTargets(t *testing.T) (*packages.Package, map[string]*Target) {
	t.Helper()
	pkgs, _, err := load(context.Background(), corpusDir, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*Target{}
	for _, tg := range GuardedTargets(pkgs) {
		out[tg.Name.Name()] = tg
	}
	return pkgs[0], out
}

// bothCall counts the cases both of whose goroutines make the call
// labelled l.
func bothCall(cs []*Case, l string) int {
	n := 0
	for _, c := range cs {
		k := 0
		for _, th := range c.Threads {
			for _, call := range th {
				if call.Label == l {
					k++
					break
				}
			}
		}
		if k == len(c.Threads) {
			n++
		}
	}
	return n
}

// firstCalls counts the cases whose goroutines start with the calls
// labelled a and b.
func firstCalls(cs []*Case, a, b string) int {
	n := 0
	for _, c := range cs {
		if len(c.Threads[0]) > 0 && len(c.Threads[1]) > 0 && c.Threads[0][0].Label == a && c.Threads[1][0].Label == b {
			n++
		}
	}
	return n
}

// A ticket Post returns in the prefix is what both goroutines Take: the
// tickets start above 1000, which no literal hits.
func TestPoolReusesHandles(t *testing.T) {
	pkg, ts := corpusTargets(t)
	g := NewGenerator(pkg.PkgPath, pkg.Name, 1)
	cs := g.Generate(ts["Board"], 36)
	n := bothCall(cs, "Take(p0_0)")
	if n == 0 {
		t.Fatalf("no case of 36 takes the prefix's ticket in both goroutines")
	}
	for _, c := range cs {
		for _, th := range c.Threads {
			for _, call := range th {
				if call.Label == "Take(p0_0)" && (!strings.Contains(call.Body, "v.Take(x[1].(uint64))") || len(c.Env) == 0 || c.Env[0] != "p0_0") {
					t.Errorf("%s: the ticket does not come from the prefix: %q, env %v", c.Name, call.Body, c.Env)
				}
			}
		}
	}
	t.Logf("%d of 36 cases take the prefix's ticket in both goroutines", n)
}

// Keys: the key the prefix voted for comes back in the goroutines' calls
// most of the time (drawn independently, one time in four to two).
func TestPoolReusesKeys(t *testing.T) {
	pkg, ts := corpusTargets(t)
	g := NewGenerator(pkg.PkgPath, pkg.Name, 1)
	keyRE := regexp.MustCompile(`\("([a-z])"\)$`)
	same, all := 0, 0
	for _, c := range g.Generate(ts["Tally"], 60) {
		if len(c.Prefix) == 0 || !strings.HasPrefix(c.Prefix[0], "v.Vote(") {
			continue
		}
		key := c.Prefix[0][len("v.Vote(") : len(c.Prefix[0])-1]
		for _, th := range c.Threads {
			for _, call := range th {
				if m := keyRE.FindStringSubmatch(call.Label); m != nil {
					all++
					if strconv.Quote(m[1]) == key {
						same++
					}
				}
			}
		}
	}
	if all == 0 || same*10 < all*7 {
		t.Errorf("%d of %d keys of the goroutines' calls are the prefix's key, want 70%%", same, all)
	}
	t.Logf("%d of %d keys of the goroutines' calls are the prefix's key", same, all)
}

// Two instances passed to each other: v.Absorb(w) against w.Absorb(v).
func TestPairMirrors(t *testing.T) {
	pkg, ts := corpusTargets(t)
	g := NewGenerator(pkg.PkgPath, pkg.Name, 1)
	cs := g.Generate(ts["Bin"], 36)
	if n := firstCalls(cs, "v.Absorb(w)", "w.Absorb(v)"); n == 0 {
		t.Fatalf("no case of 36 calls v.Absorb(w) against w.Absorb(v)")
	}
	src, err := Render(g, pkg.Name, cs, Concurrent)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "w := x[1].(*corpus.Bin)") || !strings.Contains(string(src), "return []interface{}{v, w") {
		t.Errorf("the prefix does not hand w to the calls:\n%s", src)
	}
}

// Focus: the goroutines start with the methods picked (the changed ones).
func TestFocus(t *testing.T) {
	pkg, ts := corpusTargets(t)
	tally := ts["Tally"]
	if tally == nil || tally.Claim != "" || tally.Guard != "mu sync.Mutex" {
		t.Fatalf("Tally (no claim, a mutex) is no guarded target: %+v", tally)
	}
	if got, want := tally.promise(), "claims nothing in its doc but holds mu sync.Mutex (a lock says it is shared)"; got != want {
		t.Errorf("Tally's promise %q, want %q", got, want)
	}
	if got, want := ts["Board"].promise(), `is documented as "safe for concurrent use"`; got != want {
		t.Errorf("Board's promise %q, want %q", got, want)
	}
	for _, m := range tally.Methods {
		if m.Fn.Name() == "Total" {
			tally.Focus = []Func{m}
		}
	}
	g := NewGenerator(pkg.PkgPath, pkg.Name, 1)
	cs := g.Generate(tally, 36)
	if n := firstCalls(cs, "Total()", "Total()"); n < 36/4 {
		t.Errorf("%d of 36 cases start both goroutines with Total, the focus", n)
	}
}

// A handle the test cannot build (a channel) comes only from the prefix:
// Unsubscribe is called with the channel Subscribe returned, never with
// one made up.
func TestPoolHandleOnlyFromPrefix(t *testing.T) {
	pkg, ts := corpusTargets(t)
	hub := ts["Hub"]
	if hub == nil {
		t.Fatal("Hub, whose Unsubscribe takes the channel Subscribe returns, is no target")
	}
	g := NewGenerator(pkg.PkgPath, pkg.Name, 1)
	n := 0
	for _, c := range g.Generate(hub, 36) {
		for _, th := range c.Threads {
			for _, call := range th {
				if !strings.HasPrefix(call.Label, "Unsubscribe(") {
					continue
				}
				n++
				if !regexp.MustCompile(`v\.Unsubscribe\(x\[\d\]\.\(<-chan string\)\)`).MatchString(call.Body) {
					t.Errorf("%s: Unsubscribe's channel does not come from the prefix: %s", c.Name, call.Body)
				}
			}
		}
	}
	if n == 0 {
		t.Errorf("no case of 36 calls Unsubscribe")
	}
}

// A struct literal sets its exported function fields to functions that
// return zero values, as a test author gives a pool its Constructor
// (puddle's Config: left nil, every Acquire that creates a resource
// panicked, and the generated tests of Pool never made one). Fails
// without it: no Constructor in the literal.
func TestFreshFuncFields(t *testing.T) {
	pkg := types.NewPackage("example.com/pool", "pool")
	ctx := types.NewNamed(types.NewTypeName(token.NoPos, types.NewPackage("context", "context"), "Context", nil), types.NewInterfaceType(nil, nil), nil)
	errT := types.Universe.Lookup("error").Type()
	ctor := types.NewSignatureType(nil, nil, nil,
		types.NewTuple(types.NewVar(token.NoPos, nil, "ctx", ctx)),
		types.NewTuple(types.NewVar(token.NoPos, nil, "", types.Typ[types.Int]), types.NewVar(token.NoPos, nil, "", errT)), false)
	st := types.NewStruct([]*types.Var{
		types.NewField(token.NoPos, pkg, "Constructor", ctor, false),
		types.NewField(token.NoPos, pkg, "MaxSize", types.Typ[types.Int32], false),
		types.NewField(token.NoPos, pkg, "hook", ctor, false),
	}, nil)
	cfg := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "Config", nil), st, nil)
	g := NewGenerator("example.com/other", "other", 1)
	got := g.fresh(types.NewPointer(cfg), 0)
	if !strings.Contains(got, "Constructor: func(_ context.Context) (int, error) { return *new(int), *new(error) }") {
		t.Errorf("literal %s: want Constructor set to a function returning zero values", got)
	}
	if strings.Contains(got, "hook") {
		t.Errorf("literal %s sets an unexported field", got)
	}
}
