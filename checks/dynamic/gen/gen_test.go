package gen

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// corpusDir is the nested module of types that claim thread safety.
const corpusDir = "testdata/corpus"

// The corpus: broken types must each be found, correct ones never.
var (
	brokenTypes  = []string{"Balance", "Batch", "Bin", "Board", "Feed", "Hits", "LazyTally", "Labels", "Ledger", "Pump", "Registry", "SortedInts", "UnsyncMap"}
	correctTypes = []string{"Crate", "Desk", "Gauge", "Hub", "LazyTallyOK", "List", "PumpOK", "SafeMap", "Set", "Stream"}
	// focusTypes are searched only as a pull request that changed one
	// of their methods would (corpusGroups' focus), not by -tags heavy.
	focusTypes = []string{"Journal", "JournalOK"}
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
	want := append(append(append([]string(nil), brokenTypes...), correctTypes...), focusTypes...)
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
// broken and correct, the first round with seed, schedules per worker and
// test (0: the budget alone bounds it); a broken type that is not found is
// searched again with both doubled and another seed (up to three rounds).
// Every finding must replay from the pasted test file.
func searchCorpus(t *testing.T, broken, correct []string, seed int64, perType, schedules int, budget time.Duration, opt ...func(*Options)) (reports []TypeReport) {
	if testing.Short() {
		t.Skip("builds with the race detector")
	}
	ctx := context.Background()
	dir := t.TempDir()
	if err := copyTree(corpusDir, dir); err != nil {
		t.Fatal(err)
	}
	run := func(types []string, seed int64, budget time.Duration) *Result {
		t.Helper()
		res, err := runCorpus(ctx, dir, types, seed, perType, schedules, budget, opt...)
		if err != nil {
			t.Fatal(err)
		}
		logStats(t, res, types)
		return res
	}
	var c corpusFindings
	res := run(append(append([]string(nil), broken...), correct...), seed, budget)
	reports = append(reports, res.Types...)
	c.add(res)
	for _, name := range correct {
		for _, f := range c.found[name] {
			t.Errorf("%s is correct, but gen reports %s at %v: %s", name, f.Kind, f.Pos, f.Message)
		}
	}
	for round := 0; round < 3; round++ {
		miss := c.missing(broken)
		if len(miss) == 0 {
			break
		}
		budget, schedules = 2*budget, 2*schedules
		t.Logf("not found yet: %v; searching again for %v, %d schedules per worker and test", miss, budget, schedules)
		res := run(miss, seed+1+int64(round), budget)
		reports = append(reports, res.Types...)
		c.add(res)
	}
	replayed := c.replay(ctx, dir, broken, nil)
	for _, b := range broken {
		if len(c.found[b]) == 0 {
			t.Errorf("%s is broken, but gen found nothing", b)
		} else if err := replayed[b]; err != nil {
			t.Errorf("%s: %v", b, err)
		} else {
			t.Logf("%s: %s %s, replayed", b, c.found[b][0].Test, c.found[b][0].Kind)
		}
	}
	return reports
}

// runCorpus runs gen on the copy of the corpus at dir for types.
func runCorpus(ctx context.Context, dir string, types []string, seed int64, perType, schedules int, budget time.Duration, opt ...func(*Options)) (*Result, error) {
	o := Options{
		Dir: dir, Types: "^(" + strings.Join(types, "|") + ")$", PerType: perType, Seed: seed,
		Budget: budget, Schedules: schedules, Race: true, SchedulesDir: filepath.Join(dir, ".interleave", "schedules"),
	}
	for _, f := range opt {
		f(&o)
	}
	return Run(ctx, o)
}

// untilFound ends the search of a generated test of the broken types at
// its first failure gen reports, and skips their tests not searched yet
// once one failed: what is checked of a broken type is that it is found
// and replays. The other types' tests run every schedule.
func untilFound(broken ...string) func(*Options) {
	var mu sync.Mutex
	found := map[string]bool{}
	return func(o *Options) {
		o.testUntil = func(f checks.Finding) bool {
			typ := genType(f.Test)
			if !keptKinds[f.Kind] || !slices.Contains(broken, typ) {
				return false
			}
			mu.Lock()
			defer mu.Unlock()
			found[typ] = true
			return true
		}
		o.skipTest = func(test string) bool {
			mu.Lock()
			defer mu.Unlock()
			return found[genType(test)]
		}
	}
}

// logStats logs the search of the generated tests of types.
func logStats(t *testing.T, res *Result, types []string) {
	t.Helper()
	for _, ts := range res.Stats.Tests {
		if slices.Contains(types, genType(ts.Test)) {
			t.Logf("%s: %d schedules, %d failing (first: %d)", ts.Test, ts.Schedules, ts.Failures, ts.ToFirstFailure)
		}
	}
}

// genType is the type a generated test is named after.
func genType(test string) string {
	if m := regexp.MustCompile(`^TestInterleaveGen_(\w+)_\d+$`).FindStringSubmatch(test); m != nil {
		return m[1]
	}
	return ""
}

// corpusFindings are the findings of runs on the corpus by type, and the
// file of each failed test.
type corpusFindings struct {
	found  map[string][]checks.Finding
	repros map[string][]byte // test -> the file that has it
}

func (c *corpusFindings) add(r *Result) {
	if c.found == nil {
		c.found, c.repros = map[string][]checks.Finding{}, map[string][]byte{}
	}
	for _, f := range r.Findings {
		c.found[genType(f.Test)] = append(c.found[genType(f.Test)], f)
	}
	for _, rp := range r.Repros {
		for _, n := range rp.Tests {
			c.repros[n] = rp.Source
		}
	}
}

// missing are the types of broken without a finding.
func (c *corpusFindings) missing(broken []string) []string {
	var miss []string
	for _, b := range broken {
		if len(c.found[b]) == 0 {
			miss = append(miss, b)
		}
	}
	return miss
}

// replay pastes the file of each type's first finding (every finding of
// the types all holds) into the module at dir and replays the finding's
// schedule there (explore.ReplayMany: one build per file). It returns why
// a type's replay failed, nil when it reproduced; types without a
// finding are left out.
func (c *corpusFindings) replay(ctx context.Context, dir string, types []string, all map[string]bool) map[string]error {
	out := map[string]error{}
	bySource := map[string][]string{} // file -> types
	var sources []string
	for _, typ := range types {
		if len(c.found[typ]) == 0 {
			continue
		}
		f := c.found[typ][0]
		src := c.repros[f.Test]
		if src == nil {
			out[typ] = fmt.Errorf("no reproducing file for %s", f.Test)
			continue
		}
		if bySource[string(src)] == nil {
			sources = append(sources, string(src))
		}
		bySource[string(src)] = append(bySource[string(src)], typ)
	}
	for _, src := range sources {
		if err := os.WriteFile(filepath.Join(dir, FileName), []byte(src), 0o644); err != nil {
			for _, typ := range bySource[src] {
				out[typ] = err
			}
			continue
		}
		var scheds []*rt.Schedule
		var typs []string
		var fs []checks.Finding
		for _, typ := range bySource[src] {
			n := 1
			if all[typ] {
				n = len(c.found[typ])
			}
			for _, f := range c.found[typ][:n] {
				path := f.Schedule
				if !filepath.IsAbs(path) {
					path = filepath.Join(dir, path)
				}
				s, err := explore.ReadSchedule(path)
				if err != nil {
					out[typ] = err
					continue
				}
				scheds, typs, fs = append(scheds, s), append(typs, typ), append(fs, f)
			}
		}
		rrs, errs := explore.ReplayMany(ctx, scheds, explore.ReplayOptions{Dir: dir})
		for i, typ := range typs {
			f, rr := fs[i], rrs[i]
			if _, failed := out[typ]; failed && out[typ] != nil {
				continue // one of its findings did not replay
			}
			switch {
			case errs[i] != nil:
				out[typ] = fmt.Errorf("replay %s: %v", f.Test, errs[i])
			case rr.Outcome != explore.Reproduced || rr.Finding == nil || rr.Finding.Kind != f.Kind:
				out[typ] = fmt.Errorf("replay of %s: %s (%v, diverged %q), want %s again", f.Test, rr.Outcome, rr.Finding, rr.Diverged, f.Kind)
			default:
				out[typ] = nil
			}
		}
	}
	return out
}

// corpusGroup is what one default corpus test searches.
type corpusGroup struct {
	broken, correct []string
	guarded         bool   // guardedOpt: the types hold a mutex, claim nothing
	focus           string // the method a pull request changed (Options.Focus)
	all             bool   // every cause: no test ends at its type's first finding
}

// corpusGroups are the default corpus tests' types. They are searched in
// one gen run (sharedCorpus: one copy, one race build, one replay build),
// each group's cases drawn from a generator of its own, seeded as its run
// alone would seed it, so that no group's cases depend on another's.
var corpusGroups = map[string]corpusGroup{
	"Light":    {broken: []string{"Hits", "Registry"}, correct: []string{"Gauge", "Set"}},
	"Pool":     {broken: []string{"Board", "Bin"}, correct: []string{"Desk", "Crate", "Hub"}},
	"Derived":  {broken: []string{"Feed"}, correct: []string{"Stream"}},
	"Alias":    {broken: []string{"Batch"}},
	"Shapes":   {broken: []string{"Pump", "LazyTally"}, correct: []string{"PumpOK", "LazyTallyOK"}},
	"Guarded":  {broken: []string{"Tally"}, correct: []string{"Poll"}, guarded: true, focus: "Retract"},
	"LazyWith": {broken: []string{"Journal"}, correct: []string{"JournalOK"}, focus: "Lazy"},
	// Searched to the end: both its causes found and replayed.
	"TwoCauses": {broken: []string{"Ledger"}, all: true},
}

// The shared search's settings: the count bounds it, the budget only
// stops a machine that cannot do it. At 15 schedules a worker (31 a test
// of a correct type) every group with a correct type still fails when
// the oracle compares with the first sequential order only (each
// reports its correct types, Guarded by Poll_0's 3 failing schedules:
// searchShared); the broken types are found within a worker's 6th.
const (
	sharedPerType   = 6
	sharedSchedules = 15
	sharedBudget    = 15 * time.Minute
)

// guardedOpt is the groups' option: the types that only hold a mutex are
// targets, and the goroutines start with each group's focus (as the
// pull-request job does when that method changed).
func guardedOpt(groups ...corpusGroup) func(*Options) {
	focus := map[string]string{}
	for _, g := range groups {
		for _, n := range append(slices.Clone(g.broken), g.correct...) {
			focus[n] = g.focus
		}
	}
	return func(o *Options) {
		o.Guarded = true
		o.Focus = func(t *Target, m string) bool { return focus[t.Name.Name()] != "" && m == focus[t.Name.Name()] }
	}
}

var shared struct {
	once     sync.Once
	dir      string
	res      *Result
	c        corpusFindings
	replayed map[string]error
	err      error
	stages   []explore.StageEvent // the run's ended stages
}

// sharedOpts returns the types of every corpus group (and the broken
// ones) and the options of their shared run: each group's types drawn
// from a generator of its own, seeded as Run seeds the first package of a
// run of the group alone, and the guarded group's option.
func sharedOpts() (types, broken []string, opt []func(*Options)) {
	var groups []corpusGroup
	groupOf := map[string]int{}
	for _, name := range slices.Sorted(maps.Keys(corpusGroups)) {
		g := corpusGroups[name]
		for _, n := range append(slices.Clone(g.broken), g.correct...) {
			groupOf[n] = len(groups)
		}
		types = append(append(types, g.broken...), g.correct...)
		broken = append(broken, g.broken...)
		groups = append(groups, g)
	}
	gens := map[int]*Generator{}
	draws := func(o *Options) {
		seed := o.Seed
		o.draws = func(pkg *Generator, t *Target) *Generator {
			i := groupOf[t.Name.Name()]
			if gens[i] == nil {
				gens[i] = NewGenerator(t.Pkg.PkgPath, t.Pkg.Name, seed)
				gens[i].q = pkg.q // one file: one set of imports
			}
			return gens[i]
		}
	}
	return types, broken, []func(*Options){guardedOpt(groups...), draws}
}

// sharedCorpus runs gen once on a copy of the corpus for the types of
// every corpus group, and replays the first finding of each broken type.
func sharedCorpus(t *testing.T) {
	t.Helper()
	shared.once.Do(func() {
		ctx := context.Background()
		if shared.dir, shared.err = os.MkdirTemp("", "interleave-gen-corpus-"); shared.err != nil {
			return
		}
		if shared.err = copyTree(corpusDir, shared.dir); shared.err != nil {
			return
		}
		types, broken, opt := sharedOpts()
		every := map[string]bool{}
		for _, g := range corpusGroups {
			for _, n := range g.broken {
				every[n] = g.all
			}
		}
		// A broken type's test ends at its first failure gen reports,
		// and its tests not searched yet are skipped: what is checked
		// of it is that it is found and replays. The correct types'
		// tests run every schedule.
		var mu sync.Mutex
		found := map[string]bool{}
		opt = append(opt, func(o *Options) {
			o.Stage = func(e explore.StageEvent) {
				if e.Done {
					mu.Lock()
					shared.stages = append(shared.stages, e)
					mu.Unlock()
				}
			}
			o.testUntil = func(f checks.Finding) bool {
				typ := genType(f.Test)
				if !keptKinds[f.Kind] || !slices.Contains(broken, typ) || every[typ] {
					return false
				}
				mu.Lock()
				found[typ] = true
				mu.Unlock()
				return true
			}
			o.skipTest = func(test string) bool {
				mu.Lock()
				defer mu.Unlock()
				return found[genType(test)]
			}
		})
		shared.res, shared.err = runCorpus(ctx, shared.dir, types, 1, sharedPerType, sharedSchedules, sharedBudget, opt...)
		if shared.err != nil {
			return
		}
		shared.c.add(shared.res)
		shared.replayed = shared.c.replay(ctx, shared.dir, broken, every)
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
}

// searchShared checks one corpus group in the shared search: its broken
// types found, each first finding replayed from the pasted file, its
// correct types silent. A broken type the shared search missed is
// searched again alone (searchCorpus, another seed, twice the schedules).
// It returns the group's type reports.
func searchShared(t *testing.T, group string) (reports []TypeReport) {
	if testing.Short() {
		t.Skip("builds with the race detector")
	}
	g, ok := corpusGroups[group]
	if !ok {
		t.Fatalf("no corpus group %s", group)
	}
	sharedCorpus(t)
	types := append(slices.Clone(g.broken), g.correct...)
	logStats(t, shared.res, types)
	for _, r := range shared.res.Types {
		if slices.Contains(types, r.Type) {
			reports = append(reports, r)
		}
	}
	for _, c := range g.correct {
		for _, f := range shared.c.found[c] {
			t.Errorf("%s is correct, but gen reports %s at %v: %s", c, f.Kind, f.Pos, f.Message)
		}
	}
	// A schedule of a correct type's test that fails is the tool's
	// failure, reported or not: PumpOK's tests that left the pump open
	// leaked its loop on every schedule (stops), and an oracle that
	// compares with one order only failed Poll's unreported.
	for _, ts := range shared.res.Stats.Tests {
		if slices.Contains(g.correct, genType(ts.Test)) && ts.Failures > 0 {
			t.Errorf("%s: %d of %d schedules fail (unperturbed: %s), but its type is correct", ts.Test, ts.Failures, ts.Schedules, ts.Plain)
		}
	}
	for _, b := range g.broken {
		if len(shared.c.found[b]) == 0 {
			continue
		}
		if err := shared.replayed[b]; err != nil {
			t.Errorf("%s: %v", b, err)
			continue
		}
		f := shared.c.found[b][0]
		t.Logf("%s: %s %s, replayed", b, f.Test, f.Kind)
		// The search of a test that found it ended there (testUntil).
		met := false
		for _, ts := range shared.res.Stats.Tests {
			met = met || ts.Met && genType(ts.Test) == b
		}
		if !met {
			t.Errorf("%s: found, but no test's search ended at its failure", b)
		}
	}
	if miss := shared.c.missing(g.broken); len(miss) > 0 {
		t.Logf("not found in the shared search: %v; searching again for them alone", miss)
		var opt []func(*Options)
		if g.guarded || g.focus != "" {
			opt = append(opt, guardedOpt(g))
		}
		reports = append(reports, searchCorpus(t, miss, nil, 2, sharedPerType, 2*sharedSchedules, sharedBudget, opt...)...)
	}
	return reports
}

// TestSharedCorpusDraws: in the shared run every corpus group's types get
// the cases a run of the group alone generates (names, prefixes, calls),
// so that no test's cases depend on the other tests' types. Fails
// without Options.draws: the types after the first draw from one stream.
func TestSharedCorpusDraws(t *testing.T) {
	pkgs, modRoot, err := load(context.Background(), corpusDir, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	// What Run generates for types with opt, from one load: the targets
	// as loadTargets picks them, then generate.
	cases := func(types []string, opt ...func(*Options)) map[string][]string {
		t.Helper()
		o := Options{Dir: corpusDir, PerType: sharedPerType, Seed: 1}
		for _, f := range opt {
			f(&o)
		}
		if _, err := normalize(&o); err != nil {
			t.Fatal(err)
		}
		r := &run{opts: o, res: &Result{}, modRoot: modRoot}
		ts := Targets(pkgs)
		if o.Guarded {
			ts = GuardedTargets(pkgs)
		}
		for _, tg := range ts {
			if !slices.Contains(types, tg.Name.Name()) {
				continue
			}
			for _, m := range tg.Methods {
				if o.Focus != nil && o.Focus(tg, m.Fn.Name()) {
					tg.Focus = append(tg.Focus, m)
				}
			}
			r.targets = append(r.targets, tg)
		}
		if err := r.generate(); err != nil {
			t.Fatal(err)
		}
		out := map[string][]string{}
		for _, w := range r.works {
			for _, c := range w.cases {
				out[c.Target.Name.Name()] = append(out[c.Target.Name.Name()], c.Name+": "+labels(c))
			}
		}
		return out
	}
	types, _, opt := sharedOpts()
	shared := cases(types, opt...)
	for name, g := range corpusGroups {
		var opt []func(*Options)
		if g.guarded || g.focus != "" {
			opt = append(opt, guardedOpt(g))
		}
		alone := cases(append(slices.Clone(g.broken), g.correct...), opt...)
		for typ, want := range alone {
			if got := shared[typ]; !slices.Equal(got, want) {
				t.Errorf("%s: %s's %d cases in the shared run differ from the %d of the group alone; first: %q, want %q", name, typ, len(got), len(want), got[:min(1, len(got))], want[:1])
			}
		}
	}
}

// TestCorpusLight searches two broken and two correct types of the corpus;
// the whole corpus is behind -tags heavy and bench/gen/corpus.sh.
func TestCorpusLight(t *testing.T) {
	// Bounded by a count (seed 1 finds Registry's race at a worker's
	// 18th schedule); the budget only stops a machine that cannot do it.
	searchShared(t, "Light")
}

// TestCorpusPool searches the kernels of the per-test pool and of the
// second instance: Board (two Takes of one ticket, which only the
// prefix's Post returns, race past one check) and Bin (v.Absorb(w)
// against w.Absorb(v) deadlock), with their correct near-misses Desk (a
// Take of a ticket not open panics in every order: the oracle drops it),
// Crate, and Hub (Unsubscribe takes the channel Subscribe returned).
func TestCorpusPool(t *testing.T) {
	reports := searchShared(t, "Pool")
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
	searchShared(t, "Derived")
}

// TestCorpusLazyWith searches Journal as a pull request that added its
// Lazy would: the journal Lazy returns tags its sink on the first Log or
// With, inside a Once, while Enabled and Len read the embedded sink
// without it (zap v1.26.0's WithLazy). Only two first uses of a fresh
// lazy journal race: not Lazy called again on it, nor uses after a prefix
// that tagged it. JournalOK's sink tags itself first in every method.
func TestCorpusLazyWith(t *testing.T) {
	searchShared(t, "LazyWith")
}

// TestCorpusAlias searches Batch, whose racy Add takes Items, an alias of
// a struct of another package (zap's With takes zap.Field =
// zapcore.Field): without seeing through the alias, Add is not callable
// and Batch has no method that races.
func TestCorpusAlias(t *testing.T) {
	searchShared(t, "Alias")
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
	searchShared(t, "Guarded")
}

// The generator's imports are those of all the cases it made; a file of
// some of them imports only what they use.
func TestRenderPrunesImports(t *testing.T) {
	pkgs, _, err := load(context.Background(), corpusDir, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	g := NewGenerator(pkgs[0].PkgPath, pkgs[0].Name, 1)
	g.q.pkg("os", "os") // as if a dropped case had used os.Stdout
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
	if strings.Contains(string(src), `"os"`) {
		t.Errorf("unused import of os kept:\n%s", src)
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

// TestCorpusTwoCauses: one short search of Ledger (searched to the end)
// finds its two causes, Claim's check and insert under two critical
// sections (not linearizable) and Claimed's unlocked read of the count
// (a data race), and gen reports both: each replayed by gen, and again
// from the pasted file; none is a note.
func TestCorpusTwoCauses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with the race detector")
	}
	sharedCorpus(t)
	logStats(t, shared.res, []string{"Ledger"})
	kinds := map[checks.FailureKind]bool{}
	for _, f := range shared.c.found["Ledger"] {
		kinds[f.Kind] = true
		t.Logf("%s: %s at %v", f.Test, f.Kind, f.Pos)
	}
	if !kinds[checks.DataRace] || !kinds[checks.TestFailure] {
		t.Errorf("Ledger's findings are of kinds %v, want a data race and a test failure (not linearizable)", slices.Collect(maps.Keys(kinds)))
	}
	if err := shared.replayed["Ledger"]; err != nil {
		t.Errorf("Ledger: %v", err)
	}
	for _, n := range shared.res.Notes {
		if strings.Contains(n, "TestInterleaveGen_Ledger_") && strings.Contains(n, "not reported") {
			t.Errorf("a cause of Ledger is a note: %s", n)
		}
	}
}

// TestNamedValue: a parameter named as an address gets a local address
// with a port, one named as a rate or probability a value between 0 and
// 1; other names, and other types of those names, keep the pool's draw.
func TestNamedValue(t *testing.T) {
	str, f64, i := types.Typ[types.String], types.Typ[types.Float64], types.Typ[types.Int]
	for _, c := range []struct {
		name string
		typ  types.Type
		want string
	}{
		{"addr", str, `"127.0.0.1:0"`},
		{"listenAddress", str, `"127.0.0.1:0"`},
		{"hostport", str, `"127.0.0.1:0"`},
		{"rate", f64, "0.5"},
		{"sampleRate", f64, "0.5"},
		{"probability", f64, "0.5"},
		{"name", str, ""},
		{"rate", i, ""},
		{"addr", i, ""},
		{"value", f64, ""},
	} {
		code, _, ok := namedValue(c.name, c.typ)
		if c.want == "" && ok || c.want != "" && code != c.want {
			t.Errorf("namedValue(%q, %s) = %q, %v, want %q", c.name, c.typ, code, ok, c.want)
		}
	}
}
