// Command replayload replays one schedule many times, each in a fresh
// process of one build, and counts how often it reproduced: a replay must
// be deterministic whatever the machine's load (docs/recall.md).
//
// Usage: go run ./bench/replayload [-n 50] [-watchdog 5s] [-dir MODULEDIR] SCHEDULE.json
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

func main() {
	n := flag.Int("n", 50, "replays")
	dir := flag.String("dir", ".", "a directory inside the schedule's module")
	watchdog := flag.Duration("watchdog", explore.DefaultStepTimeout, "the replays' step timeout (interleave replay -watchdog)")
	flag.Parse()
	if flag.NArg() != 1 || *n < 1 {
		fmt.Fprintln(os.Stderr, "usage: replayload [-n 50] [-watchdog 5s] [-dir MODULEDIR] SCHEDULE.json")
		os.Exit(2)
	}
	ctx := context.Background()
	sched, err := explore.ReadSchedule(flag.Arg(0))
	if err != nil {
		fatal(err)
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		fatal(err)
	}
	b, err := explore.NewBuild(ctx, explore.BuildOptions{Dir: abs, Patterns: []string{"./" + sched.Dir}, Race: sched.Race, Tags: sched.Tags})
	if err != nil {
		fatal(err)
	}
	defer b.Close()
	seen := map[string]int{}
	reproduced := 0
	for i := 0; i < *n; i++ {
		res, err := explore.ReplaySchedule(ctx, sched, flag.Arg(0), explore.ReplayOptions{Dir: abs, Build: b, StepTimeout: *watchdog})
		if err != nil {
			fatal(err)
		}
		if res.Outcome == explore.Reproduced {
			reproduced++
			continue
		}
		what := string(res.Outcome)
		if res.Finding != nil {
			what += ": " + res.Finding.Message
		}
		if res.Diverged != "" {
			what += " (diverged " + res.Diverged + ")"
		}
		if res.Inconclusive != "" {
			what += " (inconclusive: " + res.Inconclusive + ")"
		}
		seen[what]++
		fmt.Fprintf(os.Stderr, "replayload: replay %d: %s\n", i+1, what)
	}
	fmt.Printf("replayload: %d of %d replays reproduced %s\n", reproduced, *n, sched.Failure.Kind)
	var other []string
	for w := range seen {
		other = append(other, w)
	}
	sort.Strings(other)
	for _, w := range other {
		fmt.Printf("  %d× %s\n", seen[w], w)
	}
	if reproduced != *n {
		os.Exit(1)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "replayload:", err)
	os.Exit(2)
}
