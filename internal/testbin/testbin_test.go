package testbin

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// module writes a module with one package whose test prints answer.
func module(t *testing.T, answer string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":    "module example.com/m\n\ngo 1.22\n",
		"m.go":      "package m\n\nfunc Answer() string { return " + answer + " }\n",
		"m_test.go": "package m\n\nimport \"testing\"\n\nfunc TestAnswer(t *testing.T) { t.Log(Answer()) }\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func build(t *testing.T, kind, dir string, args ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "m.test")
	if out, err := Build(context.Background(), kind, dir, nil, append(args, "."), bin); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return bin
}

func runAnswer(t *testing.T, bin string) string {
	t.Helper()
	out, err := exec.Command(bin, "-test.v", "-test.run", "TestAnswer").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return string(out)
}

// An unchanged package's second build is the first's file (the go command
// found its slot up to date and did not link); a changed one is linked
// anew, runs the new code, and leaves the first binary as it was.
func TestBuildReusesUpToDateSlot(t *testing.T) {
	t.Setenv("INTERLEAVE_TESTBIN_CACHE", t.TempDir())
	dir := module(t, `"first"`)
	a := build(t, "plain", dir, "-vet=off")
	b := build(t, "plain", dir, "-vet=off")
	if !sameFile(t, a, b) {
		t.Error("an unchanged package was linked again")
	}
	if err := os.WriteFile(filepath.Join(dir, "m.go"), []byte("package m\n\nfunc Answer() string { return \"second\" }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := build(t, "plain", dir, "-vet=off")
	if sameFile(t, a, c) {
		t.Fatal("a changed package took the old binary")
	}
	if out := runAnswer(t, c); !strings.Contains(out, "second") {
		t.Errorf("the new binary runs old code:\n%s", out)
	}
	if out := runAnswer(t, a); !strings.Contains(out, "first") {
		t.Errorf("the first binary changed under its user:\n%s", out)
	}
	// Another kind or other flags keep a slot of their own.
	if d := build(t, "instrumented", dir, "-vet=off"); sameFile(t, c, d) {
		t.Error("two kinds share a slot")
	}
}

// Without a cache the binary is built where asked, linked to nothing.
func TestBuildWithoutCache(t *testing.T) {
	t.Setenv("INTERLEAVE_TESTBIN_CACHE", "off")
	bin := build(t, "plain", module(t, `"x"`), "-vet=off")
	if n := links(t, bin); n != 1 {
		t.Errorf("the binary has %d links, want 1 (no slot)", n)
	}
}

// A package without tests writes no binary, and a slot an earlier build
// of its key left is not taken for one.
func TestBuildNoTestFiles(t *testing.T) {
	t.Setenv("INTERLEAVE_TESTBIN_CACHE", t.TempDir())
	dir := module(t, `"x"`)
	build(t, "plain", dir, "-vet=off")
	if err := os.Remove(filepath.Join(dir, "m_test.go")); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "m.test")
	out, err := Build(context.Background(), "plain", dir, nil, []string{"-vet=off", "."}, bin)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := os.Stat(bin); err == nil {
		t.Errorf("a package without tests got a binary (%s)", out)
	}
}

// A slot another process holds is waited for until the context ends.
func TestBuildWaitsForSlotLock(t *testing.T) {
	if !canLock {
		t.Skip("no file locks here")
	}
	root := t.TempDir()
	t.Setenv("INTERLEAVE_TESTBIN_CACHE", root)
	dir := module(t, `"x"`)
	args := []string{"-vet=off", "."}
	unlock, err := tryLock(filepath.Join(root, slotKey("plain", dir, nil, args)+".test.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, err := tryLock(filepath.Join(root, slotKey("plain", dir, nil, args)+".test.lock")); err != errBusy {
		t.Fatalf("a held lock taken again: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := Build(ctx, "plain", dir, nil, args, filepath.Join(t.TempDir(), "m.test")); err != context.DeadlineExceeded {
		t.Errorf("Build with the slot held: %v, want the context's error", err)
	}
}

// The slot's name leaves out the paths of files each run makes anew.
func TestSlotKeyIgnoresRunPaths(t *testing.T) {
	a := slotKey("k", "/m", nil, []string{"-overlay", "/tmp/a/overlay.json", "-modfile=/tmp/a/go.mod", "-race", "."})
	b := slotKey("k", "/m", nil, []string{"-overlay", "/tmp/b/overlay.json", "-modfile=/tmp/b/go.mod", "-race", "."})
	if a != b {
		t.Error("run paths change the slot")
	}
	for _, other := range []string{
		slotKey("k", "/m", nil, []string{"-overlay", "/tmp/a/overlay.json", "-modfile=/tmp/a/go.mod", "."}),
		slotKey("k", "/n", nil, []string{"-overlay", "/tmp/a/overlay.json", "-modfile=/tmp/a/go.mod", "-race", "."}),
		slotKey("j", "/m", nil, []string{"-overlay", "/tmp/a/overlay.json", "-modfile=/tmp/a/go.mod", "-race", "."}),
		slotKey("k", "/m", []string{"GOFLAGS=-tags=x"}, []string{"-overlay", "/tmp/a/overlay.json", "-modfile=/tmp/a/go.mod", "-race", "."}),
	} {
		if other == a {
			t.Error("a different build shares the slot")
		}
	}
}

// prune keeps the most recently used slots and the lock files.
func TestPrune(t *testing.T) {
	root := t.TempDir()
	now := time.Now()
	for i := range 5 {
		p := filepath.Join(root, string(rune('a'+i))+".test")
		for _, f := range []string{p, p + ".lock"} {
			if err := os.WriteFile(f, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		at := now.Add(time.Duration(i) * time.Minute)
		os.Chtimes(p, at, at)
	}
	prune(root, 2)
	var left []string
	ents, _ := os.ReadDir(root)
	for _, e := range ents {
		left = append(left, e.Name())
	}
	want := "a.test.lock b.test.lock c.test.lock d.test d.test.lock e.test e.test.lock"
	if got := strings.Join(left, " "); got != want {
		t.Errorf("left %s, want %s", got, want)
	}
}

func sameFile(t *testing.T, a, b string) bool {
	t.Helper()
	fa, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := os.Stat(b)
	if err != nil {
		t.Fatal(err)
	}
	return os.SameFile(fa, fb)
}
