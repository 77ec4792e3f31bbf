package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/internal/prjob"
)

// testModule writes a module with packages a (TestA, TestSlowA) and b
// (TestB), and file as its .interleave.yaml; it returns the module root.
func testModule(t *testing.T, file string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.24\n",
		"a/a_test.go":  "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T)     {}\nfunc TestSlowA(t *testing.T) {}\n",
		"b/b_test.go":  "package b\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) {}\n",
		prjob.FileName: file,
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const testFile = "exclude: [./b]\nbudget: 3s\ntests:\n  run: ^Test\n  skip: ^TestSlow\nrules:\n  disable: [IL5003]\nignore:\n  - rule: IL9003\n    reason: known\n"

// TestTestReadsConfigFile: interleave test takes exclude, budget,
// tests.run, tests.skip and ignore from the module root's file, run from
// a package directory too, and its flags override them.
func TestTestReadsConfigFile(t *testing.T) {
	root := testModule(t, testFile)
	for _, dir := range []string{root, filepath.Join(root, "a")} {
		env, _, stderr := testEnv(t, dir)
		o, code, ok := parseTestFlags(env, nil)
		if !ok {
			t.Fatalf("%s: exit %d: %s", dir, code, stderr)
		}
		if o.budget != 3*time.Second || o.run != "^Test" || o.skip != "^TestSlow" || strings.Join(o.exclude, " ") != "./b" || len(o.ignore) != 1 {
			t.Errorf("%s: got budget %v run %q skip %q exclude %q ignore %d, want the file's", dir, o.budget, o.run, o.skip, o.exclude, len(o.ignore))
		}
		if !strings.HasSuffix(o.src["budget"], ".interleave.yaml:2") {
			t.Errorf("%s: budget from %q, want the file's line 2", dir, o.src["budget"])
		}
		if !strings.HasPrefix(o.src["rules.disable"], "not used by test") {
			t.Errorf("%s: rules.disable from %q, want not used by test", dir, o.src["rules.disable"])
		}
	}

	env, _, stderr := testEnv(t, root)
	o, code, ok := parseTestFlags(env, []string{"-budget", "5s", "-run", "TestB", "-skip", "", "-exclude", "./a"})
	if !ok {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if o.budget != 5*time.Second || o.run != "TestB" || o.skip != "" || strings.Join(o.exclude, " ") != "./a" {
		t.Errorf("got budget %v run %q skip %q exclude %q, want the flags'", o.budget, o.run, o.skip, o.exclude)
	}
	if o.src["budget"] != "flag -budget" || o.src["tests.skip"] != "flag -skip" {
		t.Errorf("sources %v, want the flags", o.src)
	}
}

// TestTestConfigBudgetZero: budget 0 skips pr's search; test keeps its
// default and says so. A bad file stops test with its line.
func TestTestConfigBudgetZero(t *testing.T) {
	env, _, stderr := testEnv(t, testModule(t, "budget: 0\n"))
	o, code, ok := parseTestFlags(env, nil)
	if !ok {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if o.budget != searchBudget || len(o.notes) != 1 || !strings.Contains(o.notes[0], "keeps its default -budget") {
		t.Errorf("budget %v notes %q, want the default and a note", o.budget, o.notes)
	}

	env, _, stderr = testEnv(t, testModule(t, "budget: soon\n"))
	if _, code, ok := parseTestFlags(env, nil); ok || code != exitError || !strings.Contains(stderr.String(), ".interleave.yaml:1:") {
		t.Errorf("bad file: ok %v code %d stderr %q, want exit 2 with the line", ok, code, stderr)
	}
}

// TestExcludePackages: the patterns expand to packages, the excluded
// ones are left out.
func TestExcludePackages(t *testing.T) {
	root := testModule(t, "")
	got, n, err := excludePackages(context.Background(), root, []string{"./..."}, []string{"./b"})
	if err != nil || n != 1 || strings.Join(got, " ") != "./a" {
		t.Errorf("got %q, %d, %v; want [./a], 1", got, n, err)
	}
	got, n, err = excludePackages(context.Background(), filepath.Join(root, "a"), []string{"."}, []string{"./b/..."})
	if err != nil || n != 0 || strings.Join(got, " ") != "." {
		t.Errorf("nothing excluded: got %q, %d, %v; want the patterns unchanged", got, n, err)
	}
}

// TestTestConfigEndToEnd: interleave test on the module leaves b out and
// skips a's tests the file skips; with every test skipped there is
// nothing to search (exit 0), and the summary says why.
func TestTestConfigEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("loads and instruments a module")
	}
	root := testModule(t, "exclude: [./b]\ntests:\n  skip: ^TestSlow|^TestA$\n")
	env, _, stderr := testEnv(t, root)
	if code := runMain(context.Background(), env, []string{"test", "-race=false", "./..."}); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"1 package left out by exclude (./b, .interleave.yaml:1)", "nothing to search", `2 tests skipped: -skip "^TestSlow|^TestA$"`} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}

	env, stdout, stderr := testEnv(t, root)
	if code := runMain(context.Background(), env, []string{"config", "test", "-budget", "7s"}); code != exitOK {
		t.Fatalf("config test: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"budget         7s", "flag -budget", "tests.skip     ^TestSlow|^TestA$", ".interleave.yaml:3", "not used by test"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("config test lacks %q:\n%s", want, stdout)
		}
	}
}

