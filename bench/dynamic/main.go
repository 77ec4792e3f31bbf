// Command dynamic measures interleave's controlled-concurrency search on the
// bug kernels (checks/dynamic/testdata/kernels):
//
//   - throughput: schedules per second of a test run under the scheduler
//     versus the same test looping uninstrumented (go test -count=N) in one
//     process;
//   - schedules-to-bug: for each bug kernel, whether the search finds the
//     expected failure in a given wall time and after how many schedules,
//     versus stress testing (go test -race -count=N) for the same wall time;
//   - by strategy (-only strategies, strategies.sh): median schedules-to-bug
//     of each scheduling strategy next to the same stress baseline;
//   - leftovers (-only leftover, leftover.sh): schedules/s of a test whose
//     background goroutine outlives every schedule next to the same test
//     without it (checks/dynamic/testdata/realsuite-drv/janitor).
//
// Run it through run.sh.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

func main() {
	kernels := flag.String("kernels", "checks/dynamic/testdata/kernels", "Kernel module `dir`")
	perBug := flag.Duration("bug-budget", 3*time.Second, "Wall time each tool gets per bug kernel")
	tput := flag.Duration("throughput-budget", 3*time.Second, "Wall time of each throughput measurement")
	run := flag.String("run", "", "Only kernels whose test name contains `text`")
	only := flag.String("only", "all", "Measure `what`: all, throughput, bugs, strategies, leftover (all runs the first two)")
	drv := flag.String("leftover-dir", "checks/dynamic/testdata/realsuite-drv", "Module `dir` of the janitor package (-only leftover)")
	strategies := flag.String("strategies", "random,pct,pos,portfolio", "Strategies compared by -only strategies, comma-separated")
	flag.Parse()
	dir, err := filepath.Abs(*kernels)
	if err != nil {
		fatal(err)
	}
	ctx := context.Background()
	switch *only {
	case "all", "throughput", "bugs":
	case "strategies":
		if err := byStrategy(ctx, dir, *perBug, *run, strings.Split(*strategies, ",")); err != nil {
			fatal(err)
		}
		return
	case "leftover":
		d, err := filepath.Abs(*drv)
		if err != nil {
			fatal(err)
		}
		if err := leftover(ctx, d, *tput); err != nil {
			fatal(err)
		}
		return
	default:
		fatal(fmt.Errorf("unknown -only %q: valid values are all, throughput, bugs, strategies, leftover", *only))
	}
	if *only != "bugs" {
		if err := throughput(ctx, dir, *tput); err != nil {
			fatal(err)
		}
	}
	if *only != "throughput" {
		if err := toBug(ctx, dir, *perBug, *run); err != nil {
			fatal(err)
		}
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(2)
}

// throughputTests are correct kernels: they pass under every schedule, so
// both loops run for the whole budget.
var throughputTests = []string{"TestCounter", "TestLockOrder", "TestPingPong", "TestProducerCloses"}

func throughput(ctx context.Context, dir string, budget time.Duration) error {
	work, err := os.MkdirTemp("", "interleave-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	fmt.Printf("# throughput: one process, %v each (schedules/s; plain = go test -count=N of the same test)\n", budget)
	fmt.Printf("%-22s %6s %14s %14s %9s\n", "test", "race", "interleave/s", "plain/s", "slowdown")
	for _, race := range []bool{false, true} {
		bin := filepath.Join(work, fmt.Sprintf("correct-%v.test", race))
		if err := goTestC(ctx, dir, "./correct", bin, race); err != nil {
			return err
		}
		for _, test := range throughputTests {
			res, err := explore.Run(ctx, explore.Options{
				Dir: dir, Patterns: []string{"./correct"},
				Tests:  []explore.TestRef{{Package: "kernels/correct", Name: test}},
				Budget: budget, Race: race, Seed: 1, Workers: 1,
				SchedulesDir: filepath.Join(work, "schedules"),
			})
			if err != nil {
				return err
			}
			plain, err := plainRate(ctx, bin, filepath.Join(dir, "correct"), test, budget)
			if err != nil {
				return err
			}
			ir := res.Stats.PerSecond
			slow := "-"
			if ir > 0 {
				slow = fmt.Sprintf("%.1fx", plain/ir)
			}
			fmt.Printf("%-22s %6v %14.0f %14.0f %9s\n", test, race, ir, plain, slow)
		}
	}
	return nil
}

// leftover searches the janitor package's two tests for budget each, one
// worker: schedules/s with a goroutine left over by every schedule (a
// janitor on a ticker, never stopped) and without it.
func leftover(ctx context.Context, dir string, budget time.Duration) error {
	work, err := os.MkdirTemp("", "interleave-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	fmt.Printf("# leftovers: one worker, %v each (schedules/s; fresh = processes started for leftovers, kept = schedules run beside kept ones)\n", budget)
	fmt.Printf("%-20s %10s %12s %7s %7s\n", "test", "schedules", "schedules/s", "fresh", "kept")
	rates := map[string]float64{}
	for _, test := range []string{"TestWithJanitor", "TestWithoutJanitor"} {
		res, err := explore.Run(ctx, explore.Options{
			Dir: dir, Patterns: []string{"./janitor"},
			Tests:  []explore.TestRef{{Package: "realsuitedrv/janitor", Name: test}},
			Budget: budget, Seed: 1, Workers: 1,
			SchedulesDir: filepath.Join(work, "schedules"),
		})
		if err != nil {
			return err
		}
		for _, ts := range res.Stats.Tests {
			rates[ts.Test] = ts.PerSecond
			fmt.Printf("%-20s %10d %12.0f %7d %7d\n", ts.Test, ts.Schedules, ts.PerSecond, ts.Fresh, ts.Kept)
		}
	}
	if r := rates["TestWithJanitor"]; r > 0 {
		fmt.Printf("without / with the leftover: %.2fx\n", rates["TestWithoutJanitor"]/r)
	}
	return nil
}

func goTestC(ctx context.Context, dir, pkg, bin string, race bool) error {
	args := []string{"test", "-c", "-o", bin}
	if race {
		args = append(args, "-race")
	}
	cmd := exec.CommandContext(ctx, "go", append(args, pkg)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go test -c %s: %v\n%s", pkg, err, out)
	}
	return nil
}

// plainRate runs the uninstrumented test in a loop (-test.count) for about
// budget and returns runs per second.
func plainRate(ctx context.Context, bin, dir, test string, budget time.Duration) (float64, error) {
	n := 100
	for {
		start := time.Now()
		cmd := exec.CommandContext(ctx, bin, "-test.run=^"+test+"$", fmt.Sprintf("-test.count=%d", n))
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return 0, fmt.Errorf("%s -count=%d: %v\n%s", test, n, err, out)
		}
		d := time.Since(start)
		if d >= budget/2 || n >= 1<<26 {
			return float64(n) / d.Seconds(), nil
		}
		n *= 4
	}
}

type bug struct {
	Package, Test, Kind, Class string
}

// kernelsByPackage reads dir/kernels.json: the bugs whose test name
// contains run, by package, and the packages in order.
func kernelsByPackage(dir, run string) (map[string][]bug, []string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "kernels.json"))
	if err != nil {
		return nil, nil, err
	}
	var m struct{ Bugs []bug }
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, nil, err
	}
	byPkg := map[string][]bug{}
	var pkgs []string
	for _, k := range m.Bugs {
		if run != "" && !strings.Contains(k.Test, run) {
			continue
		}
		if byPkg[k.Package] == nil {
			pkgs = append(pkgs, k.Package)
		}
		byPkg[k.Package] = append(byPkg[k.Package], k)
	}
	sort.Strings(pkgs)
	return byPkg, pkgs, nil
}

