package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A CLI report with per-test counts, notes on standard error and a failure
// of the unperturbed run; a library report with crashes; a module whose
// search could not run.
func TestSummary(t *testing.T) {
	root := t.TempDir()
	cli := filepath.Join(root, "a")
	lib := filepath.Join(root, "b")
	broken := filepath.Join(root, "c")
	for _, d := range []string{cli, lib, broken} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, cli, "module", "example.com/a@v1.0.0\n")
	write(t, cli, "plain.json", `{"Action":"pass","Test":"TestA"}
{"Action":"pass","Test":"TestA/sub"}
{"Action":"fail","Test":"TestB"}
{"Action":"output","Test":"TestB","Output":"x"}
`)
	write(t, cli, "plain.exit", "1\n")
	write(t, cli, "interleave.json", `{"version":1,"findings":[{"rule":"IL9002","kind":"test-failure","test":"TestA","message":"TestA: test failed: a_test.go:3: boom\nmore","pos":{"file":"a_test.go","line":3}}],
"failsWithoutInterleave":[{"rule":"IL9004","kind":"leak","test":"TestB","message":"TestB: leak"}],
"tests":[{"package":"example.com/a","test":"TestA","schedules":5,"plain":"pass"},{"package":"example.com/a","test":"TestB","schedules":1,"plain":"leak"},{"package":"example.com/a","test":"TestC","schedules":0}]}`)
	write(t, cli, "interleave.stderr", "interleave test: seed 1\ninterleave test: note: TestC: stopped\nits last output:\nline\ninterleave test: 6 schedules\n")
	write(t, cli, "interleave.exit", "1\n")

	write(t, lib, "module", "example.com/b@v1.0.0\n")
	write(t, lib, "interleave.json", `{"version":1,"findings":[],"tests":[{"package":"example.com/b","test":"TestX","schedules":2,"crashes":2},{"package":"example.com/b","test":"TestY","schedules":9}],"notes":["TestY: the budget ran out"]}`)

	write(t, broken, "module", "example.com/c@v1.0.0\n")
	write(t, broken, "plain.json", `{"Action":"pass","Test":"TestQ"}`+"\n")
	write(t, broken, "interleave.stderr", "interleave test: example.com/c does not compile:\nc.go:1: cannot use x\n")

	var out strings.Builder
	if err := summary(&out, root); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"| example.com/a@v1.0.0 | 1/1, 1 | - | 3 | 2/3 (67%) | 1/3 (33%) | 1 (0) | 1: IL9002 test-failure×1 | 1 | 1, - |",
		"| example.com/b@v1.0.0 | 0/0, - | - | 2 | 0/2 (0%) | 1/2 (50%) | 9 (2) | 0:  | 0 | -, - |",
		"| example.com/c@v1.0.0 | 1/0, - | - | 1 (go test); interleave could not run: interleave test: example.com/c does not compile: |",
		"| **total** | | | 6 | 2 (33.3%) | 2 (33.3%) | | 1 | 1 | |",
		"1. IL9002 test-failure TestA a_test.go:3 — TestA: test failed: a_test.go:3: boom\n",
		"- fails without interleave too: IL9004 leak TestB :0 — TestB: leak\n",
		"- note: TestC: stopped\n",
		"- note: TestY: the budget ran out\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q; got:\n%s", want, got)
		}
	}
}

func TestSummaryEmpty(t *testing.T) {
	if err := summary(&strings.Builder{}, t.TempDir()); err == nil {
		t.Error("summary of a directory without results: want an error")
	}
}
