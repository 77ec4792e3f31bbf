package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/internal/testctx"
)

// The README's commands are a contract: these tests keep it honest.

const readmePath = "../../README.md"

// The README's reference moved to docs/: the commands and their examples
// to reference.md, the rule table to rules.md (checks/static checks its
// precision column), the first command's details to example.md.
const (
	referencePath = "../../docs/reference.md"
	rulesPath     = "../../docs/rules.md"
)

// readmeMaxWords is what a newcomer reads in two minutes (issue 22).
const readmeMaxWords = 1800

// readmeFirstCommand is the README's first command: the pull-request job on
// the bundled example.
const readmeFirstCommand = "go run ./cmd/interleave -C examples/bank pr -base :empty"

func readme(t *testing.T) string {
	t.Helper()
	return readFile(t, readmePath)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readmeCommandLines returns the indented example lines that run a command of
// this binary, without the program name: "pr -base origin/main".
func readmeCommandLines(text string) [][]string {
	var out [][]string
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "    ") {
			continue
		}
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		switch {
		case len(f) > 1 && f[0] == "interleave":
			f = f[1:]
		case len(f) > 3 && f[0] == "go" && f[1] == "run" && f[2] == "./cmd/interleave":
			f = f[3:]
		default:
			continue
		}
		if len(f) > 1 && f[0] == "-C" {
			f = f[2:]
		}
		out = append(out, f)
	}
	return out
}

func TestREADMEShowsTheContract(t *testing.T) {
	text := readme(t)
	for _, cmd := range []string{readmeFirstCommand, "go test ./..."} {
		if !strings.Contains(text, "\n    "+cmd+"\n") {
			t.Errorf("README lacks the command line %q", cmd)
		}
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^go test \./\.\.\.$`).Match(ci) {
		t.Errorf(".ci/run does not run exactly the README's test command:\n%s", ci)
	}
}

// Every flag an example of the README or the reference passes exists: the
// command's -h lists it.
func TestREADMEFlagsExist(t *testing.T) {
	lines := readmeCommandLines(readme(t) + readFile(t, referencePath))
	if len(lines) < 5 {
		t.Fatalf("found only %d example command lines in the README and %s", len(lines), referencePath)
	}
	for _, args := range lines {
		c := commands[args[0]]
		if c == nil {
			t.Errorf("README or reference runs unknown command %q", strings.Join(args, " "))
			continue
		}
		env, _, stderr := testEnv(t, t.TempDir())
		c.run(context.Background(), env, []string{"-h"})
		usage := stderr.String()
		for _, a := range args[1:] {
			if !strings.HasPrefix(a, "-") {
				continue
			}
			name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if !regexp.MustCompile(`(?m)^  -` + regexp.QuoteMeta(name) + `(\s|$)`).MatchString(usage) {
				t.Errorf("README or reference: interleave %s: flag -%s is not in its -h output", strings.Join(args, " "), name)
			}
		}
	}
}

// Every command is documented in the reference, every rule in the rule
// table, and the README links to both.
func TestREADMEListsCommandsAndRules(t *testing.T) {
	text := readme(t)
	for _, link := range []string{"](docs/reference.md)", "](docs/rules.md)"} {
		if !strings.Contains(text, link) {
			t.Errorf("README does not link to %s", strings.Trim(link, "]()"))
		}
	}
	ref := readFile(t, referencePath)
	for name := range commands {
		if !strings.Contains(ref, "`interleave "+name) {
			t.Errorf("%s does not document command %q", referencePath, name)
		}
	}
	rules := readFile(t, rulesPath)
	for _, r := range checks.Rules() {
		if !regexp.MustCompile(`(?m)^\| ` + r.ID + ` \| `).MatchString(rules) {
			t.Errorf("%s: the rule table lacks %s (%s)", rulesPath, r.ID, r.Slug)
		}
	}
}

