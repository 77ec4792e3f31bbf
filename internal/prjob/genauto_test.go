package prjob

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/affected/diff"
	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/gen"
)

// A module whose package p has types that claim thread safety (or not), in
// files changed on the lines given.
func genAutoModule(t *testing.T) (dir string, c *affected.Change) {
	dir = t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.24\n",
		"p/a.go": `package p

// Counter counts. It is safe for concurrent use.
type Counter struct{ n int }

// Inc adds one.
func (c *Counter) Inc() { c.n++ }

// Table is safe for concurrent use by multiple goroutines.
type Table struct{ m map[string]int }

// Get reads.
func (t *Table) Get(k string) int { return t.m[k] }

// Plain is not safe for concurrent use.
type Plain struct{ n int }

// hidden is safe for concurrent use, but not exported.
type hidden struct{}

type (
	// Grouped is thread-safe.
	Grouped struct{}
)
`,
		"p/a_test.go": `package p

// Fake is safe for concurrent use.
type Fake struct{}
`,
		"p/b.go": `package p

import "sync"

// Tally counts; it claims nothing, but holds a mutex.
type Tally struct {
	mu sync.Mutex
	n  int
}

// Add adds one.
func (t *Tally) Add() { t.mu.Lock(); t.n++; t.mu.Unlock() }

// Quiet holds a mutex, but nothing of it changed.
type Quiet struct{ mu sync.Mutex }

// Loose holds a mutex, but is not safe for concurrent use.
type Loose struct{ mu sync.Mutex }

// Bare changed, but holds no lock.
type Bare struct{ n int }
`,
		"p/d.go": `package p

// Journal claims nothing; its lock is the package's wrapper (logrus's
// Logger and MutexWrap).
type Journal struct {
	mu lockWrap
	n  int
}
`,
		"p/wrap.go": `package p

import "sync"

type lockWrap struct {
	mu       sync.Mutex
	disabled bool
}
`,
		"p/e.go": `package p

import "sync"

// Sink holds a mutex; nothing of it changed.
type Sink struct{ mu sync.Mutex }

// Note writes to a sink.
type Note struct{ sink *Sink }

// Write now takes the sink's lock.
func (n Note) Write() {
	n.sink.mu.Lock()
	n.sink.mu.Unlock()
}
`,
		"q/q.go": `package q

// Q is safe for concurrent use.
type Q struct{}
`,
	}
	for name, body := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c = &affected.Change{
		Root: dir, ModuleDir: dir, ModulePath: "example.com/m",
		Packages: []string{"example.com/m/p"},
		Files: []affected.File{{Path: "p/a.go", Package: "example.com/m/p", Analyzed: true,
			Lines: []diff.Range{{Start: 4, End: 4}, {Start: 16, End: 16}, {Start: 23, End: 23}}},
			{Path: "p/b.go", Package: "example.com/m/p", Analyzed: true,
				Lines: []diff.Range{{Start: 12, End: 12}, {Start: 18, End: 18}, {Start: 21, End: 21}}},
			{Path: "p/d.go", Package: "example.com/m/p", Analyzed: true, Lines: []diff.Range{{Start: 5, End: 5}}},
			{Path: "p/e.go", Package: "example.com/m/p", Analyzed: true, Lines: []diff.Range{{Start: 13, End: 13}}}},
		Funcs: []affected.Func{
			{Package: "example.com/m/p", File: "p/a.go", Name: "(*Table).Get", Line: 13, EndLine: 13},
			{Package: "example.com/m/p", File: "p/b.go", Name: "(*Tally).Add", Line: 12, EndLine: 12},
			{Package: "example.com/m/p", File: "p/e.go", Name: "(Note).Write", Line: 12, EndLine: 15},
		},
	}
	return dir, c
}