func toBug(ctx context.Context, dir string, budget time.Duration, run string) error {
	byPkg, pkgs, err := kernelsByPackage(dir, run)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "interleave-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	fmt.Printf("\n# schedules-to-bug: %v of wall time per kernel and tool, one process each, race detector on\n", budget)
	fmt.Printf("%-26s %-13s %-22s %-30s\n", "kernel", "kind", "interleave", "stress (go test -race -count=N)")
	var foundI, foundS, total int
	for _, pkg := range pkgs {
		bugs := byPkg[pkg]
		rel := "./" + strings.TrimPrefix(pkg, "kernels/")
		var refs []explore.TestRef
		for _, k := range bugs {
			refs = append(refs, explore.TestRef{Package: pkg, Name: k.Test})
		}
		res, err := explore.Run(ctx, explore.Options{
			Dir: dir, Patterns: []string{rel}, Tests: refs,
			Budget: time.Duration(len(bugs)) * budget, Race: true, Seed: 1, Workers: 1,
			SchedulesDir: filepath.Join(work, "schedules"),
		})
		if err != nil {
			return err
		}
		bin := filepath.Join(work, strings.TrimPrefix(pkg, "kernels/")+".race.test")
		if err := goTestC(ctx, dir, rel, bin, true); err != nil {
			return err
		}
		for _, k := range bugs {
			total++
			iv := "not found"
			for _, f := range res.Findings {
				if f.Test == k.Test && string(f.Kind) == k.Kind {
					n := 0
					for _, ts := range res.Stats.Tests {
						if ts.Test == k.Test {
							n = ts.ToFirstFailure
						}
					}
					iv = fmt.Sprintf("found, schedule %d", n)
					foundI++
					break
				}
			}
			sv, found := stress(ctx, bin, filepath.Join(dir, rel), k.Test, budget)
			if found {
				foundS++
			}
			fmt.Printf("%-26s %-13s %-22s %-30s\n", k.Test, k.Kind, iv, sv)
		}
	}
	fmt.Printf("\nfound: interleave %d/%d, stress %d/%d", foundI, total, foundS, total)
	if foundS > 0 {
		fmt.Printf(" (ratio %.2f)", float64(foundI)/float64(foundS))
	}
	fmt.Println()
	return nil
}

