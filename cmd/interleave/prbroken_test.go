package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPRCgoPackageLeftOut: a change to a cgo package whose C header is not
// installed and to a package beside it lists the cgo package as not
// analyzed and goes on: static passes, and the generated tests of the
// other package's changed type (gen loads only the packages that compile).
func TestPRCgoPackageLeftOut(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the pull-request job")
	}
	files := map[string]string{}
	for _, name := range []string{"go.mod", "good/good.go", "native/native.go"} {
		b, err := os.ReadFile(filepath.Join("testdata/check/cgo", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	r := newPRRepo(t)
	base := r.commit(files)
	files["good/good.go"] = strings.Replace(files["good/good.go"], "c.lookups++", "c.lookups += 1", 1)
	files["native/native.go"] += "\n// Touch is new.\nfunc Touch() {}\n"
	r.commit(files)
	code, _, stderr := r.runPR("-base", base, "-budget", "4s", "-format", "json")
	if code == exitError {
		t.Fatalf("got exit %d; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		"not analyzed: package example.com/cgomix/native: does not compile",
		"gen: loading example.com/cgomix/good …",
		"gen: example.com/cgomix/good.Counter: ",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "gen failed") {
		t.Errorf("gen failed on the package that does not compile:\n%s", stderr)
	}
}