func TestClaimedTypesTouched(t *testing.T) {
	dir, c := genAutoModule(t)
	r := &job{change: c}
	// Counter: declaration changed; Table: a method changed; Plain: changed
	// but "not safe"; hidden: unexported; Grouped: changed, in a group;
	// Fake: a test file; Q: a package the change does not touch.
	// Tally: no claim, a mutex, a method changed; Quiet: not changed;
	// Loose: changed, but "not safe"; Bare: changed, no lock; Journal:
	// changed, its lock a wrapper declared in another file; Sink: not
	// changed, but Note.Write's changed line takes its lock (Quiet's
	// lock has the same name).
	got, guarded := claimedTypes(dir, c.ModulePath, c.Packages, r.touchedType, c.OnChangedLine)
	want := []string{"p.Counter", "p.Grouped", "p.Table"}
	if !slices.Equal(got, want) || !slices.Equal(guarded, []string{"p.Journal", "p.Sink", "p.Tally"}) {
		t.Errorf("claimedTypes = %v, %v; want %v, [p.Journal p.Sink p.Tally]", got, guarded, want)
	}
	if !r.changedMethod("example.com/m/p", "Tally", "Add") || r.changedMethod("example.com/m/p", "Table", "Add") {
		t.Errorf("changedMethod: (*Tally).Add changed, (*Table).Add does not exist")
	}
	for i := range c.Files {
		c.Files[i].Lines = nil
	}
	c.Funcs = nil
	if got, guarded := claimedTypes(dir, c.ModulePath, c.Packages, r.touchedType, c.OnChangedLine); len(got)+len(guarded) != 0 {
		t.Errorf("claimedTypes with nothing changed = %v, %v, want none", got, guarded)
	}
}

func TestSplitGenBudget(t *testing.T) {
	_, c := genAutoModule(t)
	for _, tc := range []struct {
		name             string
		opts             Options
		budget, genShare time.Duration
	}{
		{"auto, a claimed type changed", Options{Config: Config{Budget: 2 * time.Minute, GenAuto: true}}, 90 * time.Second, 30 * time.Second},
		{"explicit, added to the budget", Options{Config: Config{Budget: 2 * time.Minute, GenBudget: time.Minute}}, 2 * time.Minute, time.Minute},
		{"auto, no search", Options{Config: Config{GenAuto: true}}, 0, 0},
		{"auto, a later shard", Options{Config: Config{Budget: 2 * time.Minute, GenAuto: true, Shard: 2, Shards: 3}}, 2 * time.Minute, 0},
	} {
		var stderr bytes.Buffer
		r := &job{opts: &tc.opts, change: c, stderr: &stderr}
		r.splitGenBudget()
		if tc.opts.Budget != tc.budget || tc.opts.GenBudget != tc.genShare {
			t.Errorf("%s: budget %v, gen %v; want %v, %v", tc.name, tc.opts.Budget, tc.opts.GenBudget, tc.budget, tc.genShare)
		}
		if logged := strings.Contains(stderr.String(), "p.Counter, p.Grouped, p.Table"); logged != (tc.opts.GenAuto && tc.genShare > 0) {
			t.Errorf("%s: log %q", tc.name, stderr.String())
		}
	}
	// Only a type that holds a mutex changed: gen gets its share.
	c.Files[0].Lines, c.Files[2].Lines, c.Files[3].Lines = nil, nil, nil
	c.Funcs = c.Funcs[1:]
	var stderr bytes.Buffer
	opts := Options{Config: Config{Budget: 2 * time.Minute, GenAuto: true}}
	(&job{opts: &opts, change: c, stderr: &stderr}).splitGenBudget()
	if opts.GenBudget != 30*time.Second || !strings.Contains(stderr.String(), "changed types that hold a mutex or atomic: p.Tally;") {
		t.Errorf("only a guarded type changed: gen %v, log %q", opts.GenBudget, stderr.String())
	}
	// Nothing that claims thread safety or holds a lock changed: the
	// search keeps it all.
	c.Files[1].Lines, c.Funcs = nil, nil
	opts = Options{Config: Config{Budget: 2 * time.Minute, GenAuto: true}}
	(&job{opts: &opts, change: c, stderr: new(bytes.Buffer)}).splitGenBudget()
	if opts.Budget != 2*time.Minute || opts.GenBudget != 0 {
		t.Errorf("no claimed type changed: budget %v, gen %v", opts.Budget, opts.GenBudget)
	}
}

