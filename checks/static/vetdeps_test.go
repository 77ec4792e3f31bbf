package static

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestVetDependencyFacts: on a dependency go vet analyzes for facts only
// (lockdep, for lockuse), the vet tool runs the passes with facts and
// what they need, not guardedby, rlockwrite or lockblock; lockdep's facts
// are still computed, and the findings in lockuse that need them (a
// self-deadlock through lockdep's Lock wrapper; no missing unlock on a
// path through lockdep.Fail, which never returns) are those the
// in-process driver finds.
func TestVetDependencyFacts(t *testing.T) {
	tool := vetTool(t)
	// A copy with a fresh comment in lockdep, so that go vet's cache has
	// no result for it and runs the tool.
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(modDir(t))); err != nil {
		t.Fatal(err)
	}
	dep := filepath.Join(dir, "lockdep", "lockdep.go")
	src, err := os.ReadFile(dep)
	if err != nil {
		t.Fatal(err)
	}
	src = fmt.Appendf(src, "\n// %d\n", time.Now().UnixNano())
	if err := os.WriteFile(dep, src, 0o644); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(t.TempDir(), "trace.tsv")
	t.Setenv("INTERLEAVE_VET_TRACE", trace)

	opts := Options{Dir: dir, Patterns: []string{"./lockuse"}, Tests: true}
	want, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("in process: %v", err)
	}
	opts.VetTool = tool
	res, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("go vet: %v", err)
	}
	var lines []string
	for _, f := range res.Findings {
		lines = append(lines, fmt.Sprintf("%s:%d %s", filepath.Base(f.Pos.File), f.Pos.Line, f.Rule))
	}
	if got := strings.Join(lines, ", "); got != "lockuse.go:16 IL2003" {
		t.Errorf("go vet driver found %q, want the self-deadlock only: lockuse.go:16 IL2003", got)
	}
	if !reflect.DeepEqual(res.Findings, want.Findings) {
		t.Errorf("go vet driver found\n\t%+v\nin process found\n\t%+v", res.Findings, want.Findings)
	}

	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	ran := map[string]bool{}
	var facts []string
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Split(l, "\t")
		if len(f) < 5 || f[1] != "example.com/mod/lockdep" {
			continue
		}
		switch {
		case f[0] == "run" && f[4] == "facts-only":
			ran[f[2]] = true
		case f[0] == "fact":
			facts = append(facts, f[2]+" "+f[3])
		}
	}
	for _, a := range []string{"buildssa", "ctrlflow", "lockpair", "lockorder", "atomicmix"} {
		if !ran[a] {
			t.Errorf("%s did not run on lockdep (facts only); ran %v", a, ran)
		}
	}
	for _, a := range []string{"guardedby", "rlockwrite", "lockblock", "threadsafe", "checkact"} {
		if ran[a] {
			t.Errorf("%s ran on lockdep, which go vet wants facts of only", a)
		}
	}
	for _, want := range []string{"lockpair Lock", "lockpair Len", "ctrlflow Fail"} {
		if !strings.Contains(strings.Join(facts, "\n"), want) {
			t.Errorf("no %s fact of lockdep; facts:\n%s", want, strings.Join(facts, "\n"))
		}
	}
}
