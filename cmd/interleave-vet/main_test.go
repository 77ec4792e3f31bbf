package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/interleave-dev/interleave/checks/static"
)

var build struct {
	once sync.Once
	bin  string
	err  error
	out  []byte
}

// binary builds interleave-vet once per test run.
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a binary")
	}
	build.once.Do(func() {
		dir, err := os.MkdirTemp("", "interleave-vet-test")
		if err != nil {
			build.err = err
			return
		}
		build.bin = filepath.Join(dir, "interleave-vet")
		build.out, build.err = exec.Command("go", "build", "-o", build.bin, ".").CombinedOutput()
	})
	if build.err != nil {
		t.Fatalf("go build: %v\n%s", build.err, build.out)
	}
	return build.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if build.bin != "" {
		os.RemoveAll(filepath.Dir(build.bin))
	}
	os.Exit(code)
}

// TestGoVetVettool builds interleave-vet and runs it the way users do,
// through go vet -vettool, on a package with a WaitGroup bug.
func TestGoVetVettool(t *testing.T) {
	bin := binary(t)
	cmd := exec.Command("go", "vet", "-vettool="+bin, "./...")
	cmd.Dir = "testdata/mod"
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("go vet succeeded, want a diagnostic:\n%s", out)
	}
	if want := "vetme.go:10:9: WaitGroup.Add called from inside new goroutine"; !strings.Contains(string(out), want) {
		t.Errorf("got go vet output\n%s\nwant it to contain %q", out, want)
	}
	if strings.Contains(string(out), ": file\n") {
		t.Errorf("got go vet output\n%s\nwant the files analyzer silent without -files.report", out)
	}
}

// TestServesStaticRun drives static.Run through go vet with interleave-vet
// as its vet tool, as interleave check drives itself.
func TestServesStaticRun(t *testing.T) {
	bin := binary(t)
	res, err := static.Run(context.Background(), static.Options{Dir: "testdata/mod", Tests: true, VetTool: bin})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 || res.Findings[0].Rule != "IL6101" || filepath.Base(res.Findings[0].Pos.File) != "vetme.go" || res.Findings[0].Pos.Line != 10 {
		t.Errorf("got findings %+v, want IL6101 at vetme.go:10", res.Findings)
	}
	if len(res.Packages) != 1 {
		t.Errorf("got packages %v, want the one package of testdata/mod", res.Packages)
	}
}

// TestFlags checks that go vet can ask the tool for its flags, which it
// does before running it.
func TestFlags(t *testing.T) {
	bin := binary(t)
	out, err := exec.Command(bin, "-flags").Output()
	if err != nil {
		t.Fatalf("%s -flags: %v", bin, err)
	}
	if !strings.Contains(string(out), `"Name"`) {
		t.Errorf("got %s, want a JSON flag list", out)
	}
}
