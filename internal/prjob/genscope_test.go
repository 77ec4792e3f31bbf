package prjob

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/affected/diff"
	"github.com/interleave-dev/interleave/checks"
)

// A change to p/c.go: lines 20-22 rewritten, inside (*Cache).Get (15-25).
func genScopeJob() *job {
	c := &affected.Change{
		Root: "/m", ModuleDir: "/m", ModulePath: "example.com/m",
		Packages: []string{"example.com/m/p"},
		Files: []affected.File{{Path: "p/c.go", Package: "example.com/m/p", Analyzed: true,
			Lines: []diff.Range{{Start: 20, End: 22}}}},
		Funcs: []affected.Func{{Package: "example.com/m/p", File: "p/c.go", Name: "(*Cache).Get", Line: 15, EndLine: 25}},
	}
	return &job{opts: &Options{}, change: c}
}

// goroutine is a goroutine of a finding at p/c.go:line in fn, called by a
// generated test.
func goroutine(id, state string, line int, fn string) checks.Goroutine {
	site := "p/c.go:" + strconv.Itoa(line)
	return checks.Goroutine{ID: id, State: state, Site: site, Stack: []checks.Frame{
		{Func: "example.com/m/p." + fn, File: "p/c.go", Line: line},
		{Func: "example.com/m/p_test.TestInterleaveGen_Cache_3.func2", File: "p/interleave_gen_test.go", Line: 40},
	}}
}

func genRace(test string, pos int, gs ...checks.Goroutine) checks.Finding {
	return checks.Finding{Rule: "IL9005", Kind: checks.DataRace, Evidence: checks.Dynamic, Severity: checks.Error,
		Package: "example.com/m/p", Test: test, Message: "data race", Schedule: ".interleave/schedules/" + test + ".json",
		Pos: checks.Position{File: "p/c.go", Line: pos}, Goroutines: gs}
}

// TestGenScope: a generated finding is the change's only when one side of
// it is on a changed line or in a changed function. Fails without the
// scope (genInChange): the race between Reset and Len is reported.
func TestGenScope(t *testing.T) {
	r := genScopeJob()
	unchanged := genRace("TestInterleaveGen_Cache_1", 40, goroutine("g1", "write", 40, "(*Cache).Reset"), goroutine("g2", "read", 50, "(*Cache).Len"))
	inFunc := genRace("TestInterleaveGen_Cache_2", 17, goroutine("g1", "write", 17, "(*Cache).Get"), goroutine("g2", "read", 50, "(*Cache).Len"))
	stuck := checks.Finding{Rule: "IL9003", Kind: checks.Deadlock, Evidence: checks.Dynamic, Severity: checks.Error,
		Package: "example.com/m/p", Test: "TestInterleaveGen_Cache_4", Message: "deadlock",
		Pos: checks.Position{File: "p/c.go", Line: 21}, Goroutines: []checks.Goroutine{goroutine("g1", "Mutex.Lock", 21, "(*Cache).Get")}}
	// A failure of the test's own check, shown at the type's declaration
	// (here on a changed line): that place is not the failure's side.
	moved := genRace("TestInterleaveGen_Cache_5", 21, goroutine("g1", "write", 40, "(*Cache).Reset"), goroutine("g2", "read", 50, "(*Cache).Len"))
	moved.Related = []checks.Related{{Position: checks.Position{File: "p/interleave_gen_test.go", Line: 33}, Message: "the generated test"}}
	for _, tc := range []struct {
		f    checks.Finding
		want bool
	}{{unchanged, false}, {inFunc, true}, {stuck, true}, {moved, false}} {
		if got := r.genInChange(&tc.f); got != tc.want {
			t.Errorf("%s: genInChange = %v, want %v", tc.f.Test, got, tc.want)
		}
	}
	_, news := r.addGenFindings([]checks.Finding{unchanged, inFunc, stuck, moved}, nil, nil)
	if len(news) != 2 || news[0].Test != inFunc.Test || news[1].Test != stuck.Test {
		t.Errorf("reported %d generated findings %v, want the Get race and the deadlock", len(news), news)
	}
	for _, f := range news {
		if f.Baseline != checks.BaselineNew {
			t.Errorf("%s: baseline %q, want new", f.Test, f.Baseline)
		}
	}
	if len(r.notes) != 1 || !strings.Contains(r.notes[0], "2 generated findings between code the change did not touch") ||
		!strings.Contains(r.notes[0], "TestInterleaveGen_Cache_1") {
		t.Errorf("notes %q: want the two unscoped findings counted and listed", r.notes)
	}
}

