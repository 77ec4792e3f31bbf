package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// The -confirm mode runs `interleave pr` as a pull request that touches the
// buggy lines would: the module copy becomes a two-commit repository, the
// release as the base and, as the head, the release with a comment appended
// to every buggy line. The changed lines are then the buggy ones and the
// changed functions the ones holding them, which is what pr scopes its
// static candidates, its targeted search and its generated tests by (a PR
// that wrote or edited the buggy access). pr posts a static finding only
// when a schedule confirms it (every rule is below the posting bar), so
// what pr posts is what this mode scores.

// touchMark is appended to each buggy line in the head commit.
const touchMark = " // staticbugs: the change touches this line"

// prVerdict is one bug's outcome under -confirm.
type prVerdict struct {
	Posted      []string `json:"posted,omitempty"`      // "RULE confirmed by TEST" or "RULE static" or "KIND dynamic in TEST" at a buggy line
	ByGen       bool     `json:"byGen,omitempty"`       // one of the confirmations is a generated test's schedule
	Unconfirmed []string `json:"unconfirmed,omitempty"` // candidates at a buggy line no schedule confirmed
	Counts      string   `json:"counts,omitempty"`      // pr's confirmation line
	Reported    int      `json:"reported"`              // findings in pr's report
	Seconds     float64  `json:"prSeconds"`
}

// prFinding is the part of pr's JSON report this mode reads.
type prFinding struct {
	finding
	Evidence string `json:"evidence"`
	Kind     string `json:"kind"`
	Test     string `json:"test"`
	Replay   string `json:"replay"`
}

// genTestPrefix names the tests interleave gen writes.
const genTestPrefix = "TestInterleaveGen"

// fixedDate makes the two commits, and so the head commit's hash (pr's
// default seed), the same on every run.
var fixedDate = []string{"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z",
	"GIT_AUTHOR_NAME=staticbugs", "GIT_AUTHOR_EMAIL=staticbugs@invalid",
	"GIT_COMMITTER_NAME=staticbugs", "GIT_COMMITTER_EMAIL=staticbugs@invalid"}

// makeChange turns mod into the two-commit repository.
func makeChange(b bug, mod string) error {
	git := func(args ...string) error {
		cmd := exec.Command("git", args...)
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), fixedDate...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, lastLines(string(out), 4))
		}
		return nil
	}
	if err := git("init", "-q"); err != nil {
		return err
	}
	if err := git("add", "-A"); err != nil {
		return err
	}
	if err := git("commit", "-q", "--no-verify", "-m", "the release"); err != nil {
		return err
	}
	for _, l := range b.Locs {
		if err := touchLines(filepath.Join(mod, filepath.FromSlash(l.File)), l.Lines); err != nil {
			return err
		}
	}
	if err := git("commit", "-q", "--no-verify", "-a", "-m", "touch the buggy lines"); err != nil {
		return err
	}
	return nil
}

// touchLines appends touchMark to the given lines of file.
func touchLines(file string, lines []int) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	ls := strings.Split(string(data), "\n")
	for _, n := range lines {
		if n < 1 || n > len(ls) {
			return fmt.Errorf("%s has no line %d", file, n)
		}
		ls[n-1] = strings.TrimRight(ls[n-1], " \t") + touchMark
	}
	return os.WriteFile(file, []byte(strings.Join(ls, "\n")), 0o644)
}

// unconfirmedRE is pr -v's line for a candidate no schedule confirmed.
var unconfirmedRE = regexp.MustCompile(`\bunconfirmed (IL\d+) at (\S+):(\d+): `)

