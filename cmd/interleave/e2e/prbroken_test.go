package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/report"
)

const brokenWorkBase = `package work

import "sync"

// Sum adds xs.
func Sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

// Total is Sum under another name.
func Total(xs []int) int { return Sum(xs) }

var mu sync.Mutex
`

// brokenWorkHead sums in two goroutines, correctly.
const brokenWorkHead = `package work

import "sync"

// Sum adds xs, each half in a goroutine.
func Sum(xs []int) int {
	var mu sync.Mutex
	var wg sync.WaitGroup
	t := 0
	for _, part := range [][]int{xs[:len(xs)/2], xs[len(xs)/2:]} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := 0
			for _, x := range part {
				s += x
			}
			mu.Lock()
			t += s
			mu.Unlock()
		}()
	}
	wg.Wait()
	return t
}

// Total is Sum under another name.
func Total(xs []int) int { return Sum(xs) }
`

// brokenSpawn keeps its lock on one return path (IL2002; the tests enable
// it, so it is reported without confirmation); no test calls it.
const brokenSpawn = `
var (
	mu   sync.Mutex
	hits int
)

// Hit counts n hits, and forgets to unlock when n is negative.
func Hit(n int) {
	mu.Lock()
	if n < 0 {
		return
	}
	hits += n
	mu.Unlock()
}
`

const brokenWorkTest = `package work

import "testing"

func TestSum(t *testing.T) {
	if Sum([]int{1, 2, 3, 4}) != 10 {
		t.Fatal("bad sum")
	}
}
`

// legacy never compiles.
const brokenLegacy = `package legacy

func Old() int { return "old" }
`

// user calls work.Total.
const brokenUser = `package user

import "example.com/m/work"

// Ten is 10.
func Ten() int { return work.Total([]int{1, 2, 3, 4}) }
`

