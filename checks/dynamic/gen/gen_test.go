package gen

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// corpusDir is the nested module of types that claim thread safety.
const corpusDir = "testdata/corpus"

// The corpus: broken types must each be found, correct ones never.
var (
	brokenTypes  = []string{"Balance", "Batch", "Bin", "Board", "Feed", "Hits", "LazyTally", "Labels", "Pump", "Registry", "SortedInts", "UnsyncMap"}
	correctTypes = []string{"Crate", "Desk", "Gauge", "Hub", "LazyTallyOK", "List", "PumpOK", "SafeMap", "Set", "Stream"}
)

func TestTargets(t *testing.T) {
	pkgs, _, err := load(context.Background(), corpusDir, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tg := range Targets(pkgs) {
		got = append(got, tg.Name.Name())
	}
	want := append(append([]string(nil), brokenTypes...), correctTypes...)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("targets %v, want %v", got, want)
	}
}

// renderCorpus renders five cases of every corpus target in each mode.
func renderCorpus(t *testing.T) map[Mode][]byte {
	t.Helper()
	pkgs, _, err := load(context.Background(), corpusDir, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	g := NewGenerator(pkgs[0].PkgPath, pkgs[0].Name, 1)
	var cs []*Case
	for _, tg := range Targets(pkgs) {
		cs = append(cs, g.Generate(tg, 5)...)
	}
	srcs := map[Mode][]byte{}
	for _, m := range []Mode{Concurrent, Sequential} {
		src, err := Render(g, pkgs[0].Name, cs, m)
		if err != nil {
			t.Fatalf("mode %d: %v", m, err)
		}
		srcs[m] = src
	}
	return srcs
}

// TestRenderParses checks that every generated file is valid Go.
func TestRenderParses(t *testing.T) {
	for m, src := range renderCorpus(t) {
		if !strings.Contains(string(src), "func TestInterleaveGen_Hits_4(t *testing.T)") {
			t.Errorf("mode %d: no TestInterleaveGen_Hits_4 in\n%s", m, src)
		}
	}
}

// TestRenderGo117: the generated file compiles in a module whose go line
// is older than Go 1.18 (gocron v1.15.0 says go 1.17): it names no any.
// Fails with the helpers' []any ("predeclared any requires go1.18").
func TestRenderGo117(t *testing.T) {
	for m, src := range renderCorpus(t) {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, FileName, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == "any" {
				t.Errorf("mode %d: %s: any needs go1.18", m, fset.Position(id.Pos()))
			}
			return true
		})
	}
}

// searchCorpus runs gen on a copy of the corpus for the types matching
// broken and correct, schedules per worker and test (0: the budget alone
// bounds it); a broken type that is not found is searched again with
// both doubled and another seed (up to three rounds). Every finding must
// replay from the pasted test file.
func searchCorpus(t *testing.T, broken, correct []string, perType, schedules int, budget time.Duration, opt ...func(*Options)) (reports []TypeReport) {
	if testing.Short() {
		t.Skip("builds with the race detector")
	}
	ctx := context.Background()
	dir := t.TempDir()
	if err := copyTree(corpusDir, dir); err != nil {
		t.Fatal(err)
	}
	schedulesDir := filepath.Join(dir, ".interleave", "schedules")
	run := func(types []string, seed int64, budget time.Duration) *Result {
		t.Helper()
		o := Options{
			Dir: dir, Types: "^(" + strings.Join(types, "|") + ")$", PerType: perType, Seed: seed,
			Budget: budget, Schedules: schedules, Race: true, SchedulesDir: schedulesDir,
		}
		for _, f := range opt {
			f(&o)
		}
		res, err := Run(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, ts := range res.Stats.Tests {
			t.Logf("%s: %d schedules, %d failing (first: %d)", ts.Test, ts.Schedules, ts.Failures, ts.ToFirstFailure)
		}
		return res
	}
	res := run(append(append([]string(nil), broken...), correct...), 1, budget)
	found := map[string][]checks.Finding{}
	repros := map[string][]byte{} // test -> the file that has it
	collect := func(r *Result) {
		reports = append(reports, r.Types...)
		for _, f := range r.Findings {
			typ := regexp.MustCompile(`^TestInterleaveGen_(\w+)_\d+$`).FindStringSubmatch(f.Test)[1]
			found[typ] = append(found[typ], f)
		}
		for _, rp := range r.Repros {
			for _, n := range rp.Tests {
				repros[n] = rp.Source
			}
		}
	}
	collect(res)
	for _, c := range correct {
		for _, f := range found[c] {
			t.Errorf("%s is correct, but gen reports %s at %v: %s", c, f.Kind, f.Pos, f.Message)
		}
	}
	for round := 0; round < 3; round++ {
		var miss []string
		for _, b := range broken {
			if len(found[b]) == 0 {
				miss = append(miss, b)
			}
		}
		if len(miss) == 0 {
			break
		}
		budget, schedules = 2*budget, 2*schedules
		t.Logf("not found yet: %v; searching again for %v, %d schedules per worker and test", miss, budget, schedules)
		collect(run(miss, int64(2+round), budget))
	}
	for _, b := range broken {
		if len(found[b]) == 0 {
			t.Errorf("%s is broken, but gen found nothing", b)
			continue
		}
		// Paste the generated file and replay the finding's schedule.
		f := found[b][0]
		src := repros[f.Test]
		if src == nil {
			t.Errorf("%s: no reproducing file for %s", b, f.Test)
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, FileName), src, 0o644); err != nil {
			t.Fatal(err)
		}
		sched := f.Schedule
		if !filepath.IsAbs(sched) {
			sched = filepath.Join(dir, sched)
		}
		rr, err := explore.Replay(ctx, sched, explore.ReplayOptions{Dir: dir})
		if err != nil {
			t.Errorf("%s: replay %s: %v", b, f.Test, err)
			continue
		}
		if rr.Outcome != explore.Reproduced || rr.Finding == nil || rr.Finding.Kind != f.Kind {
			t.Errorf("%s: replay of %s: %s (%v, diverged %q), want %s again", b, f.Test, rr.Outcome, rr.Finding, rr.Diverged, f.Kind)
		}
		t.Logf("%s: %s %s, replayed", b, f.Test, f.Kind)
	}
	return reports
}

