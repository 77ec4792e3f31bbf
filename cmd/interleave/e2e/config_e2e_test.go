package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPRConfigIgnoreAndExclude runs pr under a base's .interleave.yaml: an
// ignore entry that does not match leaves the finding; one that matches
// keeps it out (exit 0) and the summary says why; exclude does too.
func TestPRConfigIgnoreAndExclude(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: runs the static passes")
	}
	r := newPRRepo(t)
	other := r.commit(map[string]string{
		"go.mod":            "module example.com/m\n\ngo 1.22\n",
		"work/work.go":      brokenWorkBase,
		"work/work_test.go": brokenWorkTest,
		".interleave.yaml":  "budget: 0\nignore:\n  - rule: IL2002\n    path: other\n    reason: elsewhere\n",
	})
	known := r.commit(map[string]string{".interleave.yaml": "budget: 0\nignore:\n  - rule: lock-held-at-return\n    path: work/work.go\n    reason: known leak, fixed in the next release\n"})
	excluded := r.commit(map[string]string{".interleave.yaml": "budget: 0\nexclude: [./work/...]\n"})
	r.commit(map[string]string{"work/work.go": brokenWorkHead + brokenSpawn, ".interleave.yaml": "budget: 0\n"})
	for _, tc := range []struct {
		name, base string
		code       int
		want       []string
	}{
		{"no match", other, exitFindings, []string{"IL2002"}},
		{"ignored", known, exitOK, []string{"1 finding kept out as a known failure (" + known + ":.interleave.yaml:3): known leak, fixed in the next release"}},
		{"excluded", excluded, exitOK, []string{"1 finding in excluded packages (./work/...) not reported"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sum := filepath.Join(t.TempDir(), "summary.md")
			code, stdout, stderr := r.runPR("-base", tc.base, "-summary", sum, "-enable", "IL2002")
			md, _ := os.ReadFile(sum)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			for _, want := range tc.want {
				if !strings.Contains(stdout+stderr, want) || tc.code == exitOK && !strings.Contains(string(md), want) {
					t.Errorf("output or summary lacks %q\nstdout:\n%s\nstderr:\n%s\nsummary:\n%s", want, stdout, stderr, md)
				}
			}
			if !strings.Contains(stderr, "settings from "+tc.base+":.interleave.yaml") {
				t.Errorf("stderr does not name the base's file:\n%s", stderr)
			}
		})
	}
}
