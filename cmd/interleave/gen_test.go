package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/gen"
)

func TestGenBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-budget", "0s"},
		{"-n", "0"},
		{"-types", "("},
		{"-strategy", "nope"},
		{"-tests", ""},
	} {
		env, _, stderr := testEnv(t, t.TempDir())
		if code := commands["gen"].run(context.Background(), env, args); code != exitError {
			t.Errorf("gen %v: exit %d, want %d", args, code, exitError)
		}
		if !strings.Contains(stderr.String(), "interleave gen: ") {
			t.Errorf("gen %v: no message: %s", args, stderr)
		}
	}
}

// A module without a type that claims thread safety has nothing to test:
// that is no error.
func TestGenNoTargets(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/plain\n\ngo 1.24\n")
	write("plain.go", "package plain\n\n// Counter counts. It is not safe for concurrent use.\ntype Counter struct{ n int }\n\n// Inc counts one.\nfunc (c *Counter) Inc() { c.n++ }\n")
	env, _, stderr := testEnv(t, dir)
	if code := commands["gen"].run(context.Background(), env, []string{"-seed", "1", "."}); code != exitOK {
		t.Fatalf("exit %d, want %d: %s", code, exitOK, stderr)
	}
	if !strings.Contains(stderr.String(), "nothing to test") {
		t.Errorf("stderr does not say there is nothing to test:\n%s", stderr)
	}
}

// gen on the corpus's lost-update counter: the finding, its schedule and the
// generated test file. The report's replay line reproduces it as printed, in
// a fresh replay with nothing copied: the schedule carries the generated test.
func TestGenFindsLostUpdate(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds with the race detector")
	}
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-r", "../../checks/dynamic/gen/testdata/corpus/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("copy corpus: %v: %s", err, out)
	}
	// Bounded by a count (seed 1, two workers: 6 of the third test's 41
	// schedules fail, 13 of 81 with -count 40); the budget only stops a
	// machine that cannot do it.
	env, outb, errb := testEnv(t, dir)
	code := commands["gen"].run(context.Background(), env, []string{"-types", "^Hits$", "-n", "3", "-seed", "1", "-count", "20", "-budget", "5m", "."})
	stdout, stderr := outb.String(), errb.String()
	if code != exitFindings {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, exitFindings, stdout, stderr)
	}
	if !strings.Contains(stdout, "not linearizable") {
		t.Errorf("report does not say not linearizable:\n%s", stdout)
	}
	file := filepath.Join(dir, gen.DefaultTestsDir, "example.com", "gencorpus", gen.FileName)
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("no generated test file: %v\n%s", err, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, gen.FileName)); !os.IsNotExist(err) {
		t.Fatalf("the generated file is in the package (%v): the replay would not show that the schedule carries it", err)
	}
	var line string
	for _, l := range strings.Split(stdout, "\n") {
		if _, s, ok := strings.Cut(l, "replay: "); ok && strings.HasPrefix(strings.TrimSpace(s), "interleave replay ") {
			line = strings.TrimSpace(s)
			break
		}
	}
	args := strings.Fields(line)
	if len(args) != 3 {
		t.Fatalf("no one-command replay line in the report (got %q):\n%s", line, stdout)
	}
	code, out := replayIn(t, dir, args[2:])
	if code != exitFindings || !strings.Contains(out, "REPRODUCED") {
		t.Errorf("%s: exit %d, want %d and REPRODUCED\n%s", line, code, exitFindings, out)
	}
	// The schedules of the generated tests not reported (the same failure
	// again) carry the file too.
	files, _ := filepath.Glob(filepath.Join(dir, explore.DefaultSchedulesDir, "TestInterleaveGen_*.json"))
	for _, f := range files {
		s, err := explore.ReadSchedule(f)
		if err != nil || len(s.Files) != 1 || s.Files[0].Name != gen.FileName {
			t.Errorf("%s does not carry the generated file (%v)", f, err)
		}
	}
	if len(files) == 0 {
		t.Errorf("no schedule files in %s", explore.DefaultSchedulesDir)
	}
}

func TestPRGenBudgetBad(t *testing.T) {
	for _, v := range []string{"-1s", "soon", "Auto"} {
		env, _, stderr := testEnv(t, t.TempDir())
		if code := commands["pr"].run(context.Background(), env, []string{"-base", "HEAD", "-gen-budget", v}); code != exitError {
			t.Errorf("-gen-budget %s: exit %d, want %d: %s", v, code, exitError, stderr)
		} else if !strings.Contains(stderr.String(), "want auto, 0 or a duration") {
			t.Errorf("-gen-budget %s: no clear message: %s", v, stderr)
		}
	}
}
