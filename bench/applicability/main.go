// Command applicability is the Go half of bench/applicability.sh: it runs
// the search on one module (the "lib" driver, for checkouts whose
// `interleave test -format json` has no per-test schedule counts) and
// prints the summary table over a results directory.
//
//	go run ./bench/applicability run -budget 60s -seed 1 -o out.json ./...
//	go run ./bench/applicability summary RESULTS_DIR
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/report"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	switch os.Args[1] {
	case "run":
		os.Exit(run(os.Args[2:]))
	case "summary":
		if len(os.Args) != 3 {
			usage()
		}
		if err := summary(os.Stdout, os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "applicability:", err)
			os.Exit(2)
		}
	default:
		usage()
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: applicability run [-budget D] [-seed N] [-race] -o FILE [packages]\n       applicability summary DIR")
	os.Exit(2)
}

// libOutput is what `run` writes: the report envelope of `interleave test
// -format json` plus the per-test counts and the notes.
type libOutput struct {
	report.JSONReport
	Tests []explore.TestStats `json:"tests"`
	Notes []string            `json:"notes"`
}

// run searches the module in the current directory like `interleave test`.
func run(args []string) int {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	budget := fs.Duration("budget", time.Minute, "search budget")
	seed := fs.Int64("seed", 1, "seed")
	race := fs.Bool("race", true, "race detector")
	out := fs.String("o", "", "output file")
	fs.Parse(args)
	if *out == "" {
		usage()
	}
	pats := fs.Args()
	if len(pats) == 0 {
		pats = []string{"."}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	wd, _ := os.Getwd()
	res, err := explore.Run(ctx, explore.Options{
		Dir: wd, Patterns: pats, Budget: *budget, Seed: *seed, Race: *race,
		Strategy: "random", SchedulesDir: explore.DefaultSchedulesDir,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "applicability run:", err)
		return 2
	}
	for _, n := range res.Notes {
		fmt.Fprintln(os.Stderr, "interleave test: note:", n)
	}
	var buf bytes.Buffer
	if err := (report.JSON{}).Write(&buf, &report.Report{Findings: res.Findings, Root: wd}); err != nil {
		fmt.Fprintln(os.Stderr, "applicability run:", err)
		return 2
	}
	var o libOutput
	if err := json.Unmarshal(buf.Bytes(), &o.JSONReport); err != nil {
		fmt.Fprintln(os.Stderr, "applicability run:", err)
		return 2
	}
	o.Tests, o.Notes = res.Stats.Tests, res.Notes
	b, _ := json.MarshalIndent(o, "", "  ")
	if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "applicability run:", err)
		return 2
	}
	if len(res.Findings) > 0 {
		return 1
	}
	return 0
}

// perTest is one test's schedule count, wherever the JSON carries it.
type perTest struct {
	Package   string `json:"package"`
	Test      string `json:"test"`
	Schedules int    `json:"schedules"`
	Crashes   int    `json:"crashes"` // schedules whose process died (watchdog, crash)
	Plain     string `json:"plain"`   // outcome of the unperturbed schedule, when the tool runs one
}

// random is how many schedules other than the unperturbed one t ran.
func (t perTest) random() int {
	if t.Plain != "" && t.Schedules > 0 {
		return t.Schedules - 1
	}
	return t.Schedules
}

type finding struct {
	Rule    string `json:"rule"`
	Kind    string `json:"kind"`
	Test    string `json:"test"`
	Package string `json:"package"`
	Message string `json:"message"`
	Pos     struct {
		File string `json:"file"`
		Line int    `json:"line"`
	} `json:"pos"`
	Severity any    `json:"severity"`
	Schedule string `json:"schedule"`
	// The labels of a version 2 report; nil in older ones.
	Frequency *checks.Frequency `json:"frequency"`
	PlainGo   *checks.PlainGo   `json:"plainGoTest"`
	SameCause []json.RawMessage `json:"sameCause"`
	// Later labels: replayed on some tries only, needing early timers,
	// needing earlier runs of the test.
	Replays      *checks.ReplayRate   `json:"replays"`
	EarlyTimers  *checks.EarlyTimers  `json:"earlyTimers"`
	AfterEarlier *checks.AfterEarlier `json:"afterEarlier"`
}

