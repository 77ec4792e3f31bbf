//go:build heavy

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pr -gen-budget runs gen on the changed types that claim thread safety;
// its findings are reported as the change's. By default e2e's
// TestPRGenOnBase checks the same through the binary (pr -gen-budget on a
// changed type that claims safety: its generated finding reported on the
// change and replayed), gen's TestCorpusLight finds and replays Hits'
// lost update, and TestREADMEFirstCommand runs gen with -base :empty, so
// this one is behind -tags heavy.
func TestPRGenChangedTypes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with the race detector")
	}
	dir := t.TempDir()
	src, err := os.ReadFile("../../checks/dynamic/gen/testdata/corpus/broken.go")
	if err != nil {
		t.Fatal(err)
	}
	// Only the lost-update counter, which gen finds on most schedules.
	i := strings.Index(string(src), "// Hits counts events.")
	hits := "package corpus\n\nimport \"sync/atomic\"\n\n" + string(src[i:])
	for name, body := range map[string]string{
		"go.mod":  "module example.com/gencorpus\n\ngo 1.24\n",
		"hits.go": hits,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "hits")
	var stdout, stderr string
	code := exitOK
	// Bounded by schedules (the budget is a guard); a count that met no
	// failure is doubled.
	for _, count := range []string{"20", "80"} {
		env, out, errb := testEnv(t, dir)
		code = commands["pr"].run(context.Background(), env, []string{"-base", ":empty", "-budget", "0", "-gen-budget", "5m", "-count", count, "-seed", "1", "-disable", "all"})
		stdout, stderr = out.String(), errb.String()
		if code != exitOK {
			break
		}
	}
	if code != exitFindings {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, exitFindings, stdout, stderr)
	}
	if !strings.Contains(stdout, `corpus.Hits is documented as "//interleave:threadsafe", but TestInterleaveGen_Hits_`) || !strings.Contains(stdout, "not linearizable") {
		t.Errorf("no gen finding on Hits in the report:\n%s", stdout)
	}
}
