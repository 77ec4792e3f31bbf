// Command runner measures interleave's recall and false alarms on the
// kernels listed in kernels.json: for each kernel it runs the test under
// plain go test (-count times, the plain pass rate), then `interleave test`
// with a JSON report, then `interleave replay` of every finding's schedule
// in a fresh process, and prints a table per kernel and totals per class.
//
// Run it from bench/recall (run.sh does): go run ./runner [flags].
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

type kernel struct {
	Dir      string `json:"dir"`
	Test     string `json:"test"`
	Class    string `json:"class"`
	Subclass string `json:"subclass"`
	Kind     string `json:"kind"`
	What     string `json:"what"`
	Mirrors  string `json:"mirrors"`
	correct  bool
}

type listing struct {
	Bugs    []kernel `json:"bugs"`
	Correct []kernel `json:"correct"`
}

// result is what one kernel did.
type result struct {
	k          kernel
	plainPass  int // plain go test runs that passed
	plainRuns  int
	plainErr   string
	racePass   int // the same under go test -race, as interleave compares
	raceRuns   int
	exit       int      // interleave test's exit code (-1: not run)
	kinds      []string // kinds of the findings
	findings   int
	replayed   int
	unreplayed int      // findings interleave reported unreplayed, out of time (labelled notReplayed)
	notes      []string // interleave's notes and "fails without interleave too" lines
	searchErr  string
	searchTime time.Duration
	seed       string // the seed interleave test printed
}

var seedRE = regexp.MustCompile(`interleave test: seed (-?\d+)`)

func main() {
	budget := flag.Duration("budget", 10*time.Second, "interleave test -budget per kernel")
	count := flag.Int("count", 20, "plain go test runs per kernel, with and without -race (0: skip)")
	jobs := flag.Int("j", 1, "kernels searched at once")
	workers := flag.Int("workers", 1, "interleave test -workers per kernel")
	run := flag.String("run", "", "only kernels whose directory matches `regexp`")
	bin := flag.String("interleave", "", "use this interleave binary instead of building ./cmd/interleave")
	jsonOut := flag.String("json", "", "also write the per-kernel results to `file` as JSON")
	seed := flag.Int64("seed", 0, "interleave test -seed for every kernel (0: interleave's time-based seed, recorded in -json)")
	search := flag.Bool("search", true, "run interleave (false: plain runs only)")
	flag.Parse()
	if flag.NArg() != 0 || *jobs < 1 || *count < 0 || *budget <= 0 {
		fmt.Fprintln(os.Stderr, "runner: bad arguments; see -h")
		os.Exit(2)
	}
	var re *regexp.Regexp
	if *run != "" {
		var err error
		if re, err = regexp.Compile(*run); err != nil {
			fatal("bad -run: %v", err)
		}
	}
	ks, err := load(".")
	if err != nil {
		fatal("%v", err)
	}
	tmp, err := os.MkdirTemp("", "recall-")
	if err != nil {
		fatal("%v", err)
	}
	defer os.RemoveAll(tmp)
	if !*search {
		*bin = ""
	} else if *bin == "" {
		*bin = filepath.Join(tmp, "interleave")
		fmt.Fprintln(os.Stderr, "runner: building ./cmd/interleave")
		cmd := exec.Command("go", "build", "-o", *bin, "./cmd/interleave")
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			fatal("building interleave: %v\n%s", err, out)
		}
	} else if *bin, err = filepath.Abs(*bin); err != nil {
		fatal("%v", err)
	}
	var todo []kernel
	for _, k := range ks {
		if re == nil || re.MatchString(k.Dir) {
			todo = append(todo, k)
		}
	}
	results := make([]*result, len(todo))
	var wg sync.WaitGroup
	sem := make(chan struct{}, *jobs)
	var mu sync.Mutex
	for i, k := range todo {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			r := measure(k, tmp, *bin, *budget, *count, *workers, *seed)
			if !*search {
				r.exit, r.searchErr = -1, ""
			}
			mu.Lock()
			results[i] = r
			fmt.Fprintf(os.Stderr, "runner: %-22s plain %d/%d, exit %d, %d finding(s) %v, %d replayed, %d not replayed by interleave for want of time (%.0fs)\n",
				k.Dir, r.plainPass, r.plainRuns, r.exit, r.findings, r.kinds, r.replayed, r.unreplayed, r.searchTime.Seconds())
			mu.Unlock()
		}()
	}
	wg.Wait()
	print(os.Stdout, results, *budget, *count)
	if *jsonOut != "" {
		if err := writeJSON(*jsonOut, results); err != nil {
			fatal("%v", err)
		}
	}
}

