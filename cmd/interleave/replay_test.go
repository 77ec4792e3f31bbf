package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/report"
	"github.com/interleave-dev/interleave/report/github"
)

// gitIn runs git in dir with a fixed identity.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// copyTree copies the regular files of src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if strings.HasPrefix(rel, ".interleave") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// replayIn runs `interleave replay ARGS` in dir, in process.
func replayIn(t *testing.T, dir string, args []string) (int, string) {
	t.Helper()
	env, stdout, stderr := testEnv(t, dir)
	code := commands["replay"].run(context.Background(), env, args)
	return code, stdout.String() + stderr.String()
}

// TestReplayFromComment is the author's side of a review comment: the
// bundled example is searched in one repository (the CI runner), its
// finding rendered as the review comment, and the comment's replay command
// run in a fresh git clone that has nothing from the runner (no schedule
// files). It reproduces (exit 1); after the bug is fixed the run leaves
// the schedule (exit 3); in another module it says so (exit 2).
func TestReplayFromComment(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example three times; skipped with -short")
	}
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	tmp := t.TempDir()
	origin := filepath.Join(tmp, "origin")
	copyTree(t, filepath.Join("..", "..", "examples", "bank"), origin)
	gitIn(t, origin, "init", "-q")
	gitIn(t, origin, "add", ".")
	gitIn(t, origin, "commit", "-q", "-m", "bank")

	// The runner: search until the deadlock is found. The search is
	// bounded by a count of schedules (the budget is a guard), which grows
	// on a retry, so a slow machine only takes longer.
	var found *checks.Finding
	for count := 20; found == nil && count <= 320; count *= 4 {
		res, err := explore.Run(context.Background(), explore.Options{
			Dir: origin, Run: "^TestOppositeTransfers$", Budget: 5 * time.Minute, Schedules: count, Seed: 1, Workers: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		for i := range res.Findings {
			if res.Findings[i].Kind == checks.Deadlock {
				found = &res.Findings[i]
			}
		}
	}
	if found == nil {
		t.Fatal("the search did not find the deadlock")
	}
	if found.ReplayToken == "" || found.Interleaving == nil {
		t.Fatalf("finding without token or interleaving: %+v", found)
	}
	// The report travels as JSON (an artifact) to the step that posts.
	var buf bytes.Buffer
	if err := (report.JSON{}).Write(&buf, &report.Report{Findings: []checks.Finding{*found}, Root: origin, ToolVersion: "v1.2.3"}); err != nil {
		t.Fatal(err)
	}
	var jr report.JSONReport
	if err := json.Unmarshal(buf.Bytes(), &jr); err != nil {
		t.Fatal(err)
	}
	comment := github.RenderComment(github.Input{Root: origin, ToolVersion: "v1.2.3"}, jr.Findings[0])
	for _, want := range []string{"**How it happens**", "waits to lock `to.mu`", "```mermaid\nsequenceDiagram"} {
		if !strings.Contains(comment, want) {
			t.Errorf("the comment lacks %q:\n%s", want, comment)
		}
	}
	_, rest, ok := strings.Cut(comment, "```sh\n")
	if !ok {
		t.Fatalf("no command in the comment:\n%s", comment)
	}
	cmdline, _, _ := strings.Cut(rest, "\n")
	const prefix = "go run github.com/interleave-dev/interleave/cmd/interleave@v1.2.3 replay "
	if !strings.HasPrefix(cmdline, prefix) {
		t.Fatalf("command %q, want it to start with %q", cmdline, prefix)
	}
	args := strings.Fields(strings.TrimPrefix(cmdline, prefix))

	// The author's laptop: a fresh clone, without the runner's files.
	clone := filepath.Join(tmp, "laptop")
	gitIn(t, tmp, "clone", "-q", origin, clone)
	if _, err := os.Stat(filepath.Join(clone, ".interleave")); err == nil {
		t.Fatal("the clone has the runner's .interleave directory")
	}
	code, out := replayIn(t, clone, args)
	if code != exitFindings || !strings.Contains(out, "REPRODUCED") || !strings.Contains(out, "waits to lock to.mu") {
		t.Fatalf("replay in a fresh clone: exit %d, want %d, REPRODUCED and the interleaving:\n%s", code, exitFindings, out)
	}
	// The build, the slow step of a cold replay, says what it does and
	// how long it took.
	if !strings.Contains(out, "interleave replay: building the test binary of") || !strings.Contains(out, "interleave replay:   took ") {
		t.Errorf("replay printed no build stage:\n%s", out)
	}

	// The author fixes the bug (one lock order): the run leaves the
	// schedule at the first Lock and passes. Exit 3, not 0: that run says
	// nothing about the schedule's failure.
	bank := filepath.Join(clone, "bank.go")
	src, err := os.ReadFile(bank)
	if err != nil {
		t.Fatal(err)
	}
	fixed := strings.Replace(string(src), "\tfrom.mu.Lock()\n\tdefer from.mu.Unlock()\n\tto.mu.Lock()\n\tdefer to.mu.Unlock()\n",
		"\tfirst, second := from, to\n\tif to.ID < from.ID {\n\t\tfirst, second = to, from\n\t}\n\tfirst.mu.Lock()\n\tdefer first.mu.Unlock()\n\tsecond.mu.Lock()\n\tdefer second.mu.Unlock()\n", 1)
	if fixed == string(src) {
		t.Fatal("bank.go: Transfer's locking not found")
	}
	if err := os.WriteFile(bank, []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := replayIn(t, clone, args); code != exitDiverged || !strings.Contains(out, "DIVERGED") {
		t.Errorf("replay after the fix: exit %d, want %d and DIVERGED:\n%s", code, exitDiverged, out)
	}

	// Another module.
	other := filepath.Join(tmp, "other")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/other\n\ngo 1.22\n"), 0o644)
	code, out = replayIn(t, other, args)
	if code != exitError || !strings.Contains(out, "this schedule is for package example.com/bank of module example.com/bank, but") {
		t.Errorf("replay in another module: exit %d, want %d and a message naming both modules:\n%s", code, exitError, out)
	}
	// The same token from standard input: decoded, it names the same
	// package (here, without building and running it once more).
	replayStdin = strings.NewReader(args[len(args)-1] + "\n")
	defer func() { replayStdin = os.Stdin }()
	if code, out := replayIn(t, other, []string{"-s", "-"}); code != exitError || !strings.Contains(out, "this schedule is for package example.com/bank of module example.com/bank, but") {
		t.Errorf("replay -s - in another module: exit %d, want %d and the same message:\n%s", code, exitError, out)
	}
}

func TestReplayBadToken(t *testing.T) {
	for _, tok := range []string{"nonsense", "s1.!!!", "s1.eJzLSM3JyQcABiwCFQ"} {
		code, out := replayIn(t, t.TempDir(), []string{"-s", tok})
		if code != exitError || !strings.Contains(out, "schedule") {
			t.Errorf("replay -s %q: exit %d, want %d and a message about the schedule:\n%s", tok, code, exitError, out)
		}
	}
	if code, _ := replayIn(t, t.TempDir(), []string{"-s", "s1.x", "file.json"}); code != exitError {
		t.Errorf("-s with a file: exit %d, want %d", code, exitError)
	}
}

// A schedule whose test is not in the package (a test removed since, or a
// generated test the schedule does not carry) runs nothing: replay exits 2
// and says which test is missing, never 0 as if the code were fixed.
func TestReplayMissingTest(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":          "module example.com/gone\n\ngo 1.24\n",
		"p/p.go":          "package p\n\n// One is one.\nfunc One() int { return 1 }\n",
		"q/q.go":          "package q\n",
		"q/q_test.go":     "package q\n\nimport \"testing\"\n\nfunc TestHere(t *testing.T) {}\n\nfunc TestSkips(t *testing.T) { t.Skip(\"not here\") }\n",
		"s/no-tests.json": `{"version":1,"package":"example.com/gone/p","dir":"p","test":"TestInterleaveGen_Counter_3","goVersion":"go1.26","race":false,"strategy":"random","seed":1,"decisions":[],"failure":{"kind":"panic","message":"panic: x","site":"p/interleave_gen_test.go:9"}}`,
		"s/gone.json":     `{"version":1,"package":"example.com/gone/q","dir":"q","test":"TestGone","goVersion":"go1.26","race":false,"strategy":"random","seed":1,"decisions":[],"failure":{"kind":"panic","message":"panic: x","site":"q/q_test.go:9"}}`,
		"s/skips.json":    `{"version":1,"package":"example.com/gone/q","dir":"q","test":"TestSkips","goVersion":"go1.26","race":false,"strategy":"random","seed":1,"decisions":[],"failure":{"kind":"panic","message":"panic: x","site":"q/q_test.go:9"}}`,
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for file, want := range map[string]string{
		"s/no-tests.json": "package example.com/gone/p",
		"s/gone.json":     "test TestGone is not in package example.com/gone/q",
		"s/skips.json":    "NOT RUN: TestSkips skipped itself",
	} {
		code, out := replayIn(t, dir, []string{file})
		if code != exitError || !strings.Contains(out, want) || !strings.Contains(out, "nothing") || strings.Contains(out, "PASS") {
			t.Errorf("replay %s: exit %d, want %d saying %q and that nothing was run:\n%s", file, code, exitError, want, out)
		}
	}
}

// TestReplayTries (issue 21): a finding that reproduced on some fresh
// replays only prints `interleave replay -tries N FILE`; -tries runs the
// schedule until one run reproduces the failure (exit 1, saying which
// try), and when none does it says so and does not exit 1. The test here
// panics on the third run only (a counter file: state outside the
// schedule).
func TestReplayTries(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	counter := filepath.Join(t.TempDir(), "runs")
	test := "package q\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestFlaky(t *testing.T) {\n" +
		"\tn, _ := os.ReadFile(" + strconv.Quote(counter) + ")\n" +
		"\tos.WriteFile(" + strconv.Quote(counter) + ", append(n, 'x'), 0o644)\n" +
		"\tif len(n) == 2 {\n\t\tpanic(\"x\")\n\t}\n}\n"
	for name, text := range map[string]string{
		"go.mod":       "module example.com/flaky\n\ngo 1.24\n",
		"q/q.go":       "package q\n",
		"q/q_test.go":  test,
		"s/flaky.json": `{"version":1,"package":"example.com/flaky/q","dir":"q","test":"TestFlaky","goVersion":"go1.26","race":false,"strategy":"random","seed":1,"decisions":[],"failure":{"kind":"panic","message":"panic: x","site":"q/q_test.go:12"}}`,
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, out := replayIn(t, dir, []string{"-tries", "0", "s/flaky.json"}); code != exitError || !strings.Contains(out, "-tries must be at least 1") {
		t.Errorf("-tries 0: exit %d, want %d and why:\n%s", code, exitError, out)
	}
	code, out := replayIn(t, dir, []string{"-tries", "5", "s/flaky.json"})
	if code != exitFindings || !strings.Contains(out, "reproduced on try 3 of at most 5") || !strings.Contains(out, "REPRODUCED") {
		t.Fatalf("-tries 5: exit %d, want %d, reproduced on try 3:\n%s", code, exitFindings, out)
	}
	// Runs 4 and 5 pass: no reproduction, no exit 1.
	code, out = replayIn(t, dir, []string{"-tries", "2", "s/flaky.json"})
	if code == exitFindings || !strings.Contains(out, "not reproduced on any of 2 tries") {
		t.Errorf("-tries 2 after: exit %d, want not %d, not reproduced on any of 2 tries:\n%s", code, exitFindings, out)
	}
	if b, _ := os.ReadFile(counter); len(b) != 5 {
		t.Errorf("the test ran %d times, want 5 (3 until the first reproduction, then 2)", len(b))
	}
}

// TestReplayUndecidedTries (issue 21: every finding replays with the line
// the report prints): whether a data race is reported again depends on
// what the race detector still remembers, which no schedule fixes
// (openfga/go-sdk v0.6.0's telemetry race replayed 3 of 5 times), so
// `interleave replay FILE` runs such a schedule up to
// explore.UndecidedTries times, and one pass with -tries 1 does not say
// the code no longer fails (checks/dynamic/testdata/thirdrace: a test that
// races on its third run only).
func TestReplayUndecidedTries(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "checks", "dynamic", "testdata", "thirdrace"))); err != nil {
		t.Fatal(err)
	}
	counter := filepath.Join(t.TempDir(), "runs")
	tmpl, err := os.ReadFile(filepath.Join(dir, "q", "q_test.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "q", "q_test.go"), bytes.ReplaceAll(tmpl, []byte("COUNTER"), []byte(strconv.Quote(counter))), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := replayIn(t, dir, []string{"s/race.json"})
	if code != exitFindings || !strings.Contains(out, fmt.Sprintf("up to %d fresh runs, as the race detector", explore.UndecidedTries)) ||
		!strings.Contains(out, "reproduced on try 3 of at most") || !strings.Contains(out, "REPRODUCED") {
		t.Fatalf("replay: exit %d, want %d, reproduced on try 3:\n%s", code, exitFindings, out)
	}
	// Run 4 passes: one pass of a data race rules nothing out.
	code, out = replayIn(t, dir, []string{"-tries", "1", "s/race.json"})
	if code != exitOK || strings.Contains(out, "no longer fails") || !strings.Contains(out, "one pass does not rule the failure out") {
		t.Errorf("-tries 1: exit %d, want %d and no claim that the code no longer fails:\n%s", code, exitOK, out)
	}
	// Runs 5 to 9 pass: after all of them, most likely fixed.
	code, out = replayIn(t, dir, []string{"s/race.json"})
	if code != exitOK || !strings.Contains(out, fmt.Sprintf("each of the %d runs followed the schedule to its end", explore.UndecidedTries)) {
		t.Errorf("replay after: exit %d, want %d and the %d runs:\n%s", code, exitOK, explore.UndecidedTries, out)
	}
	if b, _ := os.ReadFile(counter); len(b) != 4+explore.UndecidedTries {
		t.Errorf("the test ran %d times, want %d (3, 1, then %d)", len(b), 4+explore.UndecidedTries, explore.UndecidedTries)
	}
}

// TestReplayRunsEarlierFirst: a schedule that carries the earlier runs of
// its process (a test that fails on its second run in a process) replays
// them first, from its file and from its token, and says how each went;
// an earlier run that ends otherwise than recorded left other state, so a
// run that then passes says nothing (exit 3), not "no longer fails".
func TestReplayRunsEarlierFirst(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	test := "package q\n\nimport \"testing\"\n\nvar runs int\n\nfunc TestSecond(t *testing.T) {\n\truns++\n\tif runs == 2 {\n\t\tpanic(\"second run\")\n\t}\n}\n"
	sched := func(outcomes ...string) string {
		var prior []string
		for i, o := range outcomes {
			prior = append(prior, fmt.Sprintf(`{"test":"TestSecond","seed":%d,"decisions":[{"g":0,"op":"start"}],"outcome":%q}`, i+1, o))
		}
		return `{"version":6,"package":"example.com/second/q","dir":"q","test":"TestSecond","goVersion":"go1.26","race":false,"strategy":"pos","seed":9,` +
			`"decisions":[{"g":0,"op":"start"}],"failure":{"kind":"panic","message":"panic: second run","site":"q/q_test.go:10"},"nowTick":20,"prior":[` + strings.Join(prior, ",") + `]}`
	}
	for name, text := range map[string]string{
		"go.mod":        "module example.com/second\n\ngo 1.24\n",
		"q/q.go":        "package q\n",
		"q/q_test.go":   test,
		"s/after1.json": sched("pass"),
		"s/off.json":    sched("deadlock"),
		"s/after2.json": sched("pass", "pass"),
		// Its earlier run carried by its seed, with a digest no run makes.
		"s/byseed.json": strings.Replace(strings.Replace(sched("pass"), `"decisions":[{"g":0,"op":"start"}],"outcome"`, `"digest":"0","steps":1,"outcome"`, 1),
			`{"version":6,`, `{"version":9,"priorStrategy":"pos",`, 1),
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const ran = "ran first, in the same process, as the recording process did: 1 earlier schedule of TestSecond: 1 of 1 as recorded"
	code, out := replayIn(t, dir, []string{"s/after1.json"})
	if code != exitFindings || !strings.Contains(out, ran) || !strings.Contains(out, "REPRODUCED") {
		t.Errorf("after one run: exit %d, want %d, what it ran first and REPRODUCED:\n%s", code, exitFindings, out)
	}
	s, err := explore.ReadSchedule(filepath.Join(dir, "s/after1.json"))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := explore.EncodeToken(s)
	if err != nil {
		t.Fatal(err)
	}
	code, out = replayIn(t, dir, []string{"-s", tok})
	if code != exitFindings || !strings.Contains(out, ran) || !strings.Contains(out, "REPRODUCED") {
		t.Errorf("its token: exit %d, want %d, what it ran first and REPRODUCED:\n%s", code, exitFindings, out)
	}
	code, out = replayIn(t, dir, []string{"s/off.json"})
	if code != exitFindings || !strings.Contains(out, "0 of 1 as recorded; seed 1 ended pass where the recording's ended deadlock") {
		t.Errorf("an earlier run recorded otherwise: exit %d, want %d and it told:\n%s", code, exitFindings, out)
	}
	code, out = replayIn(t, dir, []string{"s/byseed.json"})
	if code != exitFindings || !strings.Contains(out, "(1 of them from their seed by pos, checked against their recorded decisions): 0 of 1 as recorded; seed 1 left its schedule at the end: run from its seed, it made 1 decisions (digest") {
		t.Errorf("an earlier run by its seed that makes other decisions: exit %d, want %d and it told:\n%s", code, exitFindings, out)
	}
	// The second earlier run panics where the recording's passed: the
	// schedule itself then passes, and that says nothing.
	code, out = replayIn(t, dir, []string{"s/after2.json"})
	if code != exitDiverged || !strings.Contains(out, "DIVERGED: an earlier schedule the process ran first (TestSecond, seed 2) ended panic where the recording's ended pass") {
		t.Errorf("after two runs: exit %d, want %d, DIVERGED for the earlier run:\n%s", code, exitDiverged, out)
	}
}
