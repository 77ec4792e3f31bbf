package gen

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestSequentialSettlesOwnWork: the sequential check waits for the work
// a case's prefix started in the background before the calls, counting
// the case's own goroutines, not the process's. go test runs the cases
// in parallel, so other tests' goroutines end meanwhile: puddle v2.1.0's
// Pool case "Acquire ∥ AcquireAllIdle" after "Acquire; TryAcquire"
// passed there (a goroutine of another test ended as TryAcquire started
// its own, the count said the work was done, AcquireAllIdle ran before
// the resource existed), and the search then reported the order that
// blocks as a hang of the code. testdata/settle's Warm ends a goroutine
// of no case as it starts its fill: after one Warm, "Take ∥ TakeAll"
// blocks in the order TakeAll, Take and must be dropped; after two,
// "Take ∥ Take" never blocks and must be kept.
func TestSequentialSettlesOwnWork(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on the generated cases")
	}
	dir, pkgs := loadKernel(t, "testdata/settle")
	g := NewGenerator(pkgs[0].PkgPath, pkgs[0].Name, 1)
	tgs := Targets(pkgs)
	if len(tgs) != 1 {
		t.Fatalf("%d targets, want Pool", len(tgs))
	}
	calls := map[string]Call{}
	var build []string
	for _, c := range g.Generate(tgs[0], 16) {
		build = c.Build
		for _, th := range c.Threads {
			for _, call := range th {
				calls[call.Method] = call
			}
		}
	}
	if calls["Take"].Body == "" || calls["TakeAll"].Body == "" {
		t.Fatalf("no call of Take or TakeAll generated: %v", calls)
	}
	blocks := &Case{Target: tgs[0], Name: "TestInterleaveGen_Pool_blocks", Build: build, Prefix: []string{"v.Warm()"},
		Threads: [][]Call{{calls["Take"]}, {calls["TakeAll"]}}}
	passes := &Case{Target: tgs[0], Name: "TestInterleaveGen_Pool_passes", Build: build, Prefix: []string{"v.Warm()", "v.Warm()"},
		Threads: [][]Call{{calls["Take"]}, {calls["Take"]}}}
	w := &pkgWork{pkg: pkgs[0], gen: g, dir: dir, cases: []*Case{blocks, passes}}
	reports := map[*Target]*TypeReport{tgs[0]: {Type: "Pool"}}
	var built time.Duration
	if _, err := feedback(context.Background(), dir, "", []*pkgWork{w}, reports, 100, nil, time.Time{}, &built); err != nil {
		t.Fatal(err)
	}
	if len(w.kept) != 1 || w.kept[0] != passes {
		var kept []string
		for _, c := range w.kept {
			kept = append(kept, c.Name)
		}
		t.Errorf("kept %q, want only %s", kept, passes.Name)
	}
	dropped := reports[tgs[0]].Dropped
	if len(dropped) != 1 || !strings.HasPrefix(dropped[0], blocks.Name+": blocks when run sequentially") {
		t.Errorf("dropped %q, want %s as blocking", dropped, blocks.Name)
	}
}