func fatal(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "runner: "+format+"\n", a...)
	os.Exit(2)
}

// load reads root/kernels.json and checks it against the directories
// under root/k.
func load(root string) ([]kernel, error) {
	path := filepath.Join(root, "kernels.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var l listing
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	ks := append([]kernel(nil), l.Bugs...)
	seen := map[string]bool{}
	for _, k := range l.Correct {
		k.correct, k.Class, k.Subclass, k.Kind = true, "correct", "near miss of "+strings.TrimPrefix(k.Mirrors, "k/"), "none"
		if k.Mirrors == "" {
			// No bug kernel to mirror: a correct program the tool itself
			// could fail (an allocation count, a clock read).
			k.Subclass = "tool-made failure guard"
		}
		ks = append(ks, k)
	}
	for _, k := range ks {
		if seen[k.Dir] {
			return nil, fmt.Errorf("%s: %s listed twice", path, k.Dir)
		}
		seen[k.Dir] = true
		if err := hasTest(root, k); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	}
	ents, err := os.ReadDir(filepath.Join(root, "k"))
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		if e.IsDir() && !seen["k/"+e.Name()] {
			return nil, fmt.Errorf("%s: k/%s is not listed", path, e.Name())
		}
	}
	if len(ents) != len(ks) {
		return nil, fmt.Errorf("%s lists %d kernels, k/ has %d entries", path, len(ks), len(ents))
	}
	return ks, nil
}

// hasTest checks that k's directory declares k's test, since a -run
// pattern that matches nothing passes.
func hasTest(root string, k kernel) error {
	files, _ := filepath.Glob(filepath.Join(root, k.Dir, "*_test.go"))
	decl := regexp.MustCompile(`(?m)^func ` + regexp.QuoteMeta(k.Test) + `\(t \*testing\.T\)`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if decl.Match(b) {
			return nil
		}
	}
	return fmt.Errorf("%s declares no test %q", k.Dir, k.Test)
}

// measure runs one kernel: plain runs, the search, the replays.
func measure(k kernel, tmp, bin string, budget time.Duration, count, workers int, seed int64) *result {
	r := &result{k: k, exit: -1}
	name := filepath.Base(k.Dir)
	work := filepath.Join(tmp, name)
	if err := os.MkdirAll(work, 0o755); err != nil {
		r.searchErr = err.Error()
		return r
	}
	if count > 0 {
		r.plainPass, r.plainRuns = plain(r, work, count, false)
		r.racePass, r.raceRuns = plain(r, work, count, true)
	}
	if bin == "" {
		return r
	}
	report := filepath.Join(work, "report.json")
	sched := filepath.Join(work, "schedules")
	// Builds are slow on a loaded machine: the bound only stops a hang.
	ctx, cancel := context.WithTimeout(context.Background(), budget+15*time.Minute)
	defer cancel()
	var stderr bytes.Buffer
	args := []string{"test", "-budget", budget.String(), "-format", "json", "-o", report,
		"-schedules", sched, "-workers", fmt.Sprint(workers), "-run", "^" + k.Test + "$"}
	if seed != 0 {
		args = append(args, "-seed", fmt.Sprint(seed))
	}
	cmd := exec.CommandContext(ctx, bin, append(args, "./"+k.Dir)...)
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	r.searchTime = time.Since(start)
	r.exit = exitCode(err)
	r.notes = notes(stderr.String())
	if m := seedRE.FindStringSubmatch(stderr.String()); m != nil {
		r.seed = m[1]
	}
	if r.exit != 0 && r.exit != 1 {
		r.searchErr = lastLines(stderr.String(), 3)
		return r
	}
	var rep struct {
		Findings []struct {
			Kind        string `json:"kind"`
			Schedule    string `json:"schedule"`
			NotReplayed string `json:"notReplayed"`
		} `json:"findings"`
	}
	b, err := os.ReadFile(report)
	if err == nil {
		err = json.Unmarshal(b, &rep)
	}
	if err != nil {
		r.searchErr = "report: " + err.Error()
		return r
	}
	r.findings = len(rep.Findings)
	for _, f := range rep.Findings {
		r.kinds = append(r.kinds, f.Kind)
		if f.NotReplayed != "" {
			r.unreplayed++
		}
		if f.Schedule == "" {
			continue
		}
		path := f.Schedule
		if !filepath.IsAbs(path) {
			path = filepath.Join(".", path)
		}
		// A fresh process per replay.
		rctx, rcancel := context.WithTimeout(context.Background(), 15*time.Minute)
		rc := exec.CommandContext(rctx, bin, "replay", path)
		rc.Stdout, rc.Stderr = io.Discard, io.Discard
		if exitCode(rc.Run()) == 1 {
			r.replayed++
		}
		rcancel()
	}
	return r
}

