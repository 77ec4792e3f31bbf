package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/internal/prjob"
)

// configRepo makes a module in a git repository whose commit holds base
// as .interleave.yaml (none when "") and whose working tree holds head.
func configRepo(t *testing.T, base, head string) string {
	t.Helper()
	dir := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	write("go.mod", "module example.com/m\n\ngo 1.26\n")
	if base != "" {
		write(prjob.FileName, base)
	}
	git("add", ".")
	git("commit", "-q", "-m", "base")
	if head != "" {
		write(prjob.FileName, head)
	} else {
		os.Remove(filepath.Join(dir, prjob.FileName))
	}
	return dir
}

const (
	baseFile = "budget: 5m\nrules:\n  disable: [IL5003]\nignore:\n  - rule: IL9003\n    reason: known deadlock\n"
	headFile = "budget: 0\nrules:\n  disable: [all]\n"
)

// TestConfigCommand prints the settings and their sources: the working
// tree's file, the base's with -base, flags over both.
func TestConfigCommand(t *testing.T) {
	dir := configRepo(t, baseFile, headFile)
	env, stdout, stderr := testEnv(t, dir)
	if code := runMain(context.Background(), env, []string{"config"}); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"config file: .interleave.yaml\n", "budget         0s", ".interleave.yaml:1\n", "rules.disable  all", "tags           (none)                         default\n"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("config lacks %q:\n%s", want, stdout)
		}
	}
	env, stdout, stderr = testEnv(t, dir)
	if code := runMain(context.Background(), env, []string{"config", "-base", "HEAD", "-budget", "1m", "-tags", "a,b"}); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"config file: HEAD:.interleave.yaml\n", "budget         1m0s                           flag -budget\n",
		"rules.disable  IL5003                         HEAD:.interleave.yaml:3\n", "tags           a, b                           flag -tags\n",
		"ignore         1 entry                        HEAD:.interleave.yaml:4\n", "  ignore rule IL9003: known deadlock (HEAD:.interleave.yaml:5)\n"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("config -base HEAD lacks %q:\n%s", want, stdout)
		}
	}
}

// TestConfigCommandBadFile: a bad file is exit 2 with every problem at its
// line and column.
func TestConfigCommandBadFile(t *testing.T) {
	dir := configRepo(t, "", "budget: 1m\nrules:\n  enabel: [all]\ntags: integration\n")
	for _, args := range [][]string{{"config"}, {"check", "./..."}} {
		env, _, stderr := testEnv(t, dir)
		if code := runMain(context.Background(), env, args); code != exitError {
			t.Errorf("%v: exit %d, want %d", args, code, exitError)
		}
		for _, want := range []string{
			"interleave " + args[0] + `: .interleave.yaml:3:3: unknown key "enabel" in rules: valid keys are disable, enable`,
			"interleave " + args[0] + ": .interleave.yaml:4:7: tags: want array, got string",
		} {
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("%v: stderr lacks %q:\n%s", args, want, stderr)
			}
		}
	}
}

