package prjob

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/gen"
)

// TestCandidateSides: a candidate's own position and each related one
// give the pair of methods (exported or not) gen reaches and calls against
// each other: Add's unguarded lookup against Clear's locked write;
// process's read against AddHook; a related position on another type
// (Pool.Add against Chain.AddHook: gen looks for a type reaching both). A
// position in a function gives none, and a second candidate on the same
// two methods no second pair.
func TestCandidateSides(t *testing.T) {
	dir := t.TempDir()
	src := `package pool

import "sync"

type Pool struct {
	mu  sync.Mutex
	all map[string]int
}

func (p *Pool) Add(h string) bool {
	_, ok := p.all[h]
	return ok
}

func (p *Pool) Clear() { p.mu.Lock(); p.all = nil; p.mu.Unlock() }

type Chain struct {
	mu  sync.Mutex
	cur string
}

func (c *Chain) Process() string { return c.process() }

func (c *Chain) Both() string { return c.Process() + c.process() }

func (c *Chain) process() string {
	return c.cur
}

func (c *Chain) AddHook(n string) { c.mu.Lock(); c.cur = n; c.mu.Unlock() }

func helper() {}
`
	file := filepath.Join(dir, "pool", "pool.go")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	rel := func(line int) []checks.Related {
		return []checks.Related{{Position: checks.Position{File: file, Line: line}}}
	}
	cands := []checks.Finding{
		{Rule: "IL1009", Pos: checks.Position{File: "pool/pool.go", Line: 11}, Related: rel(15)},
		{Rule: "IL1001", Pos: checks.Position{File: "pool/pool.go", Line: 27}, Related: rel(30)},
		{Rule: "IL1001", Pos: checks.Position{File: "pool/pool.go", Line: 11}, Related: rel(30)}, // the other side on another type
		{Rule: "IL1006", Pos: checks.Position{File: "pool/pool.go", Line: 32}},                   // in a function
		{Rule: "IL1009", Pos: checks.Position{File: "pool/pool.go", Line: 12}, Related: rel(15)}, // Add ∥ Clear again
	}
	got := candidateSides(cands, dir)
	want := map[string][][2]gen.Method{
		filepath.Join(dir, "pool"): {
			{{Type: "Pool", Name: "Add"}, {Type: "Pool", Name: "Clear"}},
			{{Type: "Chain", Name: "process"}, {Type: "Chain", Name: "AddHook"}},
			{{Type: "Pool", Name: "Add"}, {Type: "Chain", Name: "AddHook"}},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("candidateSides = %v, want %v", got, want)
	}
}

// TestConfirmNeedsTheAccess: a race confirms a candidate only when the
// candidate's own access is one of the racing ones. A race between the
// locked write the candidate cites (account.go:31) and another access
// (account.go:77) leaves it unconfirmed and is reported on its own; the
// race at its access (account.go:51) confirms it. Fails without racesAt:
// the cited write alone confirmed the candidate.
func TestConfirmNeedsTheAccess(t *testing.T) {
	dir := "/repo"
	pos := func(line int) checks.Position { return checks.Position{File: "/repo/account.go", Line: line} }
	cand := checks.Finding{Rule: "IL1001", Severity: checks.Warning, Message: "read without lock", Evidence: checks.Static, Pos: pos(51),
		Related: []checks.Related{{Position: pos(31)}}}
	race := func(test string, a, b int) checks.Finding {
		return checks.Finding{Rule: checks.DynamicRuleID(checks.DataRace), Severity: checks.Error, Evidence: checks.Dynamic, Kind: checks.DataRace,
			Test: test, Pos: checks.Position{File: "account.go", Line: a}, Related: []checks.Related{{Position: checks.Position{File: "account.go", Line: b}}},
			Schedule: "/repo/s/" + test + ".json", Replay: "interleave replay s/" + test + ".json"}
	}
	st := &confirmStats{searched: true}
	got := confirmAll(nil, []checks.Finding{cand}, []checks.Finding{race("TestOther", 31, 77)}, dir, st)
	if len(got) != 1 || got[0].Kind != checks.DataRace || len(st.unconfirmed) != 1 {
		t.Fatalf("a race at the cited write and another access: report %+v, unconfirmed %d; want the race alone, the candidate unconfirmed", got, len(st.unconfirmed))
	}
	st = &confirmStats{searched: true}
	got = confirmAll(nil, []checks.Finding{cand}, []checks.Finding{race("TestInterest", 31, 51)}, dir, st)
	if len(got) != 1 || got[0].Evidence != checks.Confirmed || got[0].Test != "TestInterest" {
		t.Fatalf("the race at the candidate's access: report %+v; want the candidate confirmed by TestInterest", got)
	}
}

// TestGenOnBaseConfirmsCandidate: a generated race in the change whose test
// fails the same way on the base commit still confirms the candidate at
// its access (as a search failure does: confirmation comes before the
// base comparison), and then is not listed as pre-existing; the on-base
// race elsewhere stays pre-existing. Fails without confirmByOnBase: the
// candidate stayed unconfirmed and the race went to the summary.
func TestGenOnBaseConfirmsCandidate(t *testing.T) {
	r := genScopeJob()
	r.change.MergeBase = "0123456789abcdef"
	cand := checks.Finding{Rule: "IL1009", Evidence: checks.Static, Severity: checks.Warning, Message: "c.n read without c.mu",
		Pos: checks.Position{File: "/m/p/c.go", Line: 21}}
	r.confirm.unconfirmed = []checks.Finding{cand}
	hit := genRace("TestInterleaveGen_Cache_1", 21, goroutine("g1", "read", 21, "(*Cache).Get"), goroutine("g2", "write", 45, "(*Cache).Add"))
	other := genRace("TestInterleaveGen_Cache_2", 17, goroutine("g1", "write", 17, "(*Cache).Get"), goroutine("g2", "read", 50, "(*Cache).Len"))
	r.genOnBase = []checks.Finding{hit, other}
	final, news := r.addGenFindings(nil, nil, nil)
	pre := r.genPreExisting()
	if len(final) != 1 || final[0].Evidence != checks.Confirmed || final[0].Test != hit.Test || len(news) != 0 {
		t.Fatalf("final %+v, news %+v; want the candidate confirmed by %s", final, news, hit.Test)
	}
	if r.confirm.byGen != 1 || len(r.confirm.unconfirmed) != 0 {
		t.Errorf("confirm stats %+v; want one confirmed by gen, none left", r.confirm)
	}
	if len(pre) != 1 || pre[0].Test != other.Test {
		t.Errorf("pre-existing %+v; want %s only", pre, other.Test)
	}
}
