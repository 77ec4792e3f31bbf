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

// judgeNew makes a repository whose head adds package example.com/m/svc
// (pkg's source) beside a package that compiles, with a dependency
// example.com/dep outside the repository (a replace to a directory of its
// own) that does not compile when depBroken; it runs judgeBroken on svc as
// the static stage leaves it (errs) and returns the packages the change
// broke and svc's entry.
func judgeNew(t *testing.T, svc string, depBroken bool, errs func(depDir string) []string) ([]*brokenPkg, *brokenPkg) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	depDir := t.TempDir()
	dep := "package dep\n\nfunc D() int { return 1 }\n"
	if depBroken {
		dep = "package dep\n\nfunc D() int { return undefinedOnThisToolchain() }\n"
	}
	for name, src := range map[string]string{"go.mod": "module example.com/dep\n\ngo 1.22\n", "dep.go": dep} {
		if err := os.WriteFile(filepath.Join(depDir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gomod := "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => " + depDir + "\n"
	g := gitrepo.New(t)
	base := g.Commit(map[string]string{
		"go.mod": gomod,
		"a/a.go": "package a\n\nfunc A() int { return 1 }\n",
	})
	g.Commit(map[string]string{"svc/svc.go": svc})
	r := &job{change: &affected.Change{Root: g.Dir, ModuleDir: g.Dir, ModulePath: "example.com/m", Base: base, MergeBase: base}}
	p := r.broken.get("example.com/m/svc")
	p.touched = true
	p.errs = errs(depDir)
	return r.judgeBroken(testctx.New(t), nil), p
}

// TestJudgeBrokenDependencyOutside: a package new in the change whose only
// errors are in a dependency outside the repository (nebula's packages that
// import gvisor, which Go 1.26 cannot build) is left out and listed; the
// job goes on. Both as the static stage reports it and from go vet's own
// lines.
func TestJudgeBrokenDependencyOutside(t *testing.T) {
	svc := "package svc\n\nimport \"example.com/dep\"\n\nfunc S() int { return dep.D() }\n"
	for name, errs := range map[string]func(string) []string{
		"static": func(depDir string) []string {
			return []string{"its dependency example.com/dep does not compile:", filepath.Join(depDir, "dep.go") + ":3:23: undefined: undefinedOnThisToolchain"}
		},
		"vet": func(string) []string { return nil },
	} {
		t.Run(name, func(t *testing.T) {
			byChange, p := judgeNew(t, svc, true, errs)
			if len(byChange) != 0 {
				t.Errorf("broken by the change: %s (%s; errors %q), want none: only its dependency outside the repository fails", byChange[0].path, byChange[0].why(), byChange[0].errs)
			}
			if p.plain != "fails" || !strings.Contains(p.why(), "its only errors are in ") {
				t.Errorf("svc: plain %q, why %q: want go vet failing and the errors' place said", p.plain, p.why())
			}
		})
	}
}

// TestJudgeBrokenOwnCode: a change whose new package has an error of its
// own still fails the job: found by go vet, or, with a broken dependency
// beside it (go vet stops at the dependency), by the static stage, which
// type-checks the package from source and lists its own errors.
func TestJudgeBrokenOwnCode(t *testing.T) {
	svc := "package svc\n\nimport \"example.com/dep\"\n\nfunc S() int { return dep.D() + missing }\n"
	for _, depBroken := range []bool{false, true} {
		errs := func(string) []string { return nil }
		if depBroken {
			errs = func(string) []string { return []string{"svc/svc.go:5:33: undefined: missing"} }
		}
		byChange, p := judgeNew(t, svc, depBroken, errs)
		if len(byChange) != 1 || byChange[0] != p || p.base != "absent" {
			t.Errorf("dependency broken %v: broken by the change %d packages (svc: errs %q, why %q), want svc, new in this change", depBroken, len(byChange), p.errs, p.why())
		}
	}
}

func TestErrorsElsewhere(t *testing.T) {
	root, dir, mod := "/src/repo", "/src/repo/go", "example.com/m"
	for _, c := range []struct {
		errs []string
		want string
	}{
		{[]string{"its dependency gvisor.dev/gvisor/pkg/sync does not compile:", "/root/go/pkg/mod/gvisor.dev/gvisor@v0/pkg/sync/gate_unsafe.go:114:3: undefined: goready"}, "its dependency gvisor.dev/gvisor/pkg/sync, outside this repository"},
		{[]string{"/usr/lib/go/src/x/x.go:1:1: bad"}, "files outside this repository (/usr/lib/go/src/x/x.go)"},
		{[]string{"its dependency example.com/m/internal/x does not compile:", "/root/go/pkg/mod/y.go:1:1: bad"}, ""}, // a package of the module
		{[]string{"its dependency d.io/x does not compile:", "/src/repo/vendor/d.io/x/x.go:1:1: bad"}, ""},            // in the repository
		{[]string{"../../other/x.go:1:1: bad"}, "files outside this repository (/src/other/x.go)"},                    // relative to dir, outside
		{[]string{"../tools/x.go:1:1: bad"}, ""},                            // relative to dir, in the repository
		{[]string{"svc/svc.go:5:30: undefined: missing"}, ""},               // relative: the repository's
		{[]string{"could not import example.com/dep (no export data)"}, ""}, // says no place
		{nil, ""},
	} {
		if got := errorsElsewhere(c.errs, root, dir, mod); got != c.want {
			t.Errorf("errorsElsewhere(%q) = %q, want %q", c.errs, got, c.want)
		}
	}
}
