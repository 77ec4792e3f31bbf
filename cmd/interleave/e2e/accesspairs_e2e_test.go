package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/static"
	"github.com/interleave-dev/interleave/report"
)

// The access-pair kernel, in the shapes of two real unguarded-field bugs
// (written for this test): the change moves Pool.Add's lookup of p.all out
// of p.mu (a transaction pool's lookup against Clear, which replaces the
// table under the lock) and drops the lock from Chain's unexported process
// (a hook chain read while AddHook rewrites it under the lock), and adds
// Gate.Name, the correct mirror: it reads g.name without g.mu, but only
// after the channel closed behind the locked write, so no schedule races.
// Each type has locked readers, a changed method's usual partners.
const accessPairsCommon = `package txpool

import "sync"

// Pool holds pending transactions by hash.
type Pool struct {
	mu  sync.Mutex
	all map[string]int
	seq int
}

// NewPool returns an empty pool.
func NewPool() *Pool { return &Pool{all: map[string]int{}} }

// Clear drops every transaction.
func (p *Pool) Clear() {
	p.mu.Lock()
	p.all = map[string]int{}
	p.mu.Unlock()
}

// Len is the number of transactions.
func (p *Pool) Len() int { p.mu.Lock(); defer p.mu.Unlock(); return len(p.all) }

// Seq is the last sequence number given.
func (p *Pool) Seq() int { p.mu.Lock(); defer p.mu.Unlock(); return p.seq }

type hook struct {
	name string
	next *hook
}

// Chain runs commands through its hooks.
type Chain struct {
	mu      sync.Mutex
	current *hook
	n       int
}

// NewChain returns a chain with one hook.
func NewChain() *Chain { return &Chain{current: &hook{name: "base"}} }

// Process runs cmd through the hooks.
func (c *Chain) Process(cmd string) string { return c.process(cmd) }

// AddHook puts a hook in front of the others.
func (c *Chain) AddHook(name string) {
	c.mu.Lock()
	c.current = &hook{name: name, next: c.current}
	c.n++
	c.mu.Unlock()
}

// Hooks is the number of hooks added.
func (c *Chain) Hooks() int { c.mu.Lock(); defer c.mu.Unlock(); return c.n }

// First is the first hook's name.
func (c *Chain) First() string { c.mu.Lock(); defer c.mu.Unlock(); return c.current.name }

// Gate hands out a name once one is set.
type Gate struct {
	mu    sync.Mutex
	name  string
	n     int
	ready chan struct{}
}

// NewGate returns a gate with no name.
func NewGate() *Gate { return &Gate{ready: make(chan struct{})} }

// Set names the gate the first time; later calls are counted.
func (g *Gate) Set(name string) {
	g.mu.Lock()
	if g.n == 0 {
		g.name = name
		close(g.ready)
	}
	g.n++
	g.mu.Unlock()
}

// Label is the name, under the lock.
func (g *Gate) Label() string { g.mu.Lock(); defer g.mu.Unlock(); return g.name }

// Greeting greets by the name, under the lock.
func (g *Gate) Greeting() string { g.mu.Lock(); defer g.mu.Unlock(); return "hi " + g.name }

// Sets is the number of Set calls.
func (g *Gate) Sets() int { g.mu.Lock(); defer g.mu.Unlock(); return g.n }
`

const accessPairsBase = accessPairsCommon + `
// Add adds a transaction; false when the hash is known.
func (p *Pool) Add(hash string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.all[hash]; ok {
		return false
	}
	p.seq++
	p.all[hash] = p.seq
	return true
}

func (c *Chain) process(cmd string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.current.name + ":" + cmd
}
`

const accessPairsHead = accessPairsCommon + `
// Add adds a transaction; false when the hash is known.
func (p *Pool) Add(hash string) bool {
	if _, known := p.all[hash]; known {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seq++
	p.all[hash] = p.seq
	return true
}

func (c *Chain) process(cmd string) string {
	first := c.current.name
	return first + ":" + cmd
}

// Name is the gate's name once set, else "".
func (g *Gate) Name() string {
	select {
	case <-g.ready:
		return g.name
	default:
		return ""
	}
}
`

