package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const aTest = "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n"

func TestLoadChecksTheListing(t *testing.T) {
	for _, tc := range []struct {
		name, listing, want string
		extra               map[string]string
	}{
		{"ok", `{"bugs":[{"dir":"k/a","test":"TestA"}]}`, "", nil},
		{"missing test", `{"bugs":[{"dir":"k/a","test":"TestB"}]}`, `declares no test "TestB"`, nil},
		{"unlisted dir", `{"bugs":[{"dir":"k/a","test":"TestA"}]}`, "k/b is not listed", map[string]string{"k/b/b_test.go": aTest}},
		{"twice", `{"bugs":[{"dir":"k/a","test":"TestA"}],"correct":[{"dir":"k/a","test":"TestA"}]}`, "listed twice", nil},
		{"bad json", `{"bugs":[`, "kernels.json", nil},
	} {
		files := map[string]string{"kernels.json": tc.listing, "k/a/a_test.go": aTest}
		for k, v := range tc.extra {
			files[k] = v
		}
		ks, err := load(writeTree(t, files))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want == "" && (len(ks) != 1 || ks[0].Test != "TestA" || ks[0].correct):
			t.Errorf("%s: got %+v", tc.name, ks)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestNotes(t *testing.T) {
	stderr := "interleave test: seed 5 (repeat with -seed 5), budget 1s\n" +
		"interleave test: note: k: not reported, most likely the tool's doing\n" +
		"interleave test: fails without interleave too (not a finding): TestA: boom\n" +
		"interleave test: 3 schedules in 1.0s (3/s), 0 finding(s), seed 5\n"
	got := notes(stderr)
	want := []string{"k: not reported, most likely the tool's doing", "fails without interleave too (not a finding): TestA: boom"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes = %q, want %q", got, want)
	}
	if m := seedRE.FindStringSubmatch(stderr); m == nil || m[1] != "5" {
		t.Errorf("seed not found: %v", m)
	}
}
