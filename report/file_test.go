package report

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// A report file is readable by another user (mode 0644), replaces the old one whole, and leaves no temporary file.
func TestWriteFileMode(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "r.json")
	for _, content := range []string{"first report, the longer one\n", "second\n"} {
		if err := WriteFileBytes(name, []byte(content)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil || string(got) != content {
			t.Fatalf("got %q, %v; want %q", got, err, content)
		}
		st, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o644 {
			t.Errorf("mode %v, want 0644: a 0600 report is unreadable to the next CI step's user", st.Mode().Perm())
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("dir holds %d entries, want only the report", len(entries))
	}
}

// A failed render leaves the old report and no temporary file.
func TestWriteFileFailure(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "r.json")
	if err := WriteFileBytes(name, []byte("old\n")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFile(name, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err %v, want boom", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "old\n" {
		t.Errorf("report %q after a failed write, want the old one", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("dir holds %d entries, want only the report", len(entries))
	}
	if err := WriteFileBytes(filepath.Join(dir, "missing", "r.json"), nil); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}
