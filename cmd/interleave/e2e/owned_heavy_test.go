//go:build heavy

package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/report"
)

// The owned-candidate kernel (written for this test, in the shape of a
// client's hook chain): the change deletes the lock around hookChain's
// unexported process, so its read of h.current is a candidate on a line
// the change did not touch, in a changed function, of an unexported type
// that no generated test could call. Client embeds the chain, and its Do
// reaches process while the promoted AddHook writes h.current under h.mu.
// The change also adds gate.Name, the correct mirror: it reads g.name
// without g.mu, but only after the channel closed behind the locked
// write; Door embeds the gate (Name is promoted, Label reaches it). Both
// unexported types claim safety for concurrent use (what makes the static
// pass report an access in an unexported type).
const ownedCommon = `package hooks

import "sync"

// hookChain runs commands through hooks; it is safe for concurrent use.
type hookChain struct {
	mu      sync.Mutex
	current string
	n       int
}

// AddHook puts a hook in front of the others.
func (h *hookChain) AddHook(name string) {
	h.mu.Lock()
	h.current = name + ">" + h.current
	h.n++
	h.mu.Unlock()
}

// Hooks is the number of hooks added.
func (h *hookChain) Hooks() int { h.mu.Lock(); defer h.mu.Unlock(); return h.n }

// First is the whole chain.
func (h *hookChain) First() string { h.mu.Lock(); defer h.mu.Unlock(); return h.current }

// Client sends commands through its hooks.
type Client struct {
	*hookChain
	name string
}

// NewClient returns a client with no hooks.
func NewClient() *Client { return &Client{hookChain: &hookChain{current: "base"}, name: "c"} }

// Do runs cmd through the hooks.
func (c *Client) Do(cmd string) string { return c.process(cmd) }

// gate hands out a name once one is set; it is safe for concurrent use.
type gate struct {
	mu    sync.Mutex
	name  string
	n     int
	ready chan struct{}
}

// Set names the gate the first time; later calls are counted.
func (g *gate) Set(name string) {
	g.mu.Lock()
	if g.n == 0 {
		g.name = name
		close(g.ready)
	}
	g.n++
	g.mu.Unlock()
}

// Sets is the number of Set calls.
func (g *gate) Sets() int { g.mu.Lock(); defer g.mu.Unlock(); return g.n }

// Greeting greets by the name, under the lock.
func (g *gate) Greeting() string { g.mu.Lock(); defer g.mu.Unlock(); return "hi " + g.name }

// Door opens once its gate is named.
type Door struct {
	*gate
}

// NewDoor returns a door with an unnamed gate.
func NewDoor() *Door { return &Door{&gate{ready: make(chan struct{})}} }
`

const ownedBase = ownedCommon + `
func (h *hookChain) process(cmd string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.current + ":" + cmd
}
`

const ownedHead = ownedCommon + `
func (h *hookChain) process(cmd string) string {
	return h.current + ":" + cmd
}

// Name is the gate's name once set, else "".
func (g *gate) Name() string {
	select {
	case <-g.ready:
		return g.name
	default:
		return ""
	}
}

// Label is the door's gate's name.
func (d *Door) Label() string { return "door " + d.Name() }
`

const ownedTest = `package hooks

import "testing"

func TestDo(t *testing.T) {
	if got := NewClient().Do("get"); got != "base:get" {
		t.Fatal(got)
	}
}
`

// TestPRGenOwnedCandidate: a candidate in a method of an unexported type,
// on a line the change did not touch (it deleted the lock around it), is
// confirmed by a generated test on the exported type that embeds the
// unexported one (Client.Do ∥ Client.AddHook) and replays; with
// -gen-budget auto, gen gets its share though no changed type is exported.
// The mirror's candidate (gate.Name, through Door) stays unconfirmed, in
// the summary. Fails without the owners (gen has no target: "no changed
// type claims thread safety"), and without the changed function's scope
// (the read is no candidate at all). Behind -tags heavy (scripts/heavy.sh)
// for its time (55-63 s of the default run): by default, gen's
// TestOwnersReachSides fails without the owners, prjob's
// TestCandidateInChangedFunc without the changed function's scope (of a
// candidate; TestGenScope's of a generated finding), prjob's genauto tests without
// gen's automatic share, and TestPRGenAccessPairs without pr's
// confirmation of a candidate by a generated test.
func TestPRGenOwnedCandidate(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds instrumented tests")
	}
	ch := newPullChange(t, map[string]string{
		"go.mod":              "module example.com/hooks\n\ngo 1.22\n",
		"hooks/hooks.go":      ownedBase,
		"hooks/hooks_test.go": ownedTest,
	}, map[string]string{"hooks/hooks.go": ownedHead})
	read := lineIn(t, ownedHead, "\treturn h.current + \":\" + cmd")
	name := lineIn(t, ownedHead, "\t\treturn g.name")

	sum := filepath.Join(ch.dir, "summary.md")
	rep, _, stderr := ch.prFindings(t, "-budget", "4m", "-count", genCount, "-workers", prWorkers, "-seed", "3", "-summary", sum, "-v")
	var confirmed *report.JSONFinding
	for i, f := range rep.Findings {
		t.Logf("finding %s %s %s:%d %s (%s)", f.Rule, f.Evidence, f.Pos.File, f.Pos.Line, f.Message, f.Replay)
		if f.Pos.Line == name {
			t.Errorf("the mirror's candidate is in the report: %s", f.Message)
		}
		if f.Evidence == checks.Confirmed && f.Pos.Line == read {
			confirmed = &rep.Findings[i]
		}
	}
	if confirmed == nil || !strings.Contains(confirmed.Test, "TestInterleaveGen_") || confirmed.Schedule == "" {
		t.Fatalf("the candidate at hooks.go:%d is not confirmed by a generated test: %+v\n%s", read, confirmed, stderr)
	}
	ch.replays(t, confirmed)
	md, err := os.ReadFile(sum)
	if err != nil {
		t.Fatal(err)
	}
	if want := "`hooks/hooks.go:" + strconv.Itoa(name) + "`"; !strings.Contains(string(md), want) {
		t.Errorf("summary lacks the mirror's unconfirmed candidate %q:\n%s", want, md)
	}
}