// labelCounts counts findings by their labels: how often the test failed
// (every schedule tried or some) and what plain go test did.
type labelCounts struct {
	every, some, plainFails, plainPasses, plainNotRun, unlabelled int
}

func (c *labelCounts) add(f finding) {
	if f.Frequency == nil && f.PlainGo == nil {
		c.unlabelled++
		return
	}
	if f.Frequency != nil && f.Frequency.Schedules > 0 {
		if f.Frequency.Every() {
			c.every++
		} else {
			c.some++
		}
	}
	switch {
	case f.PlainGo == nil || f.PlainGo.Runs == 0:
		c.plainNotRun++
	case f.PlainGo.Fails():
		c.plainFails++
	default:
		c.plainPasses++
	}
}

func (c *labelCounts) merge(o labelCounts) {
	c.every += o.every
	c.some += o.some
	c.plainFails += o.plainFails
	c.plainPasses += o.plainPasses
	c.plainNotRun += o.plainNotRun
	c.unlabelled += o.unlabelled
}

func (c labelCounts) String() string {
	var parts []string
	if c.every+c.some > 0 {
		parts = append(parts, fmt.Sprintf("every schedule %d, some %d", c.every, c.some))
	}
	if c.plainFails+c.plainPasses+c.plainNotRun > 0 {
		p := fmt.Sprintf("plain fails %d, passes %d", c.plainFails, c.plainPasses)
		if c.plainNotRun > 0 {
			p += fmt.Sprintf(", not run %d", c.plainNotRun)
		}
		parts = append(parts, p)
	}
	if c.unlabelled > 0 {
		parts = append(parts, fmt.Sprintf("unlabelled %d", c.unlabelled))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, "; ")
}

// moduleResult is what summary reads from one module's directory.
type moduleResult struct {
	name                 string
	plainPass, plainFail int
	plainExit            string
	raceExit             string
	tests                []perTest
	haveStats            bool
	findings             []finding
	notes                []string
	exit                 string
	wall                 string
	driver               string
	runError             string // first line of the error when the search did not run
	without              []finding
}

