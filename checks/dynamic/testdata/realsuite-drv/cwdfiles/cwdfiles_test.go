// Package cwdfiles keeps files in its tests' working directory, as a
// database's tests do: every process the search starts, and every plain
// run, must have a directory of its own, and the package's own directory
// must stay as it was.
package cwdfiles

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// TestMarker fails when its working directory or os.TempDir holds a file
// another process left there; files beside the package and in its
// testdata read as they are.
func TestMarker(t *testing.T) {
	own := "marker." + strconv.Itoa(os.Getpid())
	if err := os.WriteFile(own, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", own), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, pattern := range []string{"marker.*", "testdata/marker.*"} {
		found, _ := filepath.Glob(pattern)
		for _, m := range found {
			if filepath.Base(m) != own {
				t.Fatalf("%s: another process's file", m)
			}
		}
	}
	// So is os.TempDir: go test runs a test once, the search in several
	// processes at once (lumberjack's tests name their directories there
	// by the time, to the millisecond).
	tmpOwn := filepath.Join(os.TempDir(), "interleave-cwdfiles."+strconv.Itoa(os.Getpid()))
	if err := os.WriteFile(tmpOwn, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	found, _ := filepath.Glob(filepath.Join(os.TempDir(), "interleave-cwdfiles.*"))
	for _, m := range found {
		if m != tmpOwn {
			t.Fatalf("%s: another process's file in os.TempDir()", m)
		}
	}
	if _, err := os.ReadFile("../go.mod"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("testdata/in.txt")
	if err != nil || string(b) != "input\n" {
		t.Fatalf("testdata/in.txt: %q, %v", b, err)
	}
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			n++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if n != 2 {
		t.Fatalf("n = %d", n)
	}
}