// TestPRBrokenPackage runs interleave pr on a repository with a package
// that never compiles beside the changed one: the job searches the changed
// one, lists the broken one (in the log, the summary and the report's
// notes) and exits by its findings: the change's one (Hit), and none on its
// correct concurrent Sum: one run checks both. A change that breaks a
// package importing it fails the job, naming the change.
func TestPRBrokenPackage(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: runs go vet and builds instrumented tests")
	}
	r := newPRRepo(t)
	base := r.commit(map[string]string{
		"go.mod":            "module example.com/m\n\ngo 1.22\n",
		"work/work.go":      brokenWorkBase,
		"work/work_test.go": brokenWorkTest,
		"legacy/legacy.go":  brokenLegacy,
		"user/user.go":      brokenUser,
	})
	// The change touches work and legacy; legacy still does not compile.
	r.commit(map[string]string{
		"work/work.go":     brokenWorkHead + brokenSpawn,
		"legacy/legacy.go": "// Package legacy is old.\n" + brokenLegacy,
	})
	checkListed := func(t *testing.T, stderr, sum string) {
		t.Helper()
		for _, want := range []string{
			"not analyzed: package example.com/m/legacy: does not compile; go vet fails on it too; it does not compile on the base commit either",
			"legacy/legacy.go:4:",
			"dynamic search: 1 test",
		} {
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr)
			}
		}
		if strings.Contains(stderr, "the head does not compile") {
			t.Errorf("the job failed for a package the change did not break:\n%s", stderr)
		}
		md, err := os.ReadFile(sum)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"Not analyzed: 1 package that does not compile", "`example.com/m/legacy`: does not compile; go vet fails on it too", "legacy/legacy.go:4:", "Stages: diff ", ", static ", ", compile ", ", dynamic "} {
			if !strings.Contains(string(md), want) {
				t.Errorf("summary lacks %q:\n%s", want, md)
			}
		}
	}
	run := func(t *testing.T, base string) (int, *report.JSONReport, string, string) {
		out := filepath.Join(t.TempDir(), "out.json")
		sum := filepath.Join(t.TempDir(), "summary.md")
		// One schedule a worker ends the search, not the budget (at
		// load 40-47 a 2s budget ran out before the test binary's first
		// schedule in app's jobs, and pr exited 2).
		code, _, stderr := r.runPR("-base", base, "-budget", "2m", "-count", "1", "-seed", "1", "-gen-budget", "0", "-format", "json", "-o", out, "-summary", sum, "-enable", "IL2002")
		t.Logf("exit %d, stderr:\n%s", code, stderr)
		var rep report.JSONReport
		if b, err := os.ReadFile(out); err == nil {
			if err := json.Unmarshal(b, &rep); err != nil {
				t.Fatal(err)
			}
		}
		return code, &rep, stderr, sum
	}

	t.Run("a finding", func(t *testing.T) {
		code, rep, stderr, sum := run(t, base)
		if code != exitFindings {
			t.Errorf("exit %d, want %d", code, exitFindings)
		}
		found := false
		for _, f := range rep.Findings {
			if f.Rule == "IL2002" && filepath.ToSlash(f.Pos.File) == "work/work.go" {
				found = true
				continue
			}
			// Sum's change is correct, and legacy is not analyzed.
			t.Errorf("a finding other than Hit's IL2002: %+v", f)
		}
		if !found {
			t.Errorf("no IL2002 in work/work.go: %+v", rep.Findings)
		}
		checkListed(t, stderr, sum)
		// Machines see it too: the report's notes name the package.
		if !slices.ContainsFunc(rep.Notes, func(n string) bool {
			return strings.HasPrefix(n, "not analyzed: package example.com/m/legacy: ")
		}) {
			t.Errorf("report notes %q do not list the package left out", rep.Notes)
		}
	})

	// Renaming Total breaks user, which the change does not touch but
	// which imports the changed package.
	prev := r.git("rev-parse", "HEAD")
	r.commit(map[string]string{"work/work.go": strings.Replace(brokenWorkHead, "func Total(", "func Sum2(", 1)})
	t.Run("the change breaks a package", func(t *testing.T) {
		code, _, stderr, sum := run(t, prev)
		if code != exitError {
			t.Errorf("exit %d, want %d", code, exitError)
		}
		for _, want := range []string{
			"the head does not compile: this change breaks package example.com/m/user",
			"it compiles on the base commit",
			"user/user.go:6:",
		} {
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr lacks %q", want)
			}
		}
		md, err := os.ReadFile(sum)
		if err != nil || !strings.Contains(string(md), "this change breaks package example.com/m/user") {
			t.Errorf("summary %q: %v", md, err)
		}
	})
}

// TestPRCgoPackageLeftOut: a change to a cgo package whose C header is not
// installed and to a package beside it lists the cgo package as not
// analyzed and goes on: static passes, and the generated tests of the
// other package's changed type (gen loads only the packages that compile).
func TestPRCgoPackageLeftOut(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the pull-request job")
	}
	files := map[string]string{}
	for _, name := range []string{"go.mod", "good/good.go", "native/native.go"} {
		b, err := os.ReadFile(filepath.Join("../testdata/check/cgo", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	r := newPRRepo(t)
	base := r.commit(files)
	files["good/good.go"] = strings.Replace(files["good/good.go"], "c.lookups++", "c.lookups += 1", 1)
	files["native/native.go"] += "\n// Touch is new.\nfunc Touch() {}\n"
	r.commit(files)
	code, _, stderr := r.runPR("-base", base, "-budget", "4s", "-format", "json")
	if code == exitError {
		t.Fatalf("got exit %d; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		"not analyzed: package example.com/cgomix/native: does not compile",
		"gen: loading example.com/cgomix/good …",
		"gen: example.com/cgomix/good.Counter: ",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "gen failed") {
		t.Errorf("gen failed on the package that does not compile:\n%s", stderr)
	}
}