func TestDropSameAccesses(t *testing.T) {
	at := func(line int) checks.Position { return checks.Position{File: "a.go", Line: line} }
	rel := func(line int) []checks.Related { return []checks.Related{{Position: at(line)}} }
	confirmed := checks.Finding{Rule: "IL5003", Pos: at(51), Related: []checks.Related{{Position: at(31)}, {Position: at(13)}}}
	fs := []checks.Finding{
		{Rule: "IL9005", Kind: checks.DataRace, Pos: at(51), Related: rel(31)},    // the same two accesses
		{Rule: "IL9005", Kind: checks.DataRace, Pos: at(51), Related: rel(42)},    // the same unlocked read, another write
		{Rule: "IL9005", Kind: checks.TestFailure, Pos: at(51), Related: rel(42)}, // a wrong result is not a race
		{Rule: "IL9005", Kind: checks.DataRace, Pos: at(31), Related: rel(51)},    // the write side first
		{Rule: "IL9005", Kind: checks.DataRace, Pos: at(42), Related: rel(31)},    // two locked writes: another bug
	}
	kept, dup := dropSameAccesses(fs, []checks.Finding{confirmed})
	if dup != 3 || len(kept) != 2 || kept[0].Kind != checks.TestFailure || kept[1].Pos.Line != 42 {
		t.Errorf("kept %+v, dropped %d; want the test failure and the :42/:31 race kept, 3 dropped", kept, dup)
	}
}

// The base commit's share comes from -budget as given, not from what is
// left after gen's automatic share (a small budget starved the base check
// of a pre-existing leak, which was then posted as new): the search keeps
// it once it found a failure, and the base stage gets it.
func TestBaseBudgetBeforeGenShare(t *testing.T) {
	_, c := genAutoModule(t)
	c.MergeBase = "0123456789abcdef"
	opts := Options{Config: Config{Budget: 2 * time.Minute, GenAuto: true}}
	r := &job{opts: &opts, change: c, stderr: new(bytes.Buffer)}
	r.splitGenBudget()
	if opts.Budget != 90*time.Second {
		t.Fatalf("search budget %v, want 90s", opts.Budget)
	}
	if got := r.baseKeep(); got != 30*time.Second {
		t.Errorf("kept for the base %v, want a quarter of the 2m given", got)
	}
	// The search spent its 90s but what it kept: the base gets that.
	left := 2*time.Minute - (90*time.Second - r.baseKeep())
	if got := baseStageBudget(left, r.genOwed()); got != 30*time.Second {
		t.Errorf("base stage budget %v, want 30s", got)
	}
}

