package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/report"
)

const causeBase = `package pool

import "sync"

// Pool hands out ids, reusing the ones put back.
type Pool struct {
	mu   sync.Mutex
	free []int
	n    int
}

// Get returns a free id, or a new one.
func (p *Pool) Get() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) == 0 {
		p.n++
		return p.n
	}
	x := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	return x
}

// Put gives an id back.
func (p *Pool) Put(x int) {
	p.mu.Lock()
	p.free = append(p.free, x)
	p.mu.Unlock()
}
`

// causeHead reads the top id under one critical section and pops it under
// another: two Gets can return the same id. The failure is the test's
// assertion, on a line the change does not touch.
var causeHead = strings.Replace(causeBase, `	x := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	return x
}`, `	x := p.free[len(p.free)-1]
	p.mu.Unlock()
	p.mu.Lock()
	p.free = p.free[:max(len(p.free)-1, 0)]
	return x
}`, 1)

// causeTest: TestGetDistinct fails only with the change; TestGetAsync
// drops a reply on some schedules on the base and the head alike.
const causeTest = `package pool

import "testing"

func TestGetDistinct(t *testing.T) {
	var p Pool
	p.Put(7)
	var a int
	done := make(chan bool)
	go func() { a = p.Get(); done <- true }()
	b := p.Get()
	<-done
	if a == b {
		t.Fatalf("two Gets returned the same id %d", a)
	}
}

func TestGetAsync(t *testing.T) {
	var p Pool
	ready := make(chan struct{})
	got := make(chan int)
	go func() {
		close(ready)
		got <- p.Get()
	}()
	<-ready
	select {
	case <-got:
	default:
	}
}
`

// TestPRByCause: on a change whose bug fails in an unchanged test line,
// the failure is posted as new, anchored on the change; a failure the base
// commit has too is in the summary only, and SARIF says which is which.
func TestPRByCause(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds instrumented tests on the head and the base")
	}
	if causeHead == causeBase {
		t.Fatal("the head change did not apply")
	}
	r := newPRRepo(t)
	base := r.commit(map[string]string{
		"go.mod":            "module example.com/pool\n\ngo 1.22\n",
		"pool/pool.go":      causeBase,
		"pool/pool_test.go": causeTest,
	})
	r.commit(map[string]string{"pool/pool.go": causeHead})
	changed := map[int]bool{}
	head := strings.Split(causeHead, "\n")
	for i, l := range head {
		if strings.Contains(l, "p.mu.Unlock()") && i+1 < len(head) && strings.Contains(head[i+1], "p.mu.Lock()") ||
			strings.Contains(l, "max(len(p.free)-1, 0)") {
			changed[i+1] = true
		}
		if strings.Contains(l, "p.mu.Lock()") && i > 0 && strings.Contains(head[i-1], "p.mu.Unlock()") {
			changed[i+1] = true
		}
	}
	testLine := 0
	for i, l := range strings.Split(causeTest, "\n") {
		if strings.Contains(l, "two Gets returned") {
			testLine = i + 1
		}
	}

	out := filepath.Join(r.dir, "out.json")
	sarifPath := filepath.Join(r.dir, "out.sarif")
	sum := filepath.Join(r.dir, "summary.md")
	code, _, stderr := r.runPR("-base", base, "-budget", "3m", "-count", prCount, "-gen-budget", "0", "-seed", "3", "-format", "json", "-o", out, "-sarif", sarifPath, "-summary", sum)
	t.Logf("interleave pr stderr:\n%s", stderr)
	rep, err := report.ReadJSON(out)
	if err != nil {
		t.Fatalf("exit %d: %v", code, err)
	}
	var distinct *report.JSONFinding
	for i, f := range rep.Findings {
		t.Logf("finding %s %s %s:%d %s [%s]", f.Rule, f.Evidence, f.Pos.File, f.Pos.Line, f.Message, f.Baseline)
		if f.Test == "TestGetAsync" {
			t.Errorf("the base commit's failure of TestGetAsync is posted: %s", f.Message)
		}
		if f.Test == "TestGetDistinct" && f.Evidence == checks.Dynamic {
			distinct = &rep.Findings[i]
		}
	}
	for _, f := range rep.PreExisting {
		t.Logf("pre-existing %s %s:%d %s [%s]", f.Rule, f.Pos.File, f.Pos.Line, f.Message, f.Baseline)
	}
	if distinct == nil {
		t.Fatalf("the change's failure of TestGetDistinct is not reported (exit %d)", code)
	}
	if code != exitFindings {
		t.Errorf("exit %d, want %d", code, exitFindings)
	}
	if distinct.Baseline != checks.BaselineNew || !strings.Contains(distinct.Message, "new in this change") {
		t.Errorf("TestGetDistinct: baseline %q, message %q: want new in this change", distinct.Baseline, distinct.Message)
	}
	if filepath.ToSlash(distinct.Pos.File) != "pool/pool.go" || !changed[distinct.Pos.Line] {
		t.Errorf("TestGetDistinct is anchored at %s:%d, want a changed line of pool/pool.go %v", distinct.Pos.File, distinct.Pos.Line, changed)
	}
	// Where it fails (the test) stays as a related location, and the
	// message has the test's words.
	failsAt := false
	for _, rel := range distinct.Related {
		failsAt = failsAt || filepath.ToSlash(rel.File) == "pool/pool_test.go" && rel.Message == "fails here"
	}
	if !failsAt || !strings.Contains(distinct.Message, fmt.Sprintf("pool_test.go:%d: two Gets returned", testLine)) {
		t.Errorf("TestGetDistinct: related %v, message %q: want where the test fails (pool_test.go:%d)", distinct.Related, distinct.Message, testLine)
	}
	pre := false
	for _, f := range rep.PreExisting {
		if f.Test == "TestGetAsync" && f.Kind == checks.Leak && f.Baseline == checks.BaselineUnchanged {
			pre = true
		}
	}
	if !pre {
		t.Errorf("the leak of TestGetAsync is not in the summary as pre-existing: %+v", rep.PreExisting)
	}
	md, _ := os.ReadFile(sum)
	if !strings.Contains(string(md), "Pre-existing") || !strings.Contains(string(md), "TestGetAsync") {
		t.Errorf("the summary does not list the pre-existing failure:\n%s", md)
	}

	// SARIF: baselineState new for the change's failure, unchanged for the
	// base's.
	sb, err := os.ReadFile(sarifPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Results []struct {
				Message       struct{ Text string } `json:"message"`
				BaselineState string                `json:"baselineState"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sb, &doc); err != nil || len(doc.Runs) != 1 {
		t.Fatalf("sarif: %v", err)
	}
	states := map[string]string{}
	for _, res := range doc.Runs[0].Results {
		for _, test := range []string{"TestGetDistinct", "TestGetAsync"} {
			if strings.HasPrefix(res.Message.Text, test+":") {
				states[test] = res.BaselineState
			}
		}
	}
	if states["TestGetDistinct"] != "new" || states["TestGetAsync"] != "unchanged" {
		t.Errorf("sarif baselineState %v, want TestGetDistinct new and TestGetAsync unchanged", states)
	}
	// The base worktree is gone.
	if wts := r.git("worktree", "list"); strings.Count(wts, "\n") != 0 {
		t.Errorf("worktrees left behind:\n%s", wts)
	}
}