func summary(w io.Writer, dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var mods []*moduleResult
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, e.Name(), "module")); err != nil {
			continue
		}
		m, err := readModule(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		mods = append(mods, m)
	}
	if len(mods) == 0 {
		return fmt.Errorf("no module results under %s", dir)
	}
	fmt.Fprintln(w, "| module | go test (pass/fail, exit) | -race exit | tests | ≥1 complete schedule, not crashed, no tool note (a budget-end stop is none) | ≥1 schedule besides the unperturbed one, not crashed | schedules/test median (min) | findings by rule | findings by label (frequency; plain go test) | fails without interleave too (version 1 reports) | interleave exit, wall |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	var totT, totOK, totSearched, totF, totW int
	var totL labelCounts
	for _, m := range mods {
		ok, searched, n := 0, 0, len(m.tests)
		var sched []int
		noted := noteTests(m.notes)
		for _, t := range m.tests {
			sched = append(sched, t.Schedules)
			if t.Schedules-t.Crashes > 0 && !noted[t.Test] {
				ok++
			}
			if t.random()-t.Crashes > 0 {
				searched++
			}
		}
		sort.Ints(sched)
		med, mn := "n/a", "n/a"
		okS, searchedS := "n/a", "n/a"
		if m.haveStats && n > 0 {
			med, mn = strconv.Itoa(sched[n/2]), strconv.Itoa(sched[0])
			okS = fmt.Sprintf("%d/%d (%.0f%%)", ok, n, 100*float64(ok)/float64(n))
			searchedS = fmt.Sprintf("%d/%d (%.0f%%)", searched, n, 100*float64(searched)/float64(n))
			totOK += ok
			totSearched += searched
		}
		tests := strconv.Itoa(n)
		if !m.haveStats {
			tests = fmt.Sprintf("%d (go test)", m.plainPass+m.plainFail)
			if m.runError != "" {
				tests += "; interleave could not run: " + m.runError
				n = m.plainPass + m.plainFail // none of them searched
			}
		}
		totT += n
		byRule := map[string]int{}
		var labels labelCounts
		for _, f := range m.findings {
			byRule[f.Rule+" "+f.Kind]++
			labels.add(f)
		}
		totL.merge(labels)
		var rules []string
		for r, c := range byRule {
			rules = append(rules, fmt.Sprintf("%s×%d", r, c))
		}
		sort.Strings(rules)
		totF += len(m.findings)
		totW += len(m.without)
		fmt.Fprintf(w, "| %s | %d/%d, %s | %s | %s | %s | %s | %s (%s) | %d: %s | %s | %d | %s, %s |\n",
			m.name, m.plainPass, m.plainFail, m.plainExit, m.raceExit, tests, okS, searchedS, med, mn,
			len(m.findings), strings.Join(rules, ", "), labels, len(m.without), m.exit, m.wall)
	}
	if totT > 0 {
		fmt.Fprintf(w, "| **total** | | | %d | %d (%.1f%%) | %d (%.1f%%) | | %d | %s | %d | |\n", totT, totOK, 100*float64(totOK)/float64(totT),
			totSearched, 100*float64(totSearched)/float64(totT), totF, totL, totW)
	}
	for _, m := range mods {
		if len(m.findings) == 0 && len(m.notes) == 0 && len(m.without) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n## %s (driver: %s)\n", m.name, m.driver)
		for i, f := range m.findings {
			fmt.Fprintf(w, "%d. %s %s %s %s:%d — %s\n   schedule: %s\n", i+1, f.Rule, f.Kind, f.Test, f.Pos.File, f.Pos.Line, firstLine(f.Message), f.Schedule)
			if l := findingLabels(f); l != "" {
				fmt.Fprintf(w, "   labels: %s\n", l)
			}
			if len(f.SameCause) > 0 {
				fmt.Fprintf(w, "   same cause: %d more\n", len(f.SameCause))
			}
		}
		for _, f := range m.without {
			fmt.Fprintf(w, "- fails without interleave too: %s %s %s %s:%d — %s\n", f.Rule, f.Kind, f.Test, f.Pos.File, f.Pos.Line, firstLine(f.Message))
		}
		for _, n := range m.notes {
			fmt.Fprintf(w, "- note: %s\n", firstLine(n))
		}
	}
	return nil
}

// findingLabels is the labels a version 2 report gives f, as the text
// report shows them.
func findingLabels(f finding) string {
	cf := checks.Finding{Frequency: f.Frequency, PlainGo: f.PlainGo, Replays: f.Replays, EarlyTimers: f.EarlyTimers, AfterEarlier: f.AfterEarlier}
	return firstLine(cf.Labels())
}

// noteTests is the set of tests a note names ("TestX: ..."), but for the
// notes that a process or a schedule was stopped when its share of the
// budget ended (budgetEnd), or that some but not all of its schedules
// reached the step bound (someCompleted): a test that ran a complete
// schedule has one however its later run ended.
func noteTests(notes []string) map[string]bool {
	out := map[string]bool{}
	for _, n := range notes {
		if budgetEnd(n) || someCompleted(n) {
			continue
		}
		if i := strings.Index(n, ": "); i > 0 && strings.HasPrefix(n, "Test") && !strings.ContainsAny(n[:i], " \n") {
			out[n[:i]] = true
		}
	}
	return out
}

// budgetEnd reports whether note n says only that the budget ended a
// test's process or schedule (explore's child.go and failure.go): "the
// test process was stopped at the end of its share of the budget …", "the
// schedule with seed N did not finish before the end of its share of the
// budget and was stopped …". A process that hung outside any schedule is
// not one.
func budgetEnd(n string) bool {
	first := firstLine(n)
	return strings.Contains(first, ": the test process was stopped at the end of its share of the budget") ||
		strings.Contains(first, "did not finish before the end of its share of the budget and was stopped")
}

