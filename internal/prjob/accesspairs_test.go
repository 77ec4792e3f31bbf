package prjob

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/interleave-dev/interleave/checks"
)

// TestCandidatePairs: a candidate's own position and each related one
// give the pair of exported methods gen calls against each other: Add's
// unguarded lookup against Clear's locked write; process, unexported, is
// reached through Process (and Both), so its candidate pairs them with
// AddHook. A related position on another type, and a function, give none.
// Fails without candidatePairs' entries (process has no exported side).
func TestCandidatePairs(t *testing.T) {
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
	}
	got := candidatePairs(cands, dir)
	pkg := filepath.Join(dir, "pool")
	want := map[string][][2]string{
		typeKey(pkg, "Pool"):  {{"Add", "Clear"}},
		typeKey(pkg, "Chain"): {{"Both", "AddHook"}, {"Process", "AddHook"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("candidatePairs = %v, want %v", got, want)
	}
}