// plain builds the kernel's test binary as go test does (with -race when
// race) and runs it count times; it returns the passing runs and the runs.
// A run that hangs for 20s counts as a failure.
func plain(r *result, work string, count int, race bool) (pass, runs int) {
	testBin := filepath.Join(work, "plain.test")
	args := []string{"test", "-c", "-o", testBin}
	if race {
		testBin += "-race"
		args = []string{"test", "-race", "-c", "-o", testBin}
	}
	if out, err := exec.Command("go", append(args, "./"+r.k.Dir)...).CombinedOutput(); err != nil {
		r.plainErr = "build: " + lastLines(string(out), 2)
		return 0, 0
	}
	for range count {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, testBin, "-test.run=^"+r.k.Test+"$", "-test.count=1", "-test.timeout=20s")
		cmd.Dir = r.k.Dir
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if cmd.Run() == nil {
			pass++
		}
		runs++
		cancel()
	}
	return pass, runs
}

func exitCode(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return ee.ExitCode()
	default:
		return -1
	}
}

// notes picks interleave's notes out of its standard error.
func notes(stderr string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(stderr))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		for _, p := range []string{"interleave test: note: ", "interleave test: fails without interleave too "} {
			if s, ok := strings.CutPrefix(l, p); ok {
				if p != "interleave test: note: " {
					s = "fails without interleave too " + s
				}
				out = append(out, s)
			}
		}
	}
	return out
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, " | ")
}

// found reports whether the kernel was reported: exit 1.
func (r *result) found() bool { return r.exit == 1 }

func (r *result) status() string {
	switch {
	case r.searchErr != "":
		return "error"
	case r.found():
		return "yes"
	case r.exit == -1:
		return "-"
	default:
		return "no"
	}
}