// TestGenGroupsWithSearch: a generated race of the cause a search finding
// reports (both write in Get) is one finding, listing the other. Fails
// without the grouping (explore.Group in addGenFindings).
func TestGenGroupsWithSearch(t *testing.T) {
	r := genScopeJob()
	search := genRace("TestReaders", 20, goroutine("g1", "write", 20, "(*Cache).Get"), goroutine("g2", "read", 30, "(*Cache).Stats"))
	search.Baseline = checks.BaselineNew
	gen := genRace("TestInterleaveGen_Cache_7", 21, goroutine("g1", "write", 21, "(*Cache).Get"), goroutine("g2", "read", 21, "(*Cache).Get"))
	other := genRace("TestInterleaveGen_Cache_8", 22, goroutine("g1", "write", 22, "(*Cache).Get"), goroutine("g2", "read", 22, "(*Cache).Get"))
	_, news := r.addGenFindings([]checks.Finding{gen, other}, nil, []checks.Finding{search})
	if len(news) != 1 || len(news[0].SameCause) != 2 {
		t.Fatalf("%d findings %+v; want one, listing the two generated ones", len(news), news)
	}
}

// TestGenConfirmsCandidate: an unconfirmed candidate on changed code that
// a generated schedule hits is confirmed, and reported with that schedule;
// the others stay unconfirmed. Fails without the confirmation in
// addGenFindings.
func TestGenConfirmsCandidate(t *testing.T) {
	r := genScopeJob()
	hit := checks.Finding{Rule: "IL3001", Evidence: checks.Static, Severity: checks.Warning, Message: "plain read of c.n",
		Pos: checks.Position{File: "/m/p/c.go", Line: 21}}
	missed := checks.Finding{Rule: "IL3001", Evidence: checks.Static, Severity: checks.Warning, Message: "plain read of c.k",
		Pos: checks.Position{File: "/m/p/c.go", Line: 60}}
	r.confirm.unconfirmed = []checks.Finding{hit, missed}
	race := genRace("TestInterleaveGen_Cache_9", 21, goroutine("g1", "read", 21, "(*Cache).Get"), goroutine("g2", "write", 45, "(*Cache).Add"))
	final, news := r.addGenFindings([]checks.Finding{race}, nil, nil)
	if len(news) != 0 || len(final) != 1 {
		t.Fatalf("final %+v, news %+v; want the candidate confirmed and the race folded into it", final, news)
	}
	if f := final[0]; f.Evidence != checks.Confirmed || f.Schedule != race.Schedule || f.Pos.Line != 21 {
		t.Errorf("confirmed %+v; want IL3001 at :21 with the generated test's schedule", f)
	}
	if len(r.confirm.unconfirmed) != 1 || r.confirm.unconfirmed[0].Pos.Line != 60 || r.confirm.confirmed != 1 || r.confirm.byGen != 1 {
		t.Errorf("confirm stats %+v; want :60 left unconfirmed, one confirmed by gen", r.confirm)
	}
	if !strings.Contains(r.confirm.logLine(), "(1 by a generated test)") {
		t.Errorf("log line %q does not say a generated test confirmed one", r.confirm.logLine())
	}
}

// TestCandidateMethods: the methods a candidate's positions are in (the
// plain read in Ops, the atomic write in Deposit it names) are the ones
// generated tests call first.
func TestCandidateMethods(t *testing.T) {
	dir := t.TempDir()
	src := `package bank

import "sync/atomic"

type Account struct{ ops int64 }

func (a *Account) Deposit() {
	atomic.AddInt64(&a.ops, 1)
}

func (a *Account) Ops() int64 {
	return a.ops
}

func (a *Account) Reset() { a.ops = 0 }

type Box[T any] struct{ v T }

func (b *Box[T]) Get() T { return b.v }

func helper() {}
`
	file := filepath.Join(dir, "bank", "bank.go")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cands := []checks.Finding{
		{Rule: "IL3001", Pos: checks.Position{File: "bank/bank.go", Line: 12}, Related: []checks.Related{{Position: checks.Position{File: file, Line: 8}}}},
		{Rule: "IL1006", Pos: checks.Position{File: "bank/bank.go", Line: 19}},
		{Rule: "IL1006", Pos: checks.Position{File: "bank/bank.go", Line: 21}}, // in a function
	}
	got := candidateMethods(cands, dir)
	pkg := filepath.Join(dir, "bank")
	want := map[string]bool{methodKey(pkg, "Account", "Ops"): true, methodKey(pkg, "Account", "Deposit"): true, methodKey(pkg, "Box", "Get"): true}
	if len(got) != len(want) {
		t.Errorf("candidateMethods = %v, want %v", got, want)
	}
	for k := range want {
		if !got[k] {
			t.Errorf("candidateMethods lacks %s: %v", k, got)
		}
	}
}