const accessPairsTest = `package txpool

import "testing"

func TestAdd(t *testing.T) {
	p := NewPool()
	if !p.Add("a") || p.Add("a") || p.Len() != 1 {
		t.Fatal("bad pool")
	}
}
`

// TestPRGenAccessPairs: the candidates on the change that no existing
// test reaches concurrently (the change rewrites their lines: a finding on
// a line the change did not touch, where it only removed a lock, is out of
// pr's scope) are confirmed by generated tests that call the
// candidate's two sides on one value, and replay: Pool.Add's unguarded
// lookup, and Chain's unguarded read in the unexported process (reached
// through Process, against AddHook). The mirror, Gate.Name, is no
// candidate at all: its read is in a select case receiving from a channel
// that is only closed, right after every write of the field (guardedby's
// closeorder.go), so it is neither in the report nor in the job summary.
// Fails
// without the candidates' confirmation by generated tests; gen's access
// pairs themselves are tested by gen's TestAccessPairsFirst (here other
// cases on the changed methods may reach the same pairs: a first run in
// which the candidates were out of scope found both races in other cases).
func TestPRGenAccessPairs(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds instrumented tests")
	}
	ch := newPullChange(t, map[string]string{
		"go.mod":              "module example.com/txpool\n\ngo 1.22\n",
		"txpool/pool.go":      accessPairsBase,
		"txpool/pool_test.go": accessPairsTest,
	}, map[string]string{"txpool/pool.go": accessPairsHead})
	lookup := lineIn(t, accessPairsHead, "if _, known := p.all[hash]; known {")
	read := lineIn(t, accessPairsHead, "first := c.current.name")
	name := lineIn(t, accessPairsHead, "\t\treturn g.name")

	sum := filepath.Join(ch.dir, "summary.md")
	rep, _, stderr := ch.prFindings(t, "-budget", "3m", "-gen-budget", "4m", "-count", genCount, "-workers", prWorkers, "-seed", "3", "-summary", sum, "-v")
	got := map[int]*report.JSONFinding{}
	for i, f := range rep.Findings {
		t.Logf("finding %s %s %s:%d %s (%s)", f.Rule, f.Evidence, f.Pos.File, f.Pos.Line, f.Message, f.Replay)
		switch {
		case f.Pos.Line == name:
			t.Errorf("the mirror's read is reported (%s): %s", f.Evidence, f.Message)
		case f.Kind == checks.DataRace:
			t.Errorf("a race is reported on its own, not as the candidate it confirms: %s", f.Message)
		}
		if f.Evidence == checks.Confirmed {
			got[f.Pos.Line] = &rep.Findings[i]
		}
	}
	var confirmed []*report.JSONFinding
	for _, line := range []int{lookup, read} {
		f := got[line]
		if f == nil || !strings.Contains(f.Test, "TestInterleaveGen_") || f.Schedule == "" {
			t.Errorf("the candidate at pool.go:%d is not confirmed by a generated test: %+v", line, f)
			continue
		}
		confirmed = append(confirmed, f)
	}
	ch.replays(t, confirmed...)
	md, err := os.ReadFile(sum)
	if err != nil {
		t.Fatal(err)
	}
	if mirror := "`txpool/pool.go:" + strconv.Itoa(name) + "`"; strings.Contains(string(md), mirror) {
		t.Errorf("the summary lists the mirror's read %q:\n%s", mirror, md)
	}
	// Pool.Add's lookup is IL1008: while that rule is posted unconfirmed
	// it is not a target of confirmation, and Chain's candidate is the
	// one targeted and confirmed.
	want := "(2 by a generated test)"
	if static.PostedUnconfirmed("IL1008") {
		want = "(1 by a generated test)"
	}
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr (-v) does not say %s", want)
	}
}