// runPR runs pr on mod's two commits and scores its report.
func runPR(b bug, bin, work, mod string, budget time.Duration) (v prVerdict, err error) {
	start := time.Now()
	defer func() { v.Seconds = time.Since(start).Round(time.Second).Seconds() }()
	rep := filepath.Join(work, b.ID+"-pr.json")
	logFile := filepath.Join(work, b.ID+"-pr.log")
	args := []string{"pr", "-base", "HEAD~1", "-head", "HEAD", "-format", "json", "-o", rep, "-v", "-budget", budget.String()}
	cmd := exec.Command(bin, args...)
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	var stderr bytes.Buffer
	lf, err := os.Create(logFile)
	if err != nil {
		return v, err
	}
	defer lf.Close()
	cmd.Stderr = io.MultiWriter(&stderr, lf)
	err = cmd.Run()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		return v, fmt.Errorf("interleave %s: %v: %s", strings.Join(args, " "), err, lastLines(stderr.String(), 6))
	}
	data, err := os.ReadFile(rep)
	if err != nil {
		return v, fmt.Errorf("reading pr's report: %v", err)
	}
	var r struct {
		Findings []prFinding `json:"findings"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return v, fmt.Errorf("decoding %s: %v", rep, err)
	}
	v.Reported = len(r.Findings)
	v.Posted, v.ByGen = scorePosted(b, mod, r.Findings)
	v.Unconfirmed, v.Counts = scoreLog(b, mod, stderr.String())
	return v, nil
}

// relIn makes a report's file name relative to the module copy.
func relIn(mod, file string) string {
	if filepath.IsAbs(file) {
		if rel, err := filepath.Rel(mod, file); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(file)
}

// scorePosted lists the reported findings at a buggy line: a confirmed
// static finding with its test, a static one posted as it is, a dynamic one
// whose place or stacks reach a buggy line.
func scorePosted(b bug, mod string, fs []prFinding) (posted []string, byGen bool) {
	set := map[string]bool{}
	for _, f := range fs {
		f.Pos.File = relIn(mod, f.Pos.File)
		for i := range f.Related {
			f.Related[i].File = relIn(mod, f.Related[i].File)
		}
		if len(found(b, []finding{f.finding})) == 0 {
			continue
		}
		switch f.Evidence {
		case "confirmed":
			set[fmt.Sprintf("%s confirmed by %s", f.Rule, f.Test)] = true
			if strings.HasPrefix(f.Test, genTestPrefix) {
				byGen = true
			}
		case "dynamic":
			set[fmt.Sprintf("%s %s in %s", f.Rule, f.Kind, f.Test)] = true
			if strings.HasPrefix(f.Test, genTestPrefix) {
				byGen = true
			}
		default:
			set[f.Rule+" posted unconfirmed"] = true
		}
	}
	return sortedKeys(set), byGen
}

// scoreLog reads pr -v's log: the candidates at a buggy line left
// unconfirmed, and the confirmation count line.
func scoreLog(b bug, mod, log string) (unconfirmed []string, counts string) {
	set := map[string]bool{}
	for _, line := range strings.Split(log, "\n") {
		if i := strings.Index(line, "confirmation: "); i >= 0 && counts == "" {
			counts = strings.TrimSpace(line[i+len("confirmation: "):])
		}
		m := unconfirmedRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var n int
		fmt.Sscan(m[3], &n)
		if len(found(b, []finding{{Rule: m[1], Pos: pos{File: relIn(mod, m[2]), Line: n}}})) > 0 {
			set[m[1]] = true
		}
	}
	return sortedKeys(set), counts
}

// prColumn is the -confirm column of the table.
func (v *prVerdict) column() string {
	switch {
	case len(v.Posted) > 0:
		s := "yes: " + strings.Join(v.Posted, "; ")
		if v.ByGen {
			s += " (a generated test)"
		}
		return s
	case len(v.Unconfirmed) > 0:
		return "no: " + strings.Join(v.Unconfirmed, ", ") + " unconfirmed"
	}
	return "no"
}

func printConfirmTable(w io.Writer, outs []outcome) {
	fmt.Fprintln(w, "| bug | kind | check, default | check, every rule | pr (posted at a buggy line) | pr findings | pr seconds |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	var n, def, all, posted, gen int
	for _, o := range outs {
		n++
		col, cnt, secs := "error", "-", "-"
		if o.Err == "" && o.PR != nil {
			col, cnt, secs = o.PR.column(), fmt.Sprint(o.PR.Reported), fmt.Sprint(o.PR.Seconds)
			if len(o.PR.Posted) > 0 {
				posted++
				if o.PR.ByGen {
					gen++
				}
			}
		}
		if o.Err == "" && len(o.DefaultRules) > 0 {
			def++
		}
		if o.Err == "" && len(o.AllRules) > 0 {
			all++
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", o.ID, o.Kind, rulesOr(o.DefaultRules, o.Err), rulesOr(o.AllRules, o.Err), col, cnt, secs)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "recall, check default rules: %d of %d; every rule: %d of %d\n", def, n, all, n)
	fmt.Fprintf(w, "recall, pr (posted at a buggy line): %d of %d (%d through a generated test)\n", posted, n, gen)
	for _, o := range outs {
		if o.PR != nil && o.PR.Counts != "" {
			fmt.Fprintf(w, "pr: %s: %s\n", o.ID, o.PR.Counts)
		}
		if o.Err != "" {
			fmt.Fprintf(w, "error: %s: %s\n", o.ID, o.Err)
		}
	}
}

func rulesOr(rules []string, errText string) string {
	if errText != "" {
		return "error"
	}
	if len(rules) == 0 {
		return "no"
	}
	r := append([]string(nil), rules...)
	sort.Strings(r)
	return strings.Join(r, ", ")
}