// TestGenScopeOwnCheck: a generated test's own check failing ("not
// linearizable", no goroutine stacks) is the change's only when its
// goroutines called a changed method (gen.Result.Focused). gocron v1.15.0
// got one on Do, FindJobsByTag and EveryRandom, none of them changed.
// Fails without the Focused check (genInChange returned true for both).
func TestGenScopeOwnCheck(t *testing.T) {
	r := genScopeJob()
	own := func(test string) checks.Finding {
		return checks.Finding{Rule: "IL9002", Kind: checks.TestFailure, Evidence: checks.Dynamic, Severity: checks.Error,
			Package: "example.com/m/p", Test: test, Message: "not linearizable",
			Pos:     checks.Position{File: "p/c.go", Line: 10},
			Related: []checks.Related{{Position: checks.Position{File: "p/interleave_gen_test.go", Line: 63}, Message: "the generated test"}}}
	}
	focused, other := own("TestInterleaveGen_Cache_6"), own("TestInterleaveGen_Cache_7")
	r.genFocused = map[string]bool{"example.com/m/p.TestInterleaveGen_Cache_6": true}
	if !r.genInChange(&focused) {
		t.Errorf("%s called a changed method: want it the change's", focused.Test)
	}
	if r.genInChange(&other) {
		t.Errorf("%s called no changed method: want it out of the change", other.Test)
	}
}

// TestGenDeadlockOnChangedLine: a generated deadlock shown at a stuck
// goroutine in a changed function but not on a changed line (gocron's
// executor select) is shown at the goroutine stuck on a changed line
// (gocron's Stop on the changed send) instead, where the comment goes.
// Fails without placeOnChangedLine: it stays at line 17.
func TestGenDeadlockOnChangedLine(t *testing.T) {
	r := genScopeJob()
	dl := checks.Finding{Rule: "IL9003", Kind: checks.Deadlock, Evidence: checks.Dynamic, Severity: checks.Error,
		Package: "example.com/m/p", Test: "TestInterleaveGen_Cache_36", Message: "deadlock", Func: "example.com/m/p.(*Cache).loop",
		Snippet: "select {", Pos: checks.Position{File: "p/c.go", Line: 17},
		Goroutines: []checks.Goroutine{goroutine("g1", "select", 17, "(*Cache).Get"), goroutine("g2", "chan send", 21, "(*Cache).stop")}}
	_, news := r.addGenFindings([]checks.Finding{dl}, nil, nil)
	if len(news) != 1 {
		t.Fatalf("%d findings, want the deadlock", len(news))
	}
	if f := news[0]; f.Pos.Line != 21 || f.Func != "example.com/m/p.(*Cache).stop" || f.Snippet != "" {
		t.Errorf("deadlock at line %d in %s (%q), want line 21 in (*Cache).stop, no stale snippet", f.Pos.Line, f.Func, f.Snippet)
	}
}

// TestGenDeadlockInWrapper: a generated deadlock whose stuck goroutines
// are all in unchanged code, one of them called from a changed line
// (logrus v1.5.0: stuck in the lock wrapper's MutexWrap.Lock, called by
// WithFields on the changed entry.Logger.mu.Lock()), is shown at that
// call. Fails without placeOnChangedLine's frames: it stays at line 40.
func TestGenDeadlockInWrapper(t *testing.T) {
	r := genScopeJob()
	stuck := checks.Goroutine{ID: "g0", State: "Mutex.Lock", Site: "p/c.go:40", Stack: []checks.Frame{
		{Func: "example.com/m/p.(*lockWrap).Lock", File: "p/c.go", Line: 40},
		{Func: "example.com/m/p.(*Cache).Get", File: "p/c.go", Line: 21},
		{Func: "example.com/m/p_test.TestInterleaveGen_Cache_3.func2", File: "p/interleave_gen_test.go", Line: 40},
	}}
	dl := checks.Finding{Rule: "IL9003", Kind: checks.Deadlock, Evidence: checks.Dynamic, Severity: checks.Error,
		Package: "example.com/m/p", Test: "TestInterleaveGen_Cache_38", Message: "deadlock", Func: "example.com/m/p.(*lockWrap).Lock",
		Pos: checks.Position{File: "p/c.go", Line: 40}, Goroutines: []checks.Goroutine{stuck}}
	_, news := r.addGenFindings([]checks.Finding{dl}, nil, nil)
	if len(news) != 1 {
		t.Fatalf("%d findings, want the deadlock", len(news))
	}
	if f := news[0]; f.Pos.Line != 21 || f.Func != "example.com/m/p.(*Cache).Get" {
		t.Errorf("deadlock at line %d in %s, want line 21 in (*Cache).Get", f.Pos.Line, f.Func)
	}
}