func print(w io.Writer, rs []*result, budget time.Duration, count int) {
	fmt.Fprintf(w, "budget %v per kernel, %d plain runs per kernel\n\n", budget, count)
	fmt.Fprintln(w, "| class | subclass | kernel | expected | found (exit 1) | finding kinds | replayed | plain pass | plain -race pass |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, r := range rs {
		kinds := strings.Join(r.kinds, ", ")
		if kinds == "" {
			kinds = "-"
		}
		rep := "-"
		if r.findings > 0 {
			rep = fmt.Sprintf("%d/%d", r.replayed, r.findings)
		}
		if r.unreplayed > 0 {
			// Reported, labelled "not replayed: no time left": the
			// runner's replay is the first.
			rep += fmt.Sprintf(" (%d not replayed by interleave: no time left)", r.unreplayed)
		}
		pl, prace := "-", "-"
		if r.plainRuns > 0 {
			pl = fmt.Sprintf("%d/%d", r.plainPass, r.plainRuns)
		} else if r.plainErr != "" {
			pl = "error"
		}
		if r.raceRuns > 0 {
			prace = fmt.Sprintf("%d/%d", r.racePass, r.raceRuns)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			r.k.Class, r.k.Subclass, strings.TrimPrefix(r.k.Dir, "k/"), r.k.Kind, r.status(), kinds, rep, pl, prace)
	}
	type tot struct{ n, found, replayedAll, plainPass, plainRuns, racePass, raceRuns int }
	tots := map[string]*tot{}
	var keys []string
	add := func(key string, r *result) {
		t := tots[key]
		if t == nil {
			t = &tot{}
			tots[key] = t
			keys = append(keys, key)
		}
		t.n++
		if r.found() {
			t.found++
			if r.findings > 0 && r.replayed == r.findings {
				t.replayedAll++
			}
		}
		t.plainPass += r.plainPass
		t.plainRuns += r.plainRuns
		t.racePass += r.racePass
		t.raceRuns += r.raceRuns
	}
	for _, r := range rs {
		if !r.k.correct {
			add(r.k.Class+" / "+r.k.Subclass, r)
		}
		add(r.k.Class+" (all)", r)
		if !r.k.correct {
			add("all bug kernels", r)
		}
	}
	sort.Strings(keys)
	fmt.Fprintln(w, "\n| class | kernels | found (exit 1) | found and every finding replayed | plain pass | plain -race pass |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, key := range keys {
		t := tots[key]
		label := key
		if strings.HasPrefix(key, "correct") {
			label = key + " (found = false alarm)"
		}
		pct := func(pass, runs int) string {
			if runs == 0 {
				return "-"
			}
			return fmt.Sprintf("%.0f%%", 100*float64(pass)/float64(runs))
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %s | %s |\n", label, t.n, t.found, t.replayedAll,
			pct(t.plainPass, t.plainRuns), pct(t.racePass, t.raceRuns))
	}
	var unreplayed []string
	for _, r := range rs {
		if r.unreplayed > 0 {
			unreplayed = append(unreplayed, fmt.Sprintf("%s (%d)", strings.TrimPrefix(r.k.Dir, "k/"), r.unreplayed))
		}
	}
	if len(unreplayed) > 0 {
		fmt.Fprintf(w, "\nReported by interleave without its own replay (labelled \"not replayed: no time left\"; the replayed column is the runner's): %s\n", strings.Join(unreplayed, ", "))
	}
	var why []string
	for _, r := range rs {
		if r.exit == -1 && r.searchErr == "" {
			continue // not searched
		}
		if r.found() && !r.k.correct {
			continue
		}
		if !r.found() && r.k.correct && r.searchErr == "" {
			continue
		}
		line := strings.TrimPrefix(r.k.Dir, "k/") + ": "
		switch {
		case r.searchErr != "":
			line += "error: " + r.searchErr
		case r.k.correct:
			line += "FALSE ALARM: " + strings.Join(r.kinds, ", ")
		case len(r.notes) > 0:
			line += strings.Join(r.notes, " / ")
		default:
			line += "nothing reported, no note"
		}
		why = append(why, line)
	}
	if len(why) > 0 {
		fmt.Fprintln(w, "\nNot found (or false alarms), with interleave's notes:")
		for _, l := range why {
			fmt.Fprintln(w, "- "+l)
		}
	}
}

func writeJSON(path string, rs []*result) error {
	type row struct {
		Dir, Class, Subclass, Expected string
		Exit                           int
		Kinds                          []string
		Findings, Replayed             int
		NotReplayed                    int `json:",omitempty"`
		PlainPass, PlainRuns           int
		RacePass, RaceRuns             int
		Seed                           string
		Notes                          []string `json:",omitempty"`
		Error                          string   `json:",omitempty"`
		SearchSeconds                  float64
	}
	var out []row
	for _, r := range rs {
		out = append(out, row{r.k.Dir, r.k.Class, r.k.Subclass, r.k.Kind, r.exit, r.kinds, r.findings, r.replayed, r.unreplayed,
			r.plainPass, r.plainRuns, r.racePass, r.raceRuns, r.seed, r.notes, r.searchErr + r.plainErr, r.searchTime.Seconds()})
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