// TestGenKeepWithinBudget, on a fake clock: gen's replay reserve comes
// out of the dynamic search's share, so that gen's search keeps it after
// sequential runs that overran their part and the job still ends within
// 5% of -budget. gocron-stop-twice's pull request: the dynamic search ran
// its 90s, gen's sequential runs took 24s of its 30s (a blocking case
// waits out its timeout, then the base's round), its search got its
// quarter on top, and the job ran 7.6% past -budget. With genKeep 0,
// 28s of sequential runs leave gen's search 3.5s, not its 7.5s (gen's
// own 5% keeps the job's end; gen.TestSearchBudget pins that).
func TestGenKeepWithinBudget(t *testing.T) {
	_, c := genAutoModule(t)
	for _, seq := range []time.Duration{0, 24 * time.Second, 28 * time.Second, 30 * time.Second, 33 * time.Second} {
		opts := Options{Config: Config{Budget: 2 * time.Minute, GenAuto: true}}
		r := &job{opts: &opts, change: c, stderr: new(bytes.Buffer)}
		r.splitGenBudget()
		clock := &fakeClock{t: time.Unix(0, 0)}
		l := newLedger(opts.Budget + r.genOwed())
		l.now = clock.now
		// The search runs as long as it is given.
		l.charge("dynamic", func() { clock.pass(opts.Budget - r.genKeep()) })
		r.budget = l
		g := genStageBudget(l.left(), opts.GenBudget)
		search := gen.SearchBudget(g, r.genOver(), seq, false)
		if search < gen.ReplayReserve(opts.GenBudget) && seq <= opts.GenBudget {
			t.Errorf("sequential runs %v: gen's search gets %v of %v, want at least the replay reserve of its share, %v", seq, search, g, gen.ReplayReserve(opts.GenBudget))
		}
		l.charge("gen", func() { clock.pass(seq + max(search, 0)) })
		if over := l.afterBuild() - l.total; over > l.total/20 {
			t.Errorf("sequential runs %v: the job took %v of -budget %v, over 5%%: %s", seq, l.afterBuild(), l.total, l.line())
		}
	}
	// The r1 run on this branch: the base commit's replays took 10.7s of
	// their 3s, gen got 29.8s and its sequential runs took 22.5s; with
	// gen's own 5% its search got 5.8s and found the restart deadlock with
	// no time left to replay it. The job's 5% gives the search its reserve.
	opts := Options{Config: Config{Budget: 2 * time.Minute, GenAuto: true}}
	r := &job{opts: &opts, change: c, stderr: new(bytes.Buffer)}
	r.splitGenBudget()
	clock := &fakeClock{t: time.Unix(0, 0)}
	r.budget = newLedger(opts.Budget + r.genOwed())
	r.budget.now = clock.now
	r.budget.charge("dynamic", func() { clock.pass(79500 * time.Millisecond) })
	r.budget.charge("base", func() { clock.pass(10700 * time.Millisecond) })
	g := genStageBudget(r.budget.left(), opts.GenBudget)
	seq := 22500 * time.Millisecond
	search := gen.SearchBudget(g, r.genOver(), seq, true)
	if want := gen.ReplayReserve(g); search < want {
		t.Errorf("base overran: gen's search gets %v of %v, want its replay reserve, %v", search, g, want)
	}
	r.budget.charge("gen", func() { clock.pass(seq + search + g/10) }) // and gen's base check
	if over := r.budget.afterBuild() - r.budget.total; over > r.budget.total/20 {
		t.Errorf("base overran: the job took %v of -budget %v, over 5%%: %s", r.budget.afterBuild(), r.budget.total, r.budget.line())
	}
}

// TestCandidateOwners: a candidate in a method of an unexported type gives
// gen its share through the exported types holding that type (embedded, a
// pointer field, a map of pointers), not through one that merely names it
// elsewhere, and not for a candidate of an exported type. Fails without
// candidateOwners in splitGenBudget: no changed type claims or holds a
// lock, so the search kept the whole budget.
func TestCandidateOwners(t *testing.T) {
	dir := t.TempDir()
	src := `package hooks

type chain struct{ cur string }

func (h *chain) process() string {
	return h.cur
}

type Client struct {
	*chain
}

type Group struct {
	byID map[string]*chain
}

type Router struct{ n int }

func (r *Router) Route() { h := &chain{}; _ = h.process() }

type Open struct{ cur string }

func (o *Open) Read() string {
	return o.cur
}
`
	if err := os.WriteFile(filepath.Join(dir, "hooks.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cand := func(line int) checks.Finding {
		return checks.Finding{Rule: "IL1001", Pos: checks.Position{File: "hooks.go", Line: line}}
	}
	if got, want := candidateOwners([]checks.Finding{cand(6)}, dir), []string{"hooks.Client", "hooks.Group"}; !reflect.DeepEqual(got, want) {
		t.Errorf("candidateOwners = %v, want %v", got, want)
	}
	if got := candidateOwners([]checks.Finding{cand(24)}, dir); len(got) != 0 {
		t.Errorf("an exported type's candidate: owners %v, want none", got)
	}
	var stderr bytes.Buffer
	opts := Options{Config: Config{Budget: 2 * time.Minute, GenAuto: true}}
	(&job{opts: &opts, change: &affected.Change{ModuleDir: dir}, stderr: &stderr, candidates: []checks.Finding{cand(6)}}).splitGenBudget()
	if opts.GenBudget != 30*time.Second || !strings.Contains(stderr.String(), "hooks.Client, hooks.Group") {
		t.Errorf("owners of a candidate's type: gen %v, log %q", opts.GenBudget, stderr.String())
	}
}