// TestTestConfigIgnore: a known failure of the file is kept out of the
// report and the exit status, with a note naming its entry.
func TestTestConfigIgnore(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches a test")
	}
	root := testModule(t, "ignore:\n  - test: TestSelfDeadlock\n    reason: known, tracked elsewhere\n")
	src := "package a\n\nimport (\n\t\"sync\"\n\t\"testing\"\n)\n\nfunc TestSelfDeadlock(t *testing.T) {\n\tvar mu sync.Mutex\n\tmu.Lock()\n\tmu.Lock()\n}\n"
	if err := os.WriteFile(filepath.Join(root, "a", "dead_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// Its unperturbed schedule deadlocks: a count ends the search there,
	// the budget only stops a machine that cannot do it.
	args := []string{"test", "-race=false", "-budget", "2m", "-count", "1", "-run", "TestSelfDeadlock", "-schedules", t.TempDir(), "-format", "json", "./a"}
	env, stdout, stderr := testEnv(t, root)
	if code := runMain(context.Background(), env, args); code != exitOK {
		t.Fatalf("exit %d, want 0 (the failure is known): %s", code, stderr)
	}
	var rep struct{ Findings []json.RawMessage }
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, stdout)
	}
	if len(rep.Findings) != 0 || !strings.Contains(stderr.String(), "1 finding kept out as a known failure (.interleave.yaml:2): known, tracked elsewhere") {
		t.Errorf("want the note and no finding; stderr:\n%s\nfindings: %s", stderr, rep.Findings)
	}
	// Without the entry the same run fails.
	if err := os.WriteFile(filepath.Join(root, prjob.FileName), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env, _, stderr = testEnv(t, root)
	if code := runMain(context.Background(), env, args); code != exitFindings {
		t.Errorf("without the entry: exit %d, want %d: %s", code, exitFindings, stderr)
	}
}

// TestTestConfigTags: the file's tags reach the search, so a test only a
// tagged build has is searched (without them it is not found), and the
// replay line the finding prints builds with them from its schedule file.
func TestTestConfigTags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches a test")
	}
	root := testModule(t, "tags: [slowdeadlock]\n")
	src := "//go:build slowdeadlock\n\npackage a\n\nimport (\n\t\"sync\"\n\t\"testing\"\n)\n\nfunc TestTaggedDeadlock(t *testing.T) {\n\tvar mu sync.Mutex\n\tmu.Lock()\n\tmu.Lock()\n}\n"
	if err := os.WriteFile(filepath.Join(root, "a", "tagged_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"test", "-race=false", "-budget", "2m", "-count", "1", "-run", "TestTaggedDeadlock", "-format", "json", "./a"}
	env, stdout, stderr := testEnv(t, root)
	if code := runMain(context.Background(), env, args); code != exitFindings {
		t.Fatalf("exit %d, want %d (the tagged test deadlocks): %s", code, exitFindings, stderr)
	}
	var rep struct {
		Findings []struct{ Test, Replay string }
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, stdout)
	}
	if len(rep.Findings) != 1 || rep.Findings[0].Test != "TestTaggedDeadlock" {
		t.Fatalf("findings %+v, want TestTaggedDeadlock's", rep.Findings)
	}
	line := strings.Fields(rep.Findings[0].Replay)
	if len(line) < 3 || line[0] != "interleave" || line[1] != "replay" {
		t.Fatalf("replay line %q, want interleave replay ...", rep.Findings[0].Replay)
	}
	env, stdout, stderr = testEnv(t, root)
	if code := runMain(context.Background(), env, line[1:]); code != exitFindings {
		t.Errorf("%s: exit %d, want %d (reproduced): %s", rep.Findings[0].Replay, code, exitFindings, stderr)
	}
	if !strings.Contains(stdout.String(), "race false, tags slowdeadlock)") {
		t.Errorf("replay does not say its build's tags:\n%s", stdout)
	}
	// -tags '' overrides the file: the test is not in the build.
	env, _, stderr = testEnv(t, root)
	if code := runMain(context.Background(), env, append([]string{"test", "-tags", ""}, args[1:]...)); code == exitFindings {
		t.Errorf("-tags '': exit %d, want no finding: %s", code, stderr)
	}
}

// TestTestConfigMaxSteps: interleave test takes max-steps from the file,
// under its own -max-steps, and config test says which.
func TestTestConfigMaxSteps(t *testing.T) {
	root := testModule(t, "max-steps: 500000\n")
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{nil, []string{"max-steps      500000", ".interleave.yaml:1"}},
		{[]string{"-max-steps", "9"}, []string{"max-steps      9", "flag -max-steps"}},
	} {
		env, stdout, stderr := testEnv(t, root)
		if code := runMain(context.Background(), env, append([]string{"config", "test"}, tc.args...)); code != exitOK {
			t.Fatalf("config test %q: exit %d: %s", tc.args, code, stderr)
		}
		for _, want := range tc.want {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("config test %q lacks %q:\n%s", tc.args, want, stdout)
			}
		}
	}
}
