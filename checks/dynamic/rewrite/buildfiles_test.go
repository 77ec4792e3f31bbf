package rewrite

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// buildfilesDir is the nested module of issue 21.6 and 26.2.
const buildfilesDir = "../testdata/buildfiles"

// TestOldLanguageDeps (issue 21.6): files whose language is older than
// go1.20 get a constraint that raises it, so that the runtime's generic
// API compiles there: in the module under test (go.mod says go 1.16, or
// has no go line) and in its dependencies (go 1.16, no go line: the go
// command reads both as go 1.16). The instrumented tests compile and pass.
func TestOldLanguageDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the instrumented testdata module")
	}
	for _, goLine := range []bool{true, false} {
		name := "go1.16"
		if !goLine {
			name = "no go line"
		}
		t.Run(name, func(t *testing.T) {
			dir := copyDir(t, buildfilesDir)
			if !goLine {
				gomod := filepath.Join(dir, "go.mod")
				data, err := os.ReadFile(gomod)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(gomod, []byte(strings.Replace(string(data), "\ngo 1.16\n", "\n", 1)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./usedeps"}})
			if err != nil {
				t.Fatalf("Instrument: %v", err)
			}
			defer res.Cleanup()
			for _, c := range []struct {
				orig  string
				files map[string]string
				use   string // a generic call of the runtime
				head  string // how the rewritten file starts ("" for the line that raises it)
			}{
				{filepath.Join(dir, "usedeps", "usedeps.go"), res.Files, "interleavert.Send(ch, t.Next())", ""},
				{filepath.Join(dir, "usedeps", "generated.go"), res.Files, "interleavert.", ""},
				{filepath.Join(dir, "oldclock", "oldclock.go"), res.DepFiles, "interleavert.BindR(timer, interleavert.TimerStop)", ""},
				{filepath.Join(dir, "nogoline", "nogoline.go"), res.DepFiles, "interleavert.BindR(t, interleavert.TimerStop)", ""},
				{filepath.Join(dir, "oldclock", "tagged.go"), res.DepFiles, "interleavert.BindR(t, interleavert.TimerStop)", "//go:build go1.20 && (!interleavenever)\n// +build !interleavenever\n"},
			} {
				dst, ok := c.files[c.orig]
				if !ok {
					t.Errorf("%s not rewritten", c.orig)
					continue
				}
				data, err := os.ReadFile(dst)
				if err != nil {
					t.Fatal(err)
				}
				text := string(data)
				want := c.head
				if want == "" {
					want = "//go:build go1.20\n\n//line " + c.orig + ":1\n"
				}
				if !strings.HasPrefix(text, want) {
					t.Errorf("rewritten %s starts %q, want %q", c.orig, text[:min(len(text), 80)], want)
				}
				if !strings.Contains(text, c.use) {
					t.Errorf("rewritten %s lacks %q:\n%s", c.orig, c.use, text)
				}
				checkLines(t, c.orig, dst)
			}
			args := append([]string{"test", "-count=1"}, res.TestFlags...)
			if out, err := goCmd(t, dir, nil, append(args, "-run=TestTickets", "./usedeps")...); err != nil {
				t.Fatalf("go test %v: %v\n%s", res.TestFlags, err, out)
			}
		})
	}
}

// TestTestFiles (issue 26.2): the tests driven and the test files listed
// are those of the build the flags choose: -race sets the race tag.
func TestTestFiles(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join(buildfilesDir, "racetags"))
	if err != nil {
		t.Fatal(err)
	}
	// tagged_test.go (searchtest's TestBuildTagsReplay) builds only
	// with -tags=interleavetagged.
	const tagged = "TestTaggedLostUpdate:tagged_test.go"
	for _, c := range []struct {
		flags    []string
		tests    []string
		files    []string
		excluded []string // "Test:file"
	}{
		{nil, []string{"TestNoRaceOnly", "TestExternal"}, []string{"norace_test.go", "x_test.go"}, []string{"TestExtraOnly:extra_test.go", "TestRaceOnly:race_test.go", tagged}},
		{[]string{"-race"}, []string{"TestRaceOnly", "TestExternal"}, []string{"race_test.go", "x_test.go"}, []string{"TestExtraOnly:extra_test.go", "TestNoRaceOnly:norace_test.go", tagged}},
		{[]string{"-tags=interleaveextra"}, []string{"TestExtraOnly", "TestNoRaceOnly", "TestExternal"}, []string{"extra_test.go", "norace_test.go", "x_test.go"}, []string{"TestRaceOnly:race_test.go", tagged}},
	} {
		res, err := Instrument(context.Background(), Options{Dir: dir, BuildFlags: c.flags})
		if err != nil {
			t.Fatalf("%q: %v", c.flags, err)
		}
		res.Cleanup()
		if len(res.Packages) != 1 {
			t.Fatalf("%q: packages %v, want racetags", c.flags, res.Packages)
		}
		p := res.Packages[0]
		var files []string
		for _, f := range p.TestFiles {
			if filepath.Dir(f) != dir {
				t.Errorf("%q: test file %s outside %s", c.flags, f, dir)
			}
			files = append(files, filepath.Base(f))
		}
		if !slices.Equal(p.Tests, c.tests) || !slices.Equal(files, c.files) {
			t.Errorf("%q: tests %q in %q, want %q in %q", c.flags, p.Tests, files, c.tests, c.files)
		}
		var excluded []string
		for name, file := range p.Excluded {
			excluded = append(excluded, name+":"+strings.TrimPrefix(file, dir+string(filepath.Separator)))
		}
		slices.Sort(excluded)
		if !slices.Equal(excluded, c.excluded) {
			t.Errorf("%q: excluded %q, want %q", c.flags, excluded, c.excluded)
		}
	}
}

// TestOldLanguageDepsModCache (issue 21.6): the dependency whose go.mod
// has no go line comes from the module cache (a file proxy here), as
// golang.org/x/time v0.3.0 does: its rewritten copy, which an alternate
// go.mod replaces it with, compiles; so do its vendored files.
func TestOldLanguageDepsModCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the instrumented testdata module")
	}
	_, cache, _ := proxyModule(t, "example.com/nogoline", filepath.Join(buildfilesDir, "nogoline"))

	dir := copyDir(t, buildfilesDir)
	os.RemoveAll(filepath.Join(dir, "nogoline"))
	mod := "module example.com/buildfiles\n\ngo 1.16\n\nrequire (\n\texample.com/nogoline v1.0.0\n\texample.com/oldclock v0.0.0\n)\n\nreplace example.com/oldclock => ./oldclock\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := goCmd(t, dir, nil, "mod", "tidy"); err != nil {
		t.Fatalf("go mod tidy: %v\n%s", err, out)
	}
	for _, vendor := range []bool{false, true} {
		flags, goflags := []string(nil), "-mod=mod"
		orig := filepath.Join(cache, "example.com", "nogoline@v1.0.0", "nogoline.go")
		if vendor {
			if out, err := goCmd(t, dir, nil, "mod", "vendor"); err != nil {
				t.Fatalf("go mod vendor: %v\n%s", err, out)
			}
			flags, goflags = []string{"-mod=vendor"}, "-mod=vendor"
			orig = filepath.Join(dir, "vendor", "example.com", "nogoline", "nogoline.go")
		}
		res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./usedeps"}, BuildFlags: flags})
		if err != nil {
			t.Fatalf("Instrument %q: %v", flags, err)
		}
		defer res.Cleanup()
		dst, ok := res.DepFiles[orig]
		if !ok {
			t.Fatalf("%q: DepFiles = %v, want %s", flags, res.DepFiles, orig)
		}
		data, err := os.ReadFile(dst)
		if err != nil {
			t.Fatal(err)
		}
		if want := "//go:build go1.20\n\n//line " + orig + ":1\n"; !strings.HasPrefix(string(data), want) {
			t.Errorf("%q: rewritten nogoline.go starts %q, want %q", flags, data[:min(len(data), 80)], want)
		}
		args := append([]string{"test", "-count=1"}, res.TestFlags...)
		if out, err := goCmd(t, dir, []string{"GOFLAGS=" + goflags}, append(args, "-run=TestTickets", "./usedeps")...); err != nil {
			t.Fatalf("go test %v: %v\n%s", res.TestFlags, err, out)
		}
	}
}
