package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestChdirFlag(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(".") // restored after the test
	for _, args := range [][]string{{"-C", dir, "check", "./..."}, {"-C=" + dir, "check", "./..."}} {
		if err := os.Chdir(os.TempDir()); err != nil {
			t.Fatal(err)
		}
		rest, err := chdirFlag(args)
		if err != nil || !slices.Equal(rest, []string{"check", "./..."}) {
			t.Errorf("chdirFlag(%q) = %q, %v", args, rest, err)
		}
		wd, _ := os.Getwd()
		if want, _ := filepath.EvalSymlinks(dir); wd != want && wd != dir {
			t.Errorf("chdirFlag(%q): working directory %s, want %s", args, wd, dir)
		}
	}
	if rest, err := chdirFlag([]string{"check"}); err != nil || !slices.Equal(rest, []string{"check"}) {
		t.Errorf("without -C: %q, %v", rest, err)
	}
	if _, err := chdirFlag([]string{"-C"}); err == nil || !strings.Contains(err.Error(), "needs a directory") {
		t.Errorf("-C without a directory: %v", err)
	}
	if _, err := chdirFlag([]string{"-C", filepath.Join(dir, "missing"), "check"}); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("-C to a missing directory: %v", err)
	}
}

func TestRaceDefaultWithoutCgo(t *testing.T) {
	saved := cgoEnabled
	t.Cleanup(func() { cgoEnabled = saved })
	cgoEnabled = func() bool { return false }

	env, _, stderr := testEnv(t, ".")
	opts, _, ok := parsePRFlags(env, []string{"-base", "main"}, func(string) string { return "" })
	if !ok || opts.Race || !strings.Contains(stderr.String(), "race detector off: it needs cgo") {
		t.Errorf("defaulted -race without cgo: race %v, stderr %q; want off with a note", ok && opts.Race, stderr)
	}
	env, _, stderr = testEnv(t, ".")
	opts, _, ok = parsePRFlags(env, []string{"-base", "main", "-race"}, func(string) string { return "" })
	if !ok || !opts.Race || stderr.Len() != 0 {
		t.Errorf("explicit -race without cgo: race %v, stderr %q; want it kept, silently", ok && opts.Race, stderr)
	}
	env, _, _ = testEnv(t, ".")
	topts, _, ok := parseTestFlags(env, []string{"./..."})
	if !ok || topts.race {
		t.Errorf("interleave test: defaulted -race without cgo stays on")
	}
}