// hangAfter is how long one run of a kernel must last for stress testing
// to count it as stuck: the kernels finish in microseconds when they work.
const hangAfter = 500 * time.Millisecond

// stress runs the test over and over in one process for budget, the way a
// developer would hunt a flaky test, and says whether and when it failed. A
// run that is stuck when the time is up counts as found: go test's timeout
// reports it.
func stress(ctx context.Context, bin, dir, test string, budget time.Duration) (string, bool) {
	cctx, cancel := context.WithTimeout(ctx, budget+10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(cctx, bin, "-test.run=^"+test+"$", "-test.count=100000000", "-test.failfast",
		"-test.v", fmt.Sprintf("-test.timeout=%v", budget))
	cmd.Dir = dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "error: " + err.Error(), false
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return "error: " + err.Error(), false
	}
	runs, failed, timedOut, hung, race := 0, false, false, false, false
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "=== RUN"):
			runs++
		case strings.HasPrefix(l, "--- FAIL"):
			failed = true
		case strings.HasPrefix(l, "panic: test timed out"):
			timedOut = true
		case timedOut && strings.HasPrefix(strings.TrimSpace(l), test+" ("):
			// "running tests:\n\t\tTestX (1s)": the budget ran out in the
			// middle of a run. A run of these microsecond tests that has
			// lasted this long is stuck: a deadlock or a leak that blocks.
			d, err := time.ParseDuration(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(l), test+" ("), ")"))
			hung = err == nil && d >= hangAfter
		case strings.HasPrefix(l, "WARNING: DATA RACE"):
			race = true
		}
	}
	err = cmd.Wait()
	switch {
	case timedOut && hung:
		return fmt.Sprintf("hang at run %d (timeout)", runs), true
	case timedOut:
		return fmt.Sprintf("not found in %d runs", runs), false
	case race:
		return fmt.Sprintf("race, run %d", runs), true
	case failed || err != nil:
		return fmt.Sprintf("failed, run %d", runs), true
	}
	return fmt.Sprintf("not found in %d runs", runs), false
}
