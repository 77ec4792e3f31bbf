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
	v2 := filepath.Join(root, "d")
	for _, d := range []string{cli, lib, broken, v2} {
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
	write(t, cli, "interleave.stderr", "interleave test: seed 1\ninterleave test: note: TestC: stopped\nits last output:\nline\n"+
		// A stop at the end of a share of the budget is no tool note:
		// TestA and TestB ran complete schedules.
		"interleave test: note: TestA: the test process was stopped at the end of its share of the budget while exiting after its last schedule (it had printed PASS), 0s after its last output: not seen hanging (the watchdog's limit is 5s); its last output:\nPASS\n"+
		"interleave test: note: TestB: the schedule with seed 3 did not finish before the end of its share of the budget and was stopped (a long test, or blocked outside the scheduler's control); its last output:\nline\n"+
		"interleave test: 6 schedules\n")
	write(t, cli, "interleave.exit", "1\n")

	write(t, lib, "module", "example.com/b@v1.0.0\n")
	write(t, lib, "interleave.json", `{"version":1,"findings":[],"tests":[{"package":"example.com/b","test":"TestX","schedules":2,"crashes":2},{"package":"example.com/b","test":"TestY","schedules":9}],"notes":["TestY: the budget ran out"]}`)

	write(t, broken, "module", "example.com/c@v1.0.0\n")
	write(t, broken, "plain.json", `{"Action":"pass","Test":"TestQ"}`+"\n")
	write(t, broken, "interleave.stderr", "interleave test: example.com/c does not compile:\nc.go:1: cannot use x\n")

	// Version 2: labelled findings, one with another failure of its cause.
	write(t, v2, "module", "example.com/d@v1.0.0\n")
	write(t, v2, "interleave.json", `{"version":2,"findings":[
{"rule":"IL9004","kind":"leak","test":"TestL","message":"TestL: leak","pos":{"file":"d_test.go","line":7},
 "frequency":{"failing":4,"schedules":4},"plainGoTest":{"command":"go test -run '^TestL$'","runs":3,"failed":0,"leavesSame":true},
 "sameCause":[{"test":"TestL2"}]},
{"rule":"IL9002","kind":"test-failure","test":"TestF","message":"TestF: test failed","pos":{"file":"d_test.go","line":9},
 "frequency":{"failing":1,"schedules":7},"plainGoTest":{"command":"go test -run '^TestF$'","runs":3,"failed":2,"exitCode":1,"failure":"d_test.go:9: boom"},"afterEarlier":{"schedules":1}},
{"rule":"IL9006","kind":"hang","test":"TestH","message":"TestH: hang","pos":{"file":"d_test.go","line":11},
 "frequency":{"failing":2,"schedules":5},"plainGoTest":{"runs":0,"notRun":"the budget ran out"}}],
"tests":[{"package":"example.com/d","test":"TestL","schedules":4},{"package":"example.com/d","test":"TestF","schedules":7},{"package":"example.com/d","test":"TestH","schedules":5}],
"notes":["TestF: 2 of 7 schedules stopped at the step bound (20000 scheduling steps) before the test ended: inconclusive, neither a failure nor a pass",
"TestH: 5 of 5 schedules stopped at the step bound (20000 scheduling steps) before the test ended: inconclusive, neither a failure nor a pass; the test needs more steps than that (try -max-steps 200000)"]}`)
	write(t, v2, "interleave.exit", "1\n")

	var out strings.Builder
	if err := summary(&out, root); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"| example.com/a@v1.0.0 | 1/1, 1 | - | 3 | 2/3 (67%) | 1/3 (33%) | 1 (0) | 1: IL9002 test-failure×1 | unlabelled 1 | 1 | 1, - |",
		"| example.com/b@v1.0.0 | 0/0, - | - | 2 | 0/2 (0%) | 1/2 (50%) | 9 (2) | 0:  | - | 0 | -, - |",
		"| example.com/d@v1.0.0 | 0/0, - | - | 3 | 2/3 (67%) | 3/3 (100%) | 5 (4) | 3: IL9002 test-failure×1, IL9004 leak×1, IL9006 hang×1 | every schedule 1, some 2; plain fails 1, passes 1, not run 1 | 0 | 1, - |",
		"| example.com/c@v1.0.0 | 1/0, - | - | 1 (go test); interleave could not run: interleave test: example.com/c does not compile: |",
		"| **total** | | | 9 | 4 (44.4%) | 5 (55.6%) | | 4 | every schedule 1, some 2; plain fails 1, passes 1, not run 1; unlabelled 1 | 1 | |",
		"1. IL9004 leak TestL d_test.go:7 — TestL: leak\n   schedule: \n   labels: on every schedule tried (4); plain go test passes (exit 0, 3 runs of go test -run '^TestL$'), leaving the same goroutines behind\n   same cause: 1 more\n",
		"   labels: on 1 of 7 schedules (order-dependent: after earlier runs in its process); plain go test fails too (2 of 3 runs of go test -run '^TestF$': exit 1: d_test.go:9: boom); needs state that 1 earlier run of the test left in the…\n",
		"   labels: on 2 of 5 schedules (schedule-dependent); plain go test not run: the budget ran out\n",
		"1. IL9002 test-failure TestA a_test.go:3 — TestA: test failed: a_test.go:3: boom\n",
		"- fails without interleave too: IL9004 leak TestB :0 — TestB: leak\n",
		"- note: TestC: stopped\n",
		"- note: TestA: the test process was stopped at the end of its share of the budget while exiting",
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