// The first command works: findings with replay commands, and a replay
// reproduces. The budget is shortened and schedules go to a temporary
// directory; everything else is the README's command.
func TestREADMEFirstCommand(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the pull-request job on examples/bank")
	}
	args := strings.Fields(readmeFirstCommand)[3:] // -C examples/bank pr ...
	if args[0] != "-C" {
		t.Fatalf("first command %q does not start with -C", readmeFirstCommand)
	}
	dir := filepath.Join("../..", args[1])
	// Only a hang-catcher (a cold race build on a loaded machine takes
	// minutes): the test binary's own deadline.
	ctx := testctx.New(t)
	// Each test's search (and each generated test's) ends at
	// firstCommandCount schedules of one worker, from a fixed seed: not as
	// many as 20s allows (tens of thousands idle), nor more with more
	// cores (GOMAXPROCS workers, the default). A loaded machine can still
	// starve the 20s budget (a test searched for 0s, a failure left
	// without time to replay alone): then once more with 60s, so that
	// what is checked is the command, not the machine's speed.
	var problems []string
	for _, budget := range []string{"20s", "60s"} {
		run := append(slices.Clip(args[2:]), "-budget", budget, "-count", strconv.Itoa(firstCommandCount), "-workers", "1", "-seed", "1", "-schedules", t.TempDir())
		env, stdout, stderr := testEnv(t, dir)
		code := runMain(ctx, env, run)
		t.Logf("-budget %s, stderr:\n%s", budget, stderr.String())
		d, _ := time.ParseDuration(budget)
		problems = firstCommandProblems(ctx, t, dir, d, code, stdout.String(), stderr.String())
		if len(problems) == 0 {
			// Not retried: a line that does not replay is the
			// product's fault, whatever the budget.
			for _, p := range replayLinesProblems(ctx, t, dir, stdout.String()) {
				t.Error(p)
			}
			return
		}
		t.Logf("-budget %s: %d problems, the first: %s", budget, len(problems), problems[0])
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// firstCommandCount bounds TestREADMEFirstCommand's searches: schedules
// of its one worker per test. With -seed 1 and a budget ample for it, every
// finding the test wants is met (docs/figures.md, twenty-sixth session,
// timeapp26); the deadlocks fail on 4 schedules in 10, the leak on all.
const firstCommandCount = 20

// firstCommandProblems lists what is wrong with one run of the README's
// first command with the given budget: its exit code, findings and labels,
// and the replay of the first replay line it prints.
func firstCommandProblems(ctx context.Context, t *testing.T, dir string, budget time.Duration, code int, out, log string) []string {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if code != exitFindings {
		add("exit %d, want %d; stdout:\n%s", code, exitFindings, out)
		return problems
	}
	for _, rule := range []string{"IL2001", "IL5003", "IL9003", "IL9004"} {
		if !strings.Contains(out, " "+rule+" ") {
			add("no %s finding in the output:\n%s", rule, out)
		}
	}
	// FirstRate leaks on every schedule, and plain go test passes it: a
	// finding, labelled so (issue 21).
	if !regexp.MustCompile(`(?m)^\S+: IL9004 TestFirstRate(.*\n\t.*)*\n\tfails: on every schedule tried \(\d+\); plain go test passes \(exit 0, `).MatchString(out) {
		add("the FirstRate leak is not a finding labelled every schedule, plain go test passes:\n%s", out)
	}
	// -base :empty has no base commit to compare the failures with, and
	// says nothing about one.
	if strings.Contains(log, "could not run the failures on the base commit") || strings.Contains(out, "new in this change") {
		add("pr -base :empty tried to run the failures on a base commit:\n%s", log)
	}
	// The opt-in rules' findings are reported only as confirmed; the one
	// no schedule confirms is counted, not reported.
	for _, rule := range []string{"IL2101"} {
		if !regexp.MustCompile(`(?m)^\S+: ` + rule + ` .*\(confirmed: `).MatchString(out) {
			add("no confirmed %s finding in the output:\n%s", rule, out)
		}
	}
	// IL3001 (Transfers' plain read): the tests read the counter only after
	// every write, so only a test generated for Bank (it holds a mutex) can
	// confirm it; reported then as confirmed, else counted, never reported
	// unconfirmed.
	if strings.Contains(out, " IL3001 ") {
		if !regexp.MustCompile(`(?m)^\S+: IL3001 .*\(confirmed: [a-z-]+ in TestInterleaveGen_Bank_\d+\)`).MatchString(out) {
			add("IL3001 is reported, but not as confirmed by a generated test:\n%s", out)
		}
	} else if !strings.Contains(log, "unconfirmed (job summary only)") {
		add("the unconfirmed IL3001 finding is not counted as unconfirmed")
	}
	// Account claims thread safety and is new: a quarter of the budget
	// goes to generated tests, and their race on the read in Balance is
	// the confirmed IL5003's, not reported twice.
	if !strings.Contains(log, fmt.Sprintf("gen: changed types that claim safety for concurrent use: bank.Account; %v of -budget", budget/4)) {
		add("pr did not give generated tests for bank.Account a quarter of the budget:\n%s", log)
	}
	if regexp.MustCompile(`(?m)^\S*account.go:51: IL9005 `).MatchString(out) {
		add("a generated test's race on Balance's read is reported next to IL5003:\n%s", out)
	}
	m := regexp.MustCompile(`(?m)^\treplay: interleave replay (\S+)$`).FindStringSubmatch(out)
	if m == nil {
		add("no replay line in the output:\n%s", out)
		return problems
	}
	renv, rout, rerr := testEnv(t, dir)
	if code := runMain(ctx, renv, []string{"replay", m[1]}); code != exitFindings {
		add("replay %s: exit %d, want %d\n%s%s", m[1], code, exitFindings, rout, rerr)
	}
	return problems
}

// readmeReplayRepeats is how many fresh processes replay each line the
// first command prints (replayLinesProblems).
const readmeReplayRepeats = 3

// replayLinesProblems replays every replay line of the first command's
// output readmeReplayRepeats times, each time in a fresh process (a line
// with -tries N may take up to N processes each time), and lists the
// lines that did not reproduce their failure every time. One build per
// package and carried file (explore.ReplayMany): a process run per
// replay, not an instrumentation and a build.
func replayLinesProblems(ctx context.Context, t *testing.T, dir, out string) []string {
	t.Helper()
	lines := regexp.MustCompile(`(?m)^\treplay: interleave replay (?:-tries (\d+) )?(\S+)$`).FindAllStringSubmatch(out, -1)
	if len(lines) == 0 {
		return []string{"no replay line in the output:\n" + out}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	type pending struct {
		path  string
		tries int
		sched *rt.Schedule
	}
	var todo []pending
	reproduced := map[string]int{}
	for _, m := range lines {
		tries := 1
		if m[1] != "" {
			tries, _ = strconv.Atoi(m[1])
		}
		sched, err := explore.ReadSchedule(m[2])
		if err != nil {
			return []string{fmt.Sprintf("replay line %s: %v", m[2], err)}
		}
		for range readmeReplayRepeats {
			todo = append(todo, pending{m[2], tries, sched})
		}
	}
	var problems []string
	for try := 1; len(todo) > 0; try++ {
		scheds := make([]*rt.Schedule, len(todo))
		for i, p := range todo {
			scheds[i] = p.sched
		}
		results, errs := explore.ReplayMany(ctx, scheds, explore.ReplayOptions{Dir: abs})
		var again []pending
		for i, p := range todo {
			switch {
			case errs[i] != nil:
				problems = append(problems, fmt.Sprintf("replay %s: %v", p.path, errs[i]))
			case results[i].Outcome == explore.Reproduced:
				reproduced[p.path]++
			case try < p.tries:
				again = append(again, p)
			default:
				what := string(results[i].Outcome)
				if results[i].Finding != nil {
					what += ": " + results[i].Finding.Message
				}
				problems = append(problems, fmt.Sprintf("replay %s (try %d of %d): %s", p.path, try, p.tries, what))
			}
		}
		todo = again
	}
	for _, m := range lines {
		t.Logf("replay line %s: reproduced %d of %d times", filepath.Base(m[2]), reproduced[m[2]], readmeReplayRepeats)
	}
	return problems
}

// Every relative link in the README, and in the docs its sections moved
// to, points at a file of the repository.
func TestREADMELinks(t *testing.T) {
	for _, doc := range []string{readmePath, referencePath, rulesPath, "../../docs/figures.md", "../../docs/example.md", "../../docs/developing.md"} {
		text := readFile(t, doc)
		for _, m := range regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`).FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") {
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(doc), filepath.FromSlash(target))); err != nil {
				t.Errorf("%s links to %s: %v", doc, target, err)
			}
		}
	}
}

// The README is read in two minutes: at most readmeMaxWords words, as wc -w
// counts them.
func TestREADMEWordCount(t *testing.T) {
	if n := len(strings.Fields(readme(t))); n > readmeMaxWords {
		t.Errorf("README has %d words (wc -w), more than %d: move reference to docs/", n, readmeMaxWords)
	}
}

// The README says why each module go.mod requires is there, under its
// heading "Dependencies".
func TestREADMEDependencies(t *testing.T) {
	text := readme(t)
	_, deps, ok := strings.Cut(text, "\n## Dependencies\n")
	if !ok {
		t.Fatal("README has no section \"## Dependencies\"")
	}
	if i := strings.Index(deps, "\n## "); i >= 0 {
		deps = deps[:i]
	}
	b, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	mf, err := modfile.ParseLax("go.mod", b, nil)
	if err != nil {
		t.Fatal(err)
	}
	direct := 0
	for _, r := range mf.Require {
		if r.Indirect {
			continue
		}
		direct++
		if !strings.Contains(deps, "| "+r.Mod.Path+" ") {
			t.Errorf("README's Dependencies do not say why go.mod requires %s", r.Mod.Path)
		}
	}
	if direct == 0 {
		t.Error("go.mod requires no module directly: the test reads the wrong file")
	}
}

// The README's picture is the golden review comment as drawn by
// scripts/readme-picture.sh; the script recorded the hashes of its inputs
// next to it, and an input that changed since means the picture is stale.
func TestREADMEPictureCurrent(t *testing.T) {
	const (
		picture = "docs/img/review-comment.png"
		sums    = "docs/img/review-comment.sha256"
		script  = "scripts/readme-picture.sh"
		golden  = "report/github/testdata/golden/bank-deadlock.md"
	)
	if !strings.Contains(readme(t), "]("+picture+")") {
		t.Errorf("README does not show %s", picture)
	}
	if fi, err := os.Stat(filepath.Join("../..", picture)); err != nil || fi.Size() == 0 {
		t.Fatalf("no picture %s (run %s): %v", picture, script, err)
	}
	f, err := os.Open(filepath.Join("../..", sums))
	if err != nil {
		t.Fatalf("%v (run %s)", err, script)
	}
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		want, path, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("%s: bad line %q (run %s)", sums, sc.Text(), script)
		}
		seen[path] = true
		b, err := os.ReadFile(filepath.Join("../..", filepath.FromSlash(path)))
		if err != nil {
			t.Errorf("%s: %v (run %s)", sums, err, script)
			continue
		}
		got := sha256.Sum256(b)
		if hex.EncodeToString(got[:]) != want {
			t.Errorf("%s changed since %s was drawn: run %s", path, picture, script)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{golden, script} {
		if !seen[in] {
			t.Errorf("%s does not record input %s: run %s", sums, in, script)
		}
	}
}
