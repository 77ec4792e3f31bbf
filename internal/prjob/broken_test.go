package prjob

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/internal/gitrepo"
	"github.com/interleave-dev/interleave/internal/testctx"
)

func TestVetErrors(t *testing.T) {
	out := "# example.com/m/user\nuser/user.go:6:34: undefined: work.Total\n# [example.com/m/x]\nvet: x/x.go:3:1: missing return\nuser/user.go:6:34: undefined: work.Total\n"
	got := vetErrors(out)
	want := []string{"user/user.go:6:34: undefined: work.Total", "x/x.go:3:1: missing return"}
	if !slices.Equal(got, want) {
		t.Errorf("vetErrors = %q, want %q", got, want)
	}
}

func TestBrokenSummary(t *testing.T) {
	r := &job{}
	if s := r.brokenSummary(); s != "" {
		t.Errorf("no broken package: summary %q", s)
	}
	p := r.broken.get("example.com/m/legacy")
	p.errs = []string{"a.go:1:1: one", "a.go:2:1: two", "a.go:3:1: three", "a.go:4:1: four ```"}
	p.plain, p.base = "fails", "fails"
	q := r.broken.get("example.com/m/new")
	q.touched, q.plain, q.base = true, "passes", "absent"
	s := r.brokenSummary()
	for _, want := range []string{
		"**Not analyzed: 2 packages that do not compile**",
		"- `example.com/m/new`: does not compile; go vet passes on it: interleave could not load it; it is new in this change\n- `example.com/m/legacy`: does not compile; go vet fails on it too; it does not compile on the base commit either\n",
		"  a.go:3:1: three\n  ... and 1 more\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "four") {
		t.Errorf("summary shows more than %d compiler lines:\n%s", showErrors, s)
	}
}

// TestJudgeBrokenMachine: a package go vet fails on the head with the
// machine's words (the disk full there, not in the base commit's worktree,
// as a disk that filled and was freed again did to regress20) is not one
// the change broke: it is the machine's, and says so.
func TestJudgeBrokenMachine(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	g := gitrepo.New(t)
	base := g.Commit(map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a/a.go": "package a\n\nfunc A() int { return 1 }\n",
	})
	g.Commit(map[string]string{"a/a.go": "package a\n\nfunc A() int { return 2 }\n"})
	fake := t.TempDir()
	script := `#!/bin/sh
case "$PWD" in
*interleave-base-*) exec ` + goBin + ` "$@" ;;
esac
echo '# example.com/m/a' >&2
echo 'compile: writing output: write $WORK/b001/_pkg_.a: no space left on device' >&2
exit 1
`
	if err := os.WriteFile(filepath.Join(fake, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", fake+string(os.PathListSeparator)+os.Getenv("PATH"))
	r := &job{change: &affected.Change{Root: g.Dir, ModuleDir: g.Dir, ModulePath: "example.com/m", Base: base, MergeBase: base}}
	p := r.broken.get("example.com/m/a")
	p.touched = true
	p.errs = []string{"a/a.go:1:1: could not import example.com/m/b (open b.a: no such file)"}
	if byChange := r.judgeBroken(testctx.New(t), nil); len(byChange) != 0 {
		t.Errorf("broken by the change: %s (%s), want none: the machine's", byChange[0].path, byChange[0].why())
	}
	if got := r.broken.onMachine(); got != p || !strings.HasPrefix(p.why(), "not built: the disk is full: compile: writing output") {
		t.Errorf("onMachine = %v, why %q: want the package, built by a full disk", got, p.why())
	}
}
