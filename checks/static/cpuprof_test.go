package static

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
)

// TestVetCPUProfile: with INTERLEAVE_VET_CPUPROFILE, the vet tool writes a
// CPU profile for the package go vet wants diagnostics of, and none for
// its dependency analyzed for facts only.
func TestVetCPUProfile(t *testing.T) {
	tool := vetTool(t)
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(modDir(t))); err != nil {
		t.Fatal(err)
	}
	// A fresh comment in each package: go vet's cache has no result for
	// them and runs the tool.
	for _, f := range []string{"lockdep/lockdep.go", "lockuse/lockuse.go"} {
		name := filepath.Join(dir, f)
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		src = fmt.Appendf(src, "\n// %d\n", time.Now().UnixNano())
		if err := os.WriteFile(name, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	profiles := t.TempDir()
	t.Setenv("INTERLEAVE_VET_CPUPROFILE", profiles)
	opts := Options{Dir: dir, Patterns: []string{"./lockuse"}, Tests: true, VetTool: tool}
	if _, err := Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(profiles)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := "example.com_mod_lockuse.pprof"
	if !slices.Equal(names, []string{want}) {
		t.Fatalf("profiles written: %q, want only %s (none for lockdep, analyzed for facts only)", names, want)
	}
	data, err := os.ReadFile(filepath.Join(profiles, want))
	if err != nil {
		t.Fatal(err)
	}
	// A profile is gzipped protobuf; a file left open by a profile never
	// stopped is empty.
	if !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		t.Errorf("%s is not a finished profile (%d bytes)", want, len(data))
	}
}

func TestEnabledByFlags(t *testing.T) {
	a := &analysis.Analyzer{Name: "a"}
	b := &analysis.Analyzer{Name: "b"}
	c := &analysis.Analyzer{Name: "c"}
	all := []*analysis.Analyzer{a, b, c}
	tests := []struct {
		args []string
		want []*analysis.Analyzer
	}{
		{[]string{"-json", "x.cfg"}, all},
		{[]string{"-a", "--c=true", "-b.flag=3", "x.cfg"}, []*analysis.Analyzer{a, c}},
		{[]string{"-b=false", "x.cfg"}, []*analysis.Analyzer{a, c}},
		{[]string{"-a", "-b=false", "x.cfg"}, []*analysis.Analyzer{a}},
	}
	for _, tt := range tests {
		if got := enabledByFlags(tt.args, all); !slices.Equal(got, tt.want) {
			t.Errorf("enabledByFlags(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}
