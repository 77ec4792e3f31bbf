package diff

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the testdata/*.diff.json golden files")

// TestGolden parses every testdata/*.diff (made by testdata/gen.sh with real
// git) and compares the result with the matching .diff.json.
func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/*.diff")
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatal("no testdata/*.diff files: run testdata/gen.sh")
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			b, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			files, err := ParseBytes(b)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got, err := json.MarshalIndent(files, "", "\t")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := in + ".json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Parse(%s) differs from %s; got:\n%s", in, golden, got)
			}
		})
	}
}

// TestMixed checks the facts the golden file encodes, so that a wrong
// golden file cannot be accepted by accident.
func TestMixed(t *testing.T) {
	b, err := os.ReadFile("testdata/mixed_u0.diff")
	if err != nil {
		t.Fatal(err)
	}
	files, err := ParseBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]*File{}
	for _, f := range files {
		byPath[f.Path()] = f
	}
	tests := []struct {
		name       string
		path       string
		old        string
		status     Status
		binary     bool
		modeChange bool
		added      []Range
		deletions  []int
	}{
		{name: "binary", path: "blob.bin", old: "blob.bin", status: Modified, binary: true},
		{name: "unicode quoted", path: "café.txt", status: Added, added: []Range{{1, 1}}},
		{name: "deleted", path: "gone.go", old: "gone.go", status: Deleted},
		{name: "modified", path: "ledger.go", old: "ledger.go", status: Modified, added: []Range{{12, 12}, {16, 19}}},
		{name: "space added", path: "new file.go", status: Added, added: []Range{{1, 3}}},
		{name: "renamed edited", path: "new_name.go", old: "old_name.go", status: Renamed, added: []Range{{5, 5}}},
		{name: "no newline", path: "nonl.txt", old: "nonl.txt", status: Modified, added: []Range{{1, 1}}},
		{name: "pure deletion", path: "notes.txt", old: "notes.txt", status: Modified, deletions: []int{1}},
		{name: "quote in name", path: `q"uote.txt`, old: `q"uote.txt`, status: Modified, added: []Range{{1, 1}}},
		{name: "mode only", path: "run.sh", old: "run.sh", status: Modified, modeChange: true},
		{name: "pure rename", path: "sub/moved.go", old: "moved.go", status: Renamed},
		{name: "space modified", path: "with space.txt", old: "with space.txt", status: Modified, added: []Range{{1, 1}}},
	}
	if len(files) != len(tests) {
		t.Errorf("got %d files, want %d", len(files), len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := byPath[tt.path]
			if f == nil {
				t.Fatalf("no file %q in %v", tt.path, keys(byPath))
			}
			if f.OldPath != tt.old || f.Status != tt.status || f.Binary != tt.binary || f.ModeChanged() != tt.modeChange {
				t.Errorf("got old=%q status=%s binary=%v modeChanged=%v, want old=%q status=%s binary=%v modeChanged=%v",
					f.OldPath, f.Status, f.Binary, f.ModeChanged(), tt.old, tt.status, tt.binary, tt.modeChange)
			}
			if got := f.AddedLines(); !reflect.DeepEqual(got, tt.added) {
				t.Errorf("AddedLines() = %v, want %v", got, tt.added)
			}
			if got := f.DeletionPoints(); !reflect.DeepEqual(got, tt.deletions) {
				t.Errorf("DeletionPoints() = %v, want %v", got, tt.deletions)
			}
		})
	}
}

func keys(m map[string]*File) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestContextHunks(t *testing.T) {
	b, err := os.ReadFile("testdata/mixed_u3.diff")
	if err != nil {
		t.Fatal(err)
	}
	files, err := ParseBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Path() != "ledger.go" {
			continue
		}
		// With three lines of context the two changes merge into one hunk,
		// and the added lines are the same as with -U0.
		if len(f.Hunks) != 1 {
			t.Fatalf("got %d hunks, want 1", len(f.Hunks))
		}
		if got, want := f.AddedLines(), []Range{{12, 12}, {16, 19}}; !reflect.DeepEqual(got, want) {
			t.Errorf("AddedLines() = %v, want %v", got, want)
		}
		return
	}
	t.Fatal("ledger.go not in mixed_u3.diff")
}

func TestMalformed(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{name: "not a diff", in: "hello\n", want: `expected "diff --git"`},
		{name: "bad hunk header", in: "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1\n", want: "malformed hunk header"},
		{name: "short hunk", in: "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n", want: "hunk ends early"},
		{name: "junk in hunk", in: "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n*a\n", want: "unexpected line in hunk"},
		{name: "noprefix", in: "diff --git x x\n", want: "prefix"},
		{name: "bad quote", in: "diff --git \"a/x b/x\n", want: "unterminated"},
		{name: "bad escape", in: "diff --git \"a/\\q\" \"b/\\q\"\n", want: "unknown escape"},
		{name: "missing +++", in: "diff --git a/x b/x\n--- a/x\n@@ -1 +1 @@\n", want: `not followed by "+++ "`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseBytes([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestEmpty(t *testing.T) {
	files, err := ParseBytes(nil)
	if err != nil || len(files) != 0 {
		t.Errorf("got %v, %v; want no files and no error", files, err)
	}
}

func TestHeaderNames(t *testing.T) {
	tests := []struct{ in, old, new string }{
		{"a/x.go b/x.go", "x.go", "x.go"},
		{"a/has b/inside b/has b/inside", "has b/inside", "has b/inside"},
		{`"a/t\tab" "b/t\tab"`, "t\tab", "t\tab"},
		{`a/plain "b/caf\303\251"`, "plain", "café"},
	}
	for _, tt := range tests {
		o, n, err := headerNames(tt.in)
		if err != nil || o != tt.old || n != tt.new {
			t.Errorf("headerNames(%q) = %q, %q, %v; want %q, %q", tt.in, o, n, err, tt.old, tt.new)
		}
	}
}

func BenchmarkParse5000(b *testing.B) {
	var buf bytes.Buffer
	for i := range 5000 {
		fmt.Fprintf(&buf, "diff --git a/p%d/f.go b/p%d/f.go\nindex 1..2 100644\n--- a/p%d/f.go\n+++ b/p%d/f.go\n@@ -3 +3,2 @@ func F() {\n-\tx := 1\n+\tx := 2\n+\ty := 3\n", i, i, i, i)
	}
	in := buf.Bytes()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		files, err := ParseBytes(in)
		if err != nil || len(files) != 5000 {
			b.Fatalf("got %d files, %v", len(files), err)
		}
	}
}

func TestUnmergedAndSubmodule(t *testing.T) {
	in := "* Unmerged path conflict.go\n" +
		"diff --git a/sub b/sub\nindex 1111111..2222222 160000\n--- a/sub\n+++ b/sub\n@@ -1 +1 @@\n-Subproject commit 1111111111111111111111111111111111111111\n+Subproject commit 2222222222222222222222222222222222222222\n"
	files, err := ParseBytes([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Path() != "sub" || files[0].NewMode != "160000" {
		t.Errorf("got %+v, want the submodule sub with mode 160000", files)
	}
}
