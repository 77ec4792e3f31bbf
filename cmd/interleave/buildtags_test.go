package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// writeFiles writes files (slash-separated names) under root.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGenConfigTags: the only type of package a is in a file that needs
// the tag .interleave.yaml sets; gen builds with it (the type is tested),
// and -tags ” overrides the file (nothing to test). Tally is correct, so
// the search decides nothing: one schedule per worker (-count 1), the
// short budget a guard.
func TestGenConfigTags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches generated tests")
	}
	t.Setenv("GOFLAGS", "")
	root := testModule(t, "tags: [gentagged]\n")
	writeFiles(t, root, map[string]string{
		"a/doc.go":   "// Package a has its type behind a build tag.\npackage a\n",
		"a/tally.go": "//go:build gentagged\n\npackage a\n\nimport \"sync\"\n\n// Tally counts. It is safe for concurrent use.\ntype Tally struct {\n\tmu sync.Mutex\n\tn  int\n}\n\n// Add counts n.\nfunc (t *Tally) Add(n int) {\n\tt.mu.Lock()\n\tdefer t.mu.Unlock()\n\tt.n += n\n}\n\n// Count is the count.\nfunc (t *Tally) Count() int {\n\tt.mu.Lock()\n\tdefer t.mu.Unlock()\n\treturn t.n\n}\n",
	})
	args := []string{"-race=false", "-seed", "1", "-n", "2", "-count", "1", "-budget", "2s", "-schedules", t.TempDir(), "-tests", t.TempDir(), "./a"}
	env, _, stderr := testEnv(t, root)
	if code := commands["gen"].run(context.Background(), env, args); code != exitOK {
		t.Fatalf("exit %d, want %d: %s", code, exitOK, stderr)
	}
	for _, want := range []string{"build tags gentagged (.interleave.yaml)", "example.com/m/a.Tally ("} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	env, _, stderr = testEnv(t, root)
	if code := commands["gen"].run(context.Background(), env, append([]string{"-tags", ""}, args...)); code != exitOK || !strings.Contains(stderr.String(), "nothing to test") {
		t.Errorf("-tags '': exit %d, want %d and nothing to test: %s", code, exitOK, stderr)
	}
}

// TestReproConfigTags: a plain go test log of a test in a file that needs
// the tag .interleave.yaml sets; repro searches with it and reproduces the
// log's deadlock, and the schedule replays; with -tags ” the test is not
// in the build (exit 4).
func TestReproConfigTags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches a test")
	}
	t.Setenv("GOFLAGS", "")
	root := testModule(t, "tags: [reprotagged]\n")
	writeFiles(t, root, map[string]string{
		"a/tagged_test.go": "//go:build reprotagged\n\npackage a\n\nimport (\n\t\"sync\"\n\t\"testing\"\n)\n\nfunc TestTaggedDeadlock(t *testing.T) {\n\tvar mu sync.Mutex\n\tmu.Lock()\n\tmu.Lock()\n}\n",
	})
	// The log: plain go test with the tag; no -timeout, so the runtime
	// finds the deadlock at once.
	cmd := exec.Command("go", "test", "-count=1", "-timeout=0", "-tags=reprotagged", "-run", "TestTaggedDeadlock", "./a")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "TestTaggedDeadlock") {
		t.Fatalf("go test: %v, want the deadlock:\n%s", err, out)
	}
	logFile := filepath.Join(t.TempDir(), "ci.log")
	if err := os.WriteFile(logFile, out, 0o644); err != nil {
		t.Fatal(err)
	}
	// The budget only bounds a search that goes wrong: repro stops at
	// the log's failure.
	args := []string{"-race=false", "-seed", "1", "-budget", "2m", "-format", "json", "-schedules", t.TempDir(), logFile}
	env, stdout, stderr := testEnv(t, root)
	if code := commands["repro"].run(context.Background(), env, args); code != exitFindings {
		t.Fatalf("exit %d, want %d (reproduced): %s", code, exitFindings, stderr)
	}
	if !strings.Contains(stderr.String(), "build tags reprotagged (.interleave.yaml)") {
		t.Errorf("stderr does not say the tags:\n%s", stderr)
	}
	var rep struct {
		Findings []struct{ Test, Replay string }
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || len(rep.Findings) != 1 {
		t.Fatalf("report (%v): want one finding:\n%s", err, stdout)
	}
	line := strings.Fields(rep.Findings[0].Replay)
	if len(line) < 3 || line[0] != "interleave" || line[1] != "replay" {
		t.Fatalf("replay line %q, want interleave replay ...", rep.Findings[0].Replay)
	}
	env, stdout, stderr = testEnv(t, root)
	if code := runMain(context.Background(), env, line[1:]); code != exitFindings || !strings.Contains(stdout.String(), "tags reprotagged") {
		t.Errorf("%s: exit %d, want %d (reproduced, with the tags): %s%s", rep.Findings[0].Replay, code, exitFindings, stdout, stderr)
	}
	env, _, stderr = testEnv(t, root)
	if code := commands["repro"].run(context.Background(), env, append([]string{"-tags", ""}, args...)); code != exitReproNotFound {
		t.Errorf("-tags '': exit %d, want %d (the test is not in the build): %s", code, exitReproNotFound, stderr)
	}
}

// TestPRGenTags: pr's gen stage builds with pr's -tags: the changed type
// of gen's testdata/tagged, in a file only the tag includes, is tested
// (generated and searched). The search decides nothing here (one
// schedule per worker, -count 1; the short gen budget a guard):
// TestTagsGen (checks/dynamic/gen) finds and replays its deadlock.
func TestPRGenTags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches generated tests")
	}
	t.Setenv("GOFLAGS", "")
	dir := t.TempDir()
	from := filepath.Join("..", "..", "checks", "dynamic", "gen", "testdata", "tagged")
	files := map[string]string{}
	for _, name := range []string{"go.mod", "doc.go", "ledger.go"} {
		b, err := os.ReadFile(filepath.Join(from, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	writeFiles(t, dir, files)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-qm", "ledger"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	env, stdout, stderr := testEnv(t, dir)
	code := commands["pr"].run(context.Background(), env, []string{"-base", ":empty", "-budget", "0", "-gen-budget", "3s", "-count", "1", "-seed", "1", "-disable", "all", "-race=false", "-tags", "interleavegentag"})
	if code != exitOK && code != exitFindings {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if want := "gen: example.com/gentagged.Ledger: "; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr lacks %q (Ledger generated and searched with the tag):\n%s", want, stderr)
	}
}
