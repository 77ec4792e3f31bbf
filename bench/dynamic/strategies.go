package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// byStrategy prints, for every bug kernel, the median schedules-to-bug of
// each strategy next to stress testing (go test -race -count=N) given the
// same wall time.
//
// One search per kernel package and strategy, one worker, budget per
// kernel. Schedules are independent draws (schedule i runs seed Seed+i), so
// with p = failing schedules / schedules the number of schedules up to the
// first failure is geometric and its median is ⌈ln 2 / −ln(1−p)⌉; "first"
// is where this search actually failed first. Data races are the
// exception: the race detector reports a pair of racing accesses once per
// process, so later schedules cannot show the race again and the rate says
// nothing; for them the cell's figure is the first failing schedule
// (marked *).
func byStrategy(ctx context.Context, dir string, budget time.Duration, run string, strategies []string) error {
	byPkg, pkgs, err := kernelsByPackage(dir, run)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "interleave-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	type cell struct {
		median, first, schedules int
		found                    bool
	}
	results := map[string]map[string]cell{} // test -> strategy -> cell
	for _, pkg := range pkgs {
		bugs := byPkg[pkg]
		rel := "./" + strings.TrimPrefix(pkg, "kernels/")
		var refs []explore.TestRef
		for _, k := range bugs {
			refs = append(refs, explore.TestRef{Package: pkg, Name: k.Test})
			results[k.Test] = map[string]cell{}
		}
		for _, strat := range strategies {
			res, err := explore.Run(ctx, explore.Options{
				Dir: dir, Patterns: []string{rel}, Tests: refs, Strategy: strat,
				Budget: time.Duration(len(bugs)) * budget, Race: true, Seed: 1, Workers: 1,
				SchedulesDir: filepath.Join(work, "schedules"),
			})
			if err != nil {
				return fmt.Errorf("%s %s: %w", pkg, strat, err)
			}
			for _, k := range bugs {
				c := cell{}
				for _, f := range res.Findings {
					c.found = c.found || f.Test == k.Test && string(f.Kind) == k.Kind
				}
				for _, ts := range res.Stats.Tests {
					if ts.Test != k.Test {
						continue
					}
					c.first, c.schedules = ts.ToFirstFailure, ts.Schedules
					if c.found && k.Kind == "data-race" {
						c.median = ts.ToFirstFailure
					} else if c.found && ts.Schedules > 0 {
						c.median = geometricMedian(float64(min(ts.Failures, ts.Schedules)) / float64(ts.Schedules))
					}
				}
				results[k.Test][strat] = c
			}
		}
	}

	fmt.Printf("\n# schedules-to-bug by strategy: %v of wall time per kernel and tool, one worker, race detector on\n", budget)
	fmt.Printf("# cell: median schedules-to-bug (from the failure rate) / first failing schedule of this run; - = not found;\n")
	fmt.Printf("#   * data race: the race detector reports a racing pair once per process, so only the first failing schedule counts\n")
	fmt.Printf("%-26s %-13s", "kernel", "kind")
	for _, s := range strategies {
		fmt.Printf(" %-14s", s)
	}
	fmt.Printf(" %s\n", "stress (go test -race -count=N)")
	found := map[string]int{}
	var medians = map[string][]int{}
	total, foundS := 0, 0
	for _, pkg := range pkgs {
		rel := "./" + strings.TrimPrefix(pkg, "kernels/")
		bin := filepath.Join(work, strings.TrimPrefix(pkg, "kernels/")+".race.test")
		if err := goTestC(ctx, dir, rel, bin, true); err != nil {
			return err
		}
		for _, k := range byPkg[pkg] {
			total++
			fmt.Printf("%-26s %-13s", k.Test, k.Kind)
			for _, s := range strategies {
				c := results[k.Test][s]
				v := "-"
				if c.found {
					found[s]++
					if k.Kind != "data-race" {
						medians[s] = append(medians[s], c.median)
					}
					v = fmt.Sprintf("%d / %d", c.median, c.first)
					if k.Kind == "data-race" {
						v = fmt.Sprintf("%d*", c.first)
					}
				}
				fmt.Printf(" %-14s", v)
			}
			sv, ok := stress(ctx, bin, filepath.Join(dir, rel), k.Test, budget)
			if ok {
				foundS++
			}
			fmt.Printf(" %s\n", sv)
		}
	}
	fmt.Printf("\n%-40s", "found")
	for _, s := range strategies {
		fmt.Printf(" %-14s", fmt.Sprintf("%d/%d", found[s], total))
	}
	fmt.Printf(" %d/%d\n", foundS, total)
	fmt.Printf("%-40s", "median schedules-to-bug (no races)")
	for _, s := range strategies {
		fmt.Printf(" %-14s", medianString(medians[s]))
	}
	fmt.Println()
	fmt.Printf("%-40s", "mean schedules-to-bug (no races)")
	for _, s := range strategies {
		fmt.Printf(" %-14s", meanString(medians[s]))
	}
	fmt.Println()
	return nil
}

// geometricMedian is the median number of independent trials up to and
// including the first success, each succeeding with probability p.
func geometricMedian(p float64) int {
	if p >= 1 {
		return 1
	}
	if p <= 0 {
		return 0
	}
	return int(math.Ceil(math.Ln2 / -math.Log1p(-p)))
}

func meanString(xs []int) string {
	if len(xs) == 0 {
		return "-"
	}
	sum := 0
	for _, x := range xs {
		sum += x
	}
	return fmt.Sprintf("%.1f", float64(sum)/float64(len(xs)))
}

func medianString(xs []int) string {
	if len(xs) == 0 {
		return "-"
	}
	s := append([]int(nil), xs...)
	sort.Ints(s)
	if len(s)%2 == 1 {
		return fmt.Sprint(s[len(s)/2])
	}
	return fmt.Sprintf("%.1f", float64(s[len(s)/2-1]+s[len(s)/2])/2)
}
