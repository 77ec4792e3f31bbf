package explore

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
)

// privateDir copies the package directory and its data directories, links
// subpackages and everything up to the module root, keeps the layout, and
// its remove function removes even read-only copies.
func TestPrivateDir(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "mod")
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
	write("go.mod", "module example.com/mod\n")
	write("shared/data.txt", "shared")
	write("a/pkg/p.go", "package pkg\n")
	write("a/pkg/data.db", "db")
	write("a/pkg/testdata/in.txt", "in")
	write("a/pkg/docs/d.txt", "doc")
	write("a/pkg/sub/s.go", "package sub\n")
	write("a/other/o.go", "package other\n")
	pkg := filepath.Join(root, "a", "pkg")
	if err := os.Symlink("../../shared", filepath.Join(pkg, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(pkg, "testdata"), 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(filepath.Join(pkg, "testdata"), 0o755)

	work := t.TempDir()
	dir, remove, err := privateDir(work, pkg)
	if err != nil {
		t.Fatal(err)
	}
	if rel, _ := filepath.Rel(work, dir); filepath.Base(dir) != "pkg" || filepath.Base(filepath.Dir(filepath.Dir(dir))) != "mod" || filepath.Dir(rel) == "." {
		t.Errorf("copy at %s: want .../mod/a/pkg under %s", dir, work)
	}
	mode := func(name string) os.FileMode {
		t.Helper()
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode()
	}
	for _, name := range []string{"p.go", "data.db", "testdata/in.txt", "docs/d.txt"} {
		if !mode(name).IsRegular() {
			t.Errorf("%s: mode %v, want a copied file", name, mode(name))
		}
	}
	for _, name := range []string{"testdata", "docs"} {
		if !mode(name).IsDir() {
			t.Errorf("%s: mode %v, want a directory", name, mode(name))
		}
	}
	if m := mode("testdata"); m.Perm() != 0o555 {
		t.Errorf("testdata: mode %v, want the original's 0555", m)
	}
	for _, name := range []string{"sub", "../other", "../../shared", "../../go.mod", "link"} {
		if mode(name)&os.ModeSymlink == 0 {
			t.Errorf("%s: mode %v, want a link", name, mode(name))
		}
	}
	for name, want := range map[string]string{"../../shared/data.txt": "shared", "link/data.txt": "shared", "sub/s.go": "package sub\n", "../other/o.go": "package other\n"} {
		if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name))); err != nil || string(b) != want {
			t.Errorf("%s: %q, %v; want %q", name, b, err, want)
		}
	}
	// What a test writes and removes in its directory stays in the copy.
	if err := os.WriteFile(filepath.Join(dir, "new.db"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data.db"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "p.go")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(pkg, "new.db")); !os.IsNotExist(err) {
		t.Errorf("new.db reached the package directory: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(pkg, "data.db")); string(b) != "db" {
		t.Errorf("data.db in the package directory: %q, want it unchanged", b)
	}
	if _, err := os.Stat(filepath.Join(pkg, "p.go")); err != nil {
		t.Errorf("p.go: %v, want it still in the package directory", err)
	}
	remove()
	if ents, _ := os.ReadDir(work); len(ents) != 0 {
		t.Errorf("%d entries left in the work directory after remove", len(ents))
	}
	if b, _ := os.ReadFile(filepath.Join(root, "shared", "data.txt")); string(b) != "shared" {
		t.Errorf("shared/data.txt after remove: %q", b)
	}
	// A package outside any module: the directory alone.
	plain := filepath.Join(t.TempDir(), "loose")
	if err := os.Mkdir(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	dir, remove, err = privateDir(work, plain)
	if err != nil || filepath.Base(dir) != "loose" {
		t.Errorf("privateDir of a loose directory = %s, %v", dir, err)
	}
	remove()
}

// TestOwnWorkingDirectory: every process of a search, and every plain run,
// runs in a directory of its own, with a temporary directory of its own
// (removed after it); the package's directory is left as it was. cwdfiles' test fails when it finds a file another process left in
// its working directory (as buntdb's tests share data.db).
func TestOwnWorkingDirectory(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and searches a package; skipped with -short")
	}
	dir, build := sharedBuild(t, realsuiteDrvDir)
	pkg := filepath.Join(dir, "cwdfiles")
	left := func() []string {
		a, _ := filepath.Glob(filepath.Join(pkg, "marker.*"))
		b, _ := filepath.Glob(filepath.Join(pkg, "testdata", "marker.*"))
		return append(a, b...)
	}
	defer func() {
		for _, m := range left() {
			os.Remove(m)
		}
	}()
	res, err := Run(context.Background(), Options{
		Dir: dir, Patterns: []string{"./cwdfiles"}, Budget: 2 * time.Minute, Seed: 1, Schedules: 20, Workers: 2, SchedulesDir: t.TempDir(), Build: build,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Notes {
		t.Errorf("note: %s", n)
	}
	for _, f := range res.Findings {
		t.Errorf("%s: %s at %s: %s", f.Test, f.Kind, f.Pos, f.Message)
	}
	if m := left(); len(m) > 0 {
		t.Errorf("files the tests wrote are in the package directory: %q", m)
	}
	if m, _ := filepath.Glob(filepath.Join(os.TempDir(), "il*", "interleave-cwdfiles.*")); len(m) > 0 {
		t.Errorf("the processes' temporary directories are left: %q", m)
	}
}

// TestPlainOwnWorkingDirectory: plain go test's runs of a finding's test
// each run in a directory of their own too: cwdfiles' test passes all
// three, and leaves nothing in the package directory.
func TestPlainOwnWorkingDirectory(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs a package's tests; skipped with -short")
	}
	dir, err := filepath.Abs(realsuiteDrvDir)
	if err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(dir, "cwdfiles")
	left := func() []string {
		a, _ := filepath.Glob(filepath.Join(pkg, "marker.*"))
		b, _ := filepath.Glob(filepath.Join(pkg, "testdata", "marker.*"))
		return append(a, b...)
	}
	defer func() {
		for _, m := range left() {
			os.Remove(m)
		}
	}()
	f := checks.Finding{Package: "realsuitedrv/cwdfiles", Test: "TestMarker", Kind: checks.TestFailure, Message: "TestMarker: test failed: cwdfiles_test.go:45: n = 1",
		Pos: checks.Position{File: filepath.Join(pkg, "cwdfiles_test.go"), Line: 45}}
	labels, err := PlainCheck(context.Background(), []checks.Finding{f}, PlainOptions{Dir: dir, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if p := labels[0]; p.Runs != plainRuns || p.ExitCode != 0 {
		t.Errorf("plain go test: %s; want %d runs that pass", p.Label(), plainRuns)
	}
	if m := left(); len(m) > 0 {
		t.Errorf("files the plain runs wrote are in the package directory: %q", m)
	}
}

// BenchmarkPrivateDir: the copy a test process of this package would run
// in (its files, testdata; the rest of the module linked).
func BenchmarkPrivateDir(b *testing.B) {
	pkg, err := filepath.Abs(".")
	if err != nil {
		b.Fatal(err)
	}
	if d := os.Getenv("INTERLEAVE_BENCH_PKGDIR"); d != "" {
		pkg = d
	}
	work := b.TempDir()
	for b.Loop() {
		_, remove, err := privateDir(work, pkg)
		if err != nil {
			b.Fatal(err)
		}
		remove()
	}
}