// TestCorpusLight searches two broken and two correct types of the corpus;
// the whole corpus is behind -tags heavy and bench/gen/corpus.sh.
func TestCorpusLight(t *testing.T) {
	// Bounded by a count (seed 1 finds Registry's race at a worker's
	// 18th schedule); the budget only stops a machine that cannot do it.
	searchCorpus(t, []string{"Hits", "Registry"}, []string{"Gauge", "Set"}, 6, 24, 5*time.Minute)
}

// TestCorpusPool searches the kernels of the per-test pool and of the
// second instance: Board (two Takes of one ticket, which only the
// prefix's Post returns, race past one check) and Bin (v.Absorb(w)
// against w.Absorb(v) deadlock), with their correct near-misses Desk (a
// Take of a ticket not open panics in every order: the oracle drops it),
// Crate, and Hub (Unsubscribe takes the channel Subscribe returned).
func TestCorpusPool(t *testing.T) {
	reports := searchCorpus(t, []string{"Board", "Bin"}, []string{"Desk", "Crate", "Hub"}, 6, 40, 5*time.Minute)
	// The oracle: a Desk test that takes one ticket twice panics under
	// every schedule, and in one sequential order too, so it is dropped
	// before the search.
	dropped := false
	for _, r := range reports {
		for _, d := range r.Dropped {
			dropped = dropped || r.Type == "Desk" && strings.Contains(d, "Desk.Take of a ticket that is not open")
		}
	}
	if !dropped {
		t.Errorf("no Desk test was dropped for a Take that panics sequentially: %+v", reports)
	}
}

// TestCorpusDerived searches Feed, whose race is only in the value its
// Tagged returns (the goroutines must call the methods of a derived value,
// as zap's WithLazy logger needs), and its correct near-miss Stream.
func TestCorpusDerived(t *testing.T) {
	searchCorpus(t, []string{"Feed"}, []string{"Stream"}, 6, 40, 5*time.Minute)
}

// TestCorpusAlias searches Batch, whose racy Add takes Items, an alias of
// a struct of another package (zap's With takes zap.Field =
// zapcore.Field): without seeing through the alias, Add is not callable
// and Batch has no method that races.
func TestCorpusAlias(t *testing.T) {
	searchCorpus(t, []string{"Batch"}, nil, 6, 40, 5*time.Minute)
}