// TestGenPreExisting: a generated finding whose test fails the same way on
// the base commit (gen.Result.OnBase, puddle v2.1.0's Reset race) goes to
// the summary as pre-existing when it is in the change, and to a note when
// not; neither is posted. Fails without genPreExisting: nothing is
// pre-existing.
func TestGenPreExisting(t *testing.T) {
	r := genScopeJob()
	r.change.MergeBase = "0123456789abcdef"
	in := genRace("TestInterleaveGen_Cache_1", 21, goroutine("g1", "running", 21, "(*Cache).Get"))
	out := genRace("TestInterleaveGen_Cache_2", 40, goroutine("g1", "running", 40, "(*Cache).Len"))
	r.genOnBase = []checks.Finding{in, out}
	final, news := r.addGenFindings(nil, nil, nil)
	pre := r.genPreExisting()
	if len(final)+len(news) != 0 {
		t.Errorf("posted %d findings, want none", len(final)+len(news))
	}
	if len(pre) != 1 || pre[0].Test != in.Test || pre[0].Baseline != checks.BaselineUnchanged {
		t.Fatalf("pre-existing %+v, want %s only, unchanged", pre, in.Test)
	}
	if len(r.notes) != 1 || !strings.Contains(r.notes[0], "2 generated findings whose test fails the same way on the base commit 0123456789ab, not the change's (1 in the summary") ||
		!strings.Contains(r.notes[0], "data-race at p/c.go:40 in TestInterleaveGen_Cache_2") {
		t.Errorf("notes %q", r.notes)
	}
}

// TestGenRaceOnChangedLine: a generated data race reported at its access
// in unchanged code (zap v1.26.0: the read in Logger.check) is shown at
// its other access when that one is on a changed line (the write in the
// new lazy_with.go), where the comment goes; the unchanged access stays,
// related. Fails without placeOnChangedLine's data-race case: it stays at
// line 40.
func TestGenRaceOnChangedLine(t *testing.T) {
	r := genScopeJob()
	race := genRace("TestInterleaveGen_Cache_38", 40, goroutine("g1", "read", 40, "(*Cache).Len"), goroutine("g2", "previous write", 21, "(*Cache).Get"))
	race.Func = "example.com/m/p.(*Cache).Len"
	race.Related = []checks.Related{{Position: checks.Position{File: "p/c.go", Line: 21}, Message: "previous write in p.(*Cache).Get"}}
	_, news := r.addGenFindings([]checks.Finding{race}, nil, nil)
	if len(news) != 1 {
		t.Fatalf("%d findings, want the race", len(news))
	}
	f := news[0]
	if f.Pos.Line != 21 || f.Func != "example.com/m/p.(*Cache).Get" {
		t.Errorf("race at line %d in %s, want line 21 in (*Cache).Get", f.Pos.Line, f.Func)
	}
	if len(f.Related) != 1 || f.Related[0].Line != 40 {
		t.Errorf("related %+v, want the read at line 40", f.Related)
	}
}

// TestCandidateInChangedFunc: a candidate (an opt-in rule's finding) on an
// unchanged line of a changed function is the change's to confirm (a pull
// request that deletes a lock leaves the access it guarded as it was); one
// outside the changed functions is not. Fails without inChangedFunc (the
// end-to-end TestPRGenOwnedCandidate, behind -tags heavy, checks it too).
func TestCandidateInChangedFunc(t *testing.T) {
	r := genScopeJob()
	r.opts.Scope = ScopeChanged
	at := func(line int) *checks.Finding {
		return &checks.Finding{Rule: "IL1008", Evidence: checks.Static, Pos: checks.Position{File: "p/c.go", Line: line}}
	}
	if r.inScope(at(17)) || !r.inChangedFunc(at(17)) {
		t.Errorf("p/c.go:17 (an unchanged line of the changed (*Cache).Get): in scope %v, in a changed function %v; want false, true", r.inScope(at(17)), r.inChangedFunc(at(17)))
	}
	if r.inChangedFunc(at(40)) {
		t.Error("p/c.go:40 (no changed function) is in a changed function")
	}
}
