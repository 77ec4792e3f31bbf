package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandFilesShort keeps docs/developing.md's rule for this
// directory: a command parses its flags and calls a package, and no file
// is over 400 lines.
func TestCommandFilesShort(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), "\n"); n > 400 {
			t.Errorf("%s has %d lines, over docs/developing.md's 400: split it by concern", f, n)
		}
	}
}
