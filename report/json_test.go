package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
)

// TestReadJSON: what JSON writes reads back; a file that is not the
// envelope, another version or missing is an error naming the file.
func TestReadJSON(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	f := checks.Finding{Rule: "IL8101", Message: "m", Pos: checks.Position{File: filepath.Join(dir, "a.go"), Line: 3}}
	if err := (JSON{}).Write(&buf, &Report{Findings: []checks.Finding{f}, Root: dir}); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	r, err := ReadJSON(write("ok.json", buf.String()))
	if err != nil || len(r.Findings) != 1 || r.Findings[0].Rule != "IL8101" || r.Findings[0].Pos.File != "a.go" || r.Findings[0].Fingerprint == "" {
		t.Fatalf("ReadJSON = %+v, %v; want the finding back", r, err)
	}
	for _, c := range []struct{ name, text, want string }{
		{"bad.json", "{", "bad.json is not an interleave JSON report"},
		{"old.json", `{"version":1,"tool":{"name":"interleave"}}`, `old.json is tool "interleave" version 1, want interleave JSON version 2`},
		{"other.json", `{"version":2,"tool":{"name":"other"}}`, `tool "other" version 2`},
	} {
		if _, err := ReadJSON(write(c.name, c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := ReadJSON(filepath.Join(dir, "none.json")); err == nil || !strings.Contains(err.Error(), "read report") {
		t.Errorf("missing file: err %v", err)
	}
}