// TestGenerateDerived: Tagged returns a *Feed, so some cases build the
// shared value as what Tagged returns; a type without derivers gets the
// same cases as before (no draw from the seed's sequence).
func TestGenerateDerived(t *testing.T) {
	pkgs, _, err := load(context.Background(), corpusDir, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	derived := 0
	for _, tg := range Targets(pkgs) {
		switch tg.Name.Name() {
		case "Feed":
			if len(tg.Derivers) != 1 || tg.Derivers[0].Fn.Name() != "Tagged" {
				t.Fatalf("Feed's derivers: %v, want Tagged", tg.Derivers)
			}
			for _, c := range NewGenerator(pkgs[0].PkgPath, pkgs[0].Name, 1).Generate(tg, 12) {
				b := strings.Join(c.Build, "\n")
				if strings.Contains(b, "v := v0.Tagged(") {
					derived++
				}
			}
		case "Hits":
			if len(tg.Derivers) != 0 {
				t.Errorf("Hits has derivers %v", tg.Derivers)
			}
		}
	}
	if derived == 0 || derived == 12 {
		t.Errorf("%d of 12 Feed cases work on a tagged feed, want some but not all", derived)
	}
}

// TestCorpusGuarded searches Tally and Poll, which claim nothing but hold
// a mutex, as the pull-request job does when Retract changed.
func TestCorpusGuarded(t *testing.T) {
	searchCorpus(t, []string{"Tally"}, []string{"Poll"}, 6, 40, 5*time.Minute, func(o *Options) {
		o.Guarded = true
		o.Focus = func(_ *Target, m string) bool { return m == "Retract" }
	})
}

// The generator's imports are those of all the cases it made; a file of
// some of them imports only what they use.
func TestRenderPrunesImports(t *testing.T) {
	pkgs, _, err := load(context.Background(), corpusDir, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	g := NewGenerator(pkgs[0].PkgPath, pkgs[0].Name, 1)
	g.q.pkg("time", "time") // as if a dropped case had used time.Hour
	var cs []*Case
	for _, tg := range Targets(pkgs) {
		if tg.Name.Name() == "Hits" {
			cs = g.Generate(tg, 2)
		}
	}
	src, err := Render(g, pkgs[0].Name, cs, Concurrent)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(src), `"time"`) {
		t.Errorf("unused import of time kept:\n%s", src)
	}
	if !strings.Contains(string(src), `"example.com/gencorpus"`) {
		t.Errorf("import of the package lost:\n%s", src)
	}
}

// Several unused imports: deleting one while walking f.Imports must not
// skip or nil out the next (a real module's 216 generated tests panicked).
func TestPruneImportsSeveralUnused(t *testing.T) {
	src := []byte(`package p

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"
)

func f() { fmt.Println(strings.ToUpper("x")) }
`)
	out, err := pruneImports(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{`"bytes"`, `"errors"`, `"time"`} {
		if strings.Contains(string(out), gone) {
			t.Errorf("unused import %s kept:\n%s", gone, out)
		}
	}
	for _, kept := range []string{`"fmt"`, `"strings"`} {
		if !strings.Contains(string(out), kept) {
			t.Errorf("used import %s lost:\n%s", kept, out)
		}
	}
}

// TestOnBase: a generated test whose calls block when run sequentially is
// dropped, unless the same calls pass on the change's base commit
// (Options.BaseDir): then the change broke them, and the search reports
// the hang as a deadlock that replays. Valve's head blocks in Close after
// Open, Close, Open (testdata/onbase); its base does not.
func TestOnBase(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with the race detector")
	}
	ctx := context.Background()
	tmp := t.TempDir()
	head, base := filepath.Join(tmp, "head"), filepath.Join(tmp, "base")
	for dir, from := range map[string]string{head: "testdata/onbase/head", base: "testdata/onbase/base"} {
		if err := copyTree(from, dir); err != nil {
			t.Fatal(err)
		}
	}
	schedulesDir := filepath.Join(head, ".interleave", "schedules")
	res, err := Run(ctx, Options{
		Dir: head, Types: "^Valve$", PerType: 4, Seed: 1, Budget: 5 * time.Minute, Schedules: 5,
		Race: true, SchedulesDir: schedulesDir, BaseDir: base,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Types) != 1 || res.Types[0].OnBase == 0 {
		t.Fatalf("no generated test was kept for passing on the base: %+v", res.Types)
	}
	var f *checks.Finding
	for i := range res.Findings {
		if res.Findings[i].Kind == checks.Deadlock && strings.Contains(res.Findings[i].Message, "pass on the base commit") {
			f = &res.Findings[i]
		}
	}
	if f == nil {
		t.Fatalf("no deadlock that passes on the base: %+v\nnotes: %v", res.Findings, res.Notes)
	}
	t.Logf("%s: %s", f.Test, f.Message)
	// Paste the generated file and replay the finding's schedule.
	for _, rp := range res.Repros {
		if slices.Contains(rp.Tests, f.Test) {
			if err := os.WriteFile(filepath.Join(head, FileName), rp.Source, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	sched := f.Schedule
	if !filepath.IsAbs(sched) {
		sched = filepath.Join(head, sched)
	}
	rr, err := explore.Replay(ctx, sched, explore.ReplayOptions{Dir: head})
	if err != nil {
		t.Fatal(err)
	}
	if rr.Outcome != explore.Reproduced || rr.Finding == nil || rr.Finding.Kind != checks.Deadlock {
		t.Errorf("replay of %s: %s (%v, diverged %q), want a deadlock again", f.Test, rr.Outcome, rr.Finding, rr.Diverged)
	}
}
