package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
)

// The README's commands are a contract: these tests keep it honest.

const readmePath = "../../README.md"

// readmeFirstCommand is the README's first command: the pull-request job on
// the bundled example.
const readmeFirstCommand = "go run ./cmd/interleave -C examples/bank pr -base :empty"

func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(readmePath)
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

// Every flag an example passes exists: the command's -h lists it.
func TestREADMEFlagsExist(t *testing.T) {
	lines := readmeCommandLines(readme(t))
	if len(lines) < 5 {
		t.Fatalf("found only %d example command lines in the README", len(lines))
	}
	for _, args := range lines {
		c := commands[args[0]]
		if c == nil {
			t.Errorf("README runs unknown command %q", strings.Join(args, " "))
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
				t.Errorf("README: interleave %s: flag -%s is not in its -h output", strings.Join(args, " "), name)
			}
		}
	}
}

// Every command and every rule is documented.
func TestREADMEListsCommandsAndRules(t *testing.T) {
	text := readme(t)
	for name := range commands {
		if !strings.Contains(text, "`interleave "+name) {
			t.Errorf("README does not document command %q", name)
		}
	}
	for _, r := range checks.Rules() {
		if !strings.Contains(text, r.ID) {
			t.Errorf("README's rule table lacks %s (%s)", r.ID, r.Slug)
		}
	}
}

// The first command works: findings with replay commands, and a replay
// reproduces. The budget is shortened and schedules go to a temporary
// directory; everything else is the README's command.
func TestREADMEFirstCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the pull-request job on examples/bank")
	}
	args := strings.Fields(readmeFirstCommand)[3:] // -C examples/bank pr ...
	if args[0] != "-C" {
		t.Fatalf("first command %q does not start with -C", readmeFirstCommand)
	}
	dir := filepath.Join("../..", args[1])
	schedules := t.TempDir()
	args = append(args[2:], "-budget", "20s", "-schedules", schedules)
	env, stdout, stderr := testEnv(t, dir)
	// Only a hang-catcher: a cold race build on a loaded machine takes
	// minutes.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	code := runMain(ctx, env, args)
	out := stdout.String()
	t.Logf("stderr:\n%s", stderr.String())
	if code != exitFindings {
		t.Fatalf("exit %d, want %d; stdout:\n%s", code, exitFindings, out)
	}
	for _, rule := range []string{"IL2001", "IL5003", "IL9003", "IL9004"} {
		if !strings.Contains(out, " "+rule+" ") {
			t.Errorf("no %s finding in the output:\n%s", rule, out)
		}
	}
	// FirstRate leaks on every schedule, and plain go test passes it: a
	// finding, labelled so (issue 21).
	if !regexp.MustCompile(`(?m)^\S+: IL9004 TestFirstRate(.*\n\t.*)*\n\tfails: on every schedule tried \(\d+\); plain go test passes \(exit 0, `).MatchString(out) {
		t.Errorf("the FirstRate leak is not a finding labelled every schedule, plain go test passes:\n%s", out)
	}
	// -base :empty has no base commit to compare the failures with, and
	// says nothing about one.
	if strings.Contains(stderr.String(), "could not run the failures on the base commit") || strings.Contains(out, "new in this change") {
		t.Errorf("pr -base :empty tried to run the failures on a base commit:\n%s", stderr.String())
	}
	// The opt-in rules' findings are reported only as confirmed; the one
	// no schedule confirms is counted, not reported.
	confirmedRules := []string{"IL2101"}
	for _, rule := range confirmedRules {
		if !regexp.MustCompile(`(?m)^\S+: ` + rule + ` .*\(confirmed: `).MatchString(out) {
			t.Errorf("no confirmed %s finding in the output:\n%s", rule, out)
		}
	}
	if strings.Contains(out, " IL3001 ") || !strings.Contains(stderr.String(), "unconfirmed (job summary only)") {
		t.Errorf("the unconfirmed IL3001 finding is reported, or not counted as unconfirmed")
	}
	// Account claims thread safety and is new: a quarter of the budget
	// goes to generated tests, and their race on the read in Balance is
	// the confirmed IL5003's, not reported twice.
	if !strings.Contains(stderr.String(), "gen: changed types that claim safety for concurrent use: bank.Account; 5s of -budget") {
		t.Errorf("pr did not give generated tests for bank.Account a quarter of the budget:\n%s", stderr.String())
	}
	if regexp.MustCompile(`(?m)^\S*account.go:51: IL9005 `).MatchString(out) {
		t.Errorf("a generated test's race on Balance's read is reported next to IL5003:\n%s", out)
	}
	m := regexp.MustCompile(`(?m)^\treplay: interleave replay (\S+)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no replay line in the output:\n%s", out)
	}
	renv, rout, rerr := testEnv(t, dir)
	if code := runMain(ctx, renv, []string{"replay", m[1]}); code != exitFindings {
		t.Errorf("replay %s: exit %d, want %d\n%s%s", m[1], code, exitFindings, rout, rerr)
	}
}

// Every relative link in the README points at a file of the repository.
func TestREADMELinks(t *testing.T) {
	for _, m := range regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`).FindAllStringSubmatch(readme(t), -1) {
		target := m[1]
		if strings.Contains(target, "://") {
			continue
		}
		if _, err := os.Stat(filepath.Join("../..", filepath.FromSlash(target))); err != nil {
			t.Errorf("README links to %s: %v", target, err)
		}
	}
}