// TestPRReadsBaseFile: interleave pr takes the settings of the base's
// file, not of the working tree's, and flags override them.
func TestPRReadsBaseFile(t *testing.T) {
	noEnv := func(string) string { return "" }
	dir := configRepo(t, baseFile, headFile)
	env, _, stderr := testEnv(t, dir)
	opts, code, ok := parsePRFlags(env, []string{"-base", "HEAD", "-head", ":worktree", "-enable", "all"}, noEnv)
	if !ok {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if opts.Budget != 5*time.Minute || strings.Join(opts.Disable, ",") != "IL5003" || len(opts.Ignore) != 1 || strings.Join(opts.Enable, ",") != "all" {
		t.Errorf("budget %v, disable %v, ignore %v, enable %v: want the base's 5m, IL5003, one entry, and the flag's all", opts.Budget, opts.Disable, opts.Ignore, opts.Enable)
	}
	if !strings.Contains(strings.Join(opts.Notes, "\n"), "settings from HEAD:.interleave.yaml") {
		t.Errorf("notes %q do not name the file", opts.Notes)
	}

	// A file only the working tree has is not used, and a note says so.
	dir = configRepo(t, "", headFile)
	env, _, stderr = testEnv(t, dir)
	opts, code, ok = parsePRFlags(env, []string{"-base", "HEAD"}, noEnv)
	if !ok {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if opts.Budget != prjob.DefaultBudget || len(opts.Disable) != 0 {
		t.Errorf("budget %v, disable %v: the head's file was used", opts.Budget, opts.Disable)
	}
	if !strings.Contains(strings.Join(opts.Notes, "\n"), ".interleave.yaml is not in the base HEAD") {
		t.Errorf("notes %q do not say the file is not used", opts.Notes)
	}

	// A bad file at the base stops the job before it starts.
	dir = configRepo(t, "budget: 5 minutes\n", "")
	env, _, stderr = testEnv(t, dir)
	if _, code, ok = parsePRFlags(env, []string{"-base", "HEAD"}, noEnv); ok || code != exitError || !strings.Contains(stderr.String(), "HEAD:.interleave.yaml:1:9: budget: want a duration") {
		t.Errorf("bad base file: ok %v, exit %d, stderr %s", ok, code, stderr)
	}
}

// TestActionInputsOverFile: an input that is not empty overrides the
// file; an empty one leaves the file's value.
func TestActionInputsOverFile(t *testing.T) {
	f, err := prjob.ParseFile(prjob.FileName, []byte("budget: 7m\ngen-budget: 0\ntags: [x]\ntests:\n  skip: Slow\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		env        map[string]string
		budget     time.Duration
		genAuto    bool
		budgetFrom string
	}{
		{map[string]string{}, 7 * time.Minute, false, ".interleave.yaml:1"},
		{map[string]string{"INPUT_BUDGET": "30s", "INPUT_GEN_BUDGET": "auto"}, 30 * time.Second, true, "input budget"},
	} {
		getenv := func(k string) string { return tc.env[k] }
		in, err := parseActionInputs(getenv)
		if err != nil {
			t.Fatal(err)
		}
		c := in.config(actionFiles{report: "r.json"})
		src := prjob.ApplyFile(&c, f, actionGiven(getenv))
		if c.Budget != tc.budget || c.GenAuto != tc.genAuto || src["budget"] != tc.budgetFrom {
			t.Errorf("env %v: budget %v gen auto %v from %q, want %v %v %q", tc.env, c.Budget, c.GenAuto, src["budget"], tc.budget, tc.genAuto, tc.budgetFrom)
		}
		if c.Skip == nil || c.Skip.String() != "Slow" || strings.Join(c.Tags, ",") != "x" {
			t.Errorf("env %v: skip %v tags %v, want the file's", tc.env, c.Skip, c.Tags)
		}
	}
	// Without a file, an empty budget input is pr's default.
	in, err := parseActionInputs(func(string) string { return "" })
	if err != nil || in.Budget != prjob.DefaultBudget || in.GenBudget != "auto" {
		t.Errorf("no inputs: budget %v gen-budget %q (%v)", in.Budget, in.GenBudget, err)
	}
}

// TestCheckReadsFile: interleave check takes rules and tags from the
// file under its flags.
func TestCheckReadsFile(t *testing.T) {
	dir := configRepo(t, "", "rules:\n  disable: [IL5003]\ntags: [integration]\n")
	env, _, stderr := testEnv(t, dir)
	opts, code, ok := parseCheckFlags(env, []string{"-tags", "other"})
	if !ok {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Join(opts.Disable, ",") != "IL5003" || strings.Join(opts.Tags, ",") != "other" {
		t.Errorf("disable %v tags %v, want the file's IL5003 and the flag's other", opts.Disable, opts.Tags)
	}
}
