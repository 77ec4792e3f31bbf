package gen

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The sequential runs do not vet the generated calls: a printf-like
// method called with a format of no directives (logrus v1.5.0's
// Logger.Warnf("a", 1), drawn by gen) failed go test's vet and with it
// every generated test of the package. Fails without -vet=off.
func TestGoTestNoVet(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":    "module example.com/m\n\ngo 1.24\n",
		"m.go":      "package m\n\nimport \"fmt\"\n\n// Logf formats.\nfunc Logf(format string, args ...any) string { return fmt.Sprintf(format, args...) }\n",
		"m_test.go": "package m\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) { _ = Logf(\"a\", 1) }\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var built time.Duration
	st, _, stderr, err := goTestJSON(context.Background(), dir, "60s", 1, nil, []string{"TestX"}, []string{"."}, &built)
	if err != nil {
		t.Fatal(err)
	}
	if st["example.com/m.TestX"] != "pass" && st["TestX"] != "pass" {
		t.Errorf("TestX: %v, want pass; go test: %s", st, stderr)
	}
}
