package explore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// A schedule of a nested module replays from the parent module's directory:
// the module around the schedule file wins over the working directory's.
func TestPackageDirNestedModule(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		name = filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/outer\n")
	write("inner/go.mod", "module example.com/inner\n")
	write("inner/pkg/p.go", "package pkg\n")
	write("inner/.interleave/schedules/s.json", "{}")

	sched := &rt.Schedule{Package: "example.com/inner", Dir: "."}
	got, err := packageDir(sched, root, filepath.Join(root, "inner/.interleave/schedules/s.json"))
	if err != nil || got != filepath.Join(root, "inner") {
		t.Errorf("packageDir = %q, %v; want %q", got, err, filepath.Join(root, "inner"))
	}
	sched = &rt.Schedule{Package: "example.com/inner/pkg", Dir: "pkg"}
	got, err = packageDir(sched, filepath.Join(root, "inner"), filepath.Join(root, "elsewhere/s.json"))
	if err != nil || got != filepath.Join(root, "inner", "pkg") {
		t.Errorf("packageDir = %q, %v; want %q", got, err, filepath.Join(root, "inner", "pkg"))
	}
	sched = &rt.Schedule{Package: "example.com/gone", Dir: "gone"}
	if got, err := packageDir(sched, root, filepath.Join(root, "s.json")); err == nil {
		t.Errorf("packageDir of a missing package = %q, want an error", got)
	}
	// A schedule of another module says so, with no path (a token).
	sched = &rt.Schedule{Package: "example.com/bank/ledger", Dir: "ledger"}
	_, err = packageDir(sched, filepath.Join(root, "inner"), "")
	if err == nil || !strings.Contains(err.Error(), "for package example.com/bank/ledger of module example.com/bank, but") ||
		!strings.Contains(err.Error(), "is in module example.com/inner: run interleave replay in a clone of example.com/bank") {
		t.Errorf("another module: err = %v", err)
	}
	// A package of this module that is not in this checkout.
	sched = &rt.Schedule{Package: "example.com/inner/gone", Dir: "gone"}
	_, err = packageDir(sched, filepath.Join(root, "inner"), "")
	if err == nil || !strings.Contains(err.Error(), "which is not in this checkout of example.com/inner") {
		t.Errorf("missing package: err = %v", err)
	}
}