// someCompleted reports whether note n says that some of a test's
// schedules stopped at the step bound but not all (interleave test's
// step-bound note without "the test needs more steps"): the others ran
// to the test's end.
func someCompleted(n string) bool {
	first := firstLine(n)
	return strings.Contains(first, "schedules stopped at the step bound") && !strings.Contains(n, "the test needs more steps")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 220 {
		s = s[:220] + "…"
	}
	return s
}

func readFile(dir, name string) string {
	b, _ := os.ReadFile(filepath.Join(dir, name))
	return strings.TrimSpace(string(b))
}

func readModule(dir string) (*moduleResult, error) {
	m := &moduleResult{
		name:      readFile(dir, "module"),
		plainExit: orDash(readFile(dir, "plain.exit")),
		raceExit:  orDash(readFile(dir, "race.exit")),
		exit:      orDash(readFile(dir, "interleave.exit")),
		wall:      orDash(readFile(dir, "interleave.wall")),
		driver:    orDash(readFile(dir, "driver")),
	}
	m.plainPass, m.plainFail = countTests(filepath.Join(dir, "plain.json"))
	raw, err := os.ReadFile(filepath.Join(dir, "interleave.json"))
	if err == nil && len(bytes.TrimSpace(raw)) > 0 {
		var env struct {
			Findings []finding `json:"findings"`
			Notes    []string  `json:"notes"`
			// Failures the unperturbed run also has (newer reports).
			Without []finding `json:"failsWithoutInterleave"`
		}
		if err := json.Unmarshal(raw, &env); err != nil {
			return nil, fmt.Errorf("%s: %v", dir, err)
		}
		m.findings, m.notes, m.without = env.Findings, env.Notes, env.Without
		var v any
		_ = json.Unmarshal(raw, &v)
		m.tests, m.haveStats = findPerTest(v)
	}
	if len(m.notes) == 0 {
		m.notes = stderrNotes(filepath.Join(dir, "interleave.stderr"))
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		for _, l := range strings.Split(readFile(dir, "interleave.stderr"), "\n") {
			if strings.Contains(l, "error") || strings.Contains(l, "cannot") || strings.Contains(l, "does not compile") {
				m.runError = strings.TrimSpace(l)
				break
			}
		}
		if m.runError == "" {
			m.runError = "see interleave.stderr"
		}
	}
	return m, nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// findPerTest finds the first array of objects with "test" and
// "schedules" keys anywhere in v.
func findPerTest(v any) ([]perTest, bool) {
	switch x := v.(type) {
	case []any:
		if len(x) > 0 {
			if o, ok := x[0].(map[string]any); ok {
				_, t := o["test"]
				_, s := o["schedules"]
				if t && s {
					b, _ := json.Marshal(x)
					var out []perTest
					if json.Unmarshal(b, &out) == nil {
						return out, true
					}
				}
			}
		}
		for _, e := range x {
			if r, ok := findPerTest(e); ok {
				return r, true
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			if k != "findings" {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			if r, ok := findPerTest(x[k]); ok {
				return r, true
			}
		}
	}
	return nil, false
}

// countTests counts top-level tests that passed (or were skipped) and
// failed in go test -json output.
func countTests(file string) (pass, fail int) {
	f, err := os.Open(file)
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var ev struct{ Action, Test string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Test == "" || strings.Contains(ev.Test, "/") {
			continue
		}
		switch ev.Action {
		case "pass", "skip":
			pass++
		case "fail":
			fail++
		}
	}
	return pass, fail
}

// stderrNotes collects the notes `interleave test` printed: a note runs
// from its "interleave test: note: " line to the next "interleave test:"
// line.
func stderrNotes(file string) []string {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var out []string
	cur := -1
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "interleave test: note: "); ok {
			out = append(out, rest)
			cur = len(out) - 1
			continue
		}
		if strings.HasPrefix(l, "interleave test:") {
			cur = -1
			continue
		}
		if cur >= 0 {
			out[cur] += "\n" + l
		}
	}
	return out
}
