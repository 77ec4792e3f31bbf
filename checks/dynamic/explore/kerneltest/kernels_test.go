// Package kerneltest searches the bug kernels of checks/dynamic/testdata
// through the explore package's API and replays every finding. It is a
// package of its own so that its race-instrumented builds have their own
// test binary and timeout, apart from explore's unit tests.
package kerneltest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// kernelsDir is the nested module of bug kernels.
const kernelsDir = "../../testdata/kernels"

// Bounds of the kernel test. A buggy test's search ends once its kernel
// is found (Options.TestUntil) or after bugSchedules schedules per worker,
// the same seeds on any machine; bugBudget only bounds the time of that,
// ample on a loaded machine. A correct test runs as many schedules as a
// buggy one may (bugSchedules per worker), or fewer when correctBudget
// runs out first on a loaded machine.
const (
	bugSchedules  = 100
	bugBudget     = 20 * time.Second // per buggy test
	correctBudget = 1 * time.Second  // per correct test
)

type manifest struct {
	Bugs []struct {
		Package string `json:"package"`
		Test    string `json:"test"`
		Kind    string `json:"kind"`
		Class   string `json:"class"`
		// Miss, when set, says why the search cannot find this kernel
		// yet; the test then logs a miss instead of failing.
		Miss string `json:"miss"`
		// PlainGoTest, when set, is what plain go test does with the
		// test, as the finding's label must say: "fails" or "passes";
		// "mostly passes": passes, or fails by the kernel's own hang (a
		// race plain go test loses now and then, more often at load).
		PlainGoTest string `json:"plainGoTest"`
		// Budget, when set, is the least search budget that can find it
		// (a failing schedule the watchdog ends takes its 5 s): its
		// package's first search gets at least that, not only to find it
		// in a round searched again.
		Budget string `json:"budget"`
	} `json:"bugs"`
	Correct struct {
		Package string `json:"package"`
	} `json:"correct"`
}

func readManifest(t *testing.T) *manifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(kernelsDir, "kernels.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("kernels.json: %v", err)
	}
	return &m
}

// TestKernelManifest checks that every test named in kernels.json exists,
// and that every kernel test is named there, so that the list cannot rot.
func TestKernelManifest(t *testing.T) {
	m := readManifest(t)
	named := map[string]bool{}
	for _, b := range m.Bugs {
		named[b.Package+"."+b.Test] = true
		ok := false
		for _, k := range checks.FailureKinds {
			ok = ok || string(k) == b.Kind
		}
		if !ok {
			t.Errorf("%s: unknown kind %q", b.Test, b.Kind)
		}
	}
	if len(m.Bugs) < 20 {
		t.Errorf("kernels.json lists %d bugs, want at least 20", len(m.Bugs))
	}
	files, _ := filepath.Glob(filepath.Join(kernelsDir, "*", "*_test.go"))
	for _, f := range files {
		pkg := "kernels/" + filepath.Base(filepath.Dir(f))
		if pkg == m.Correct.Package {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if name, ok := strings.CutPrefix(line, "func Test"); ok {
				name = "Test" + name[:strings.Index(name, "(")]
				if !named[pkg+"."+name] {
					t.Errorf("%s.%s is not in kernels.json", pkg, name)
				}
				delete(named, pkg+"."+name)
			}
		}
	}
	for n := range named {
		t.Errorf("kernels.json names %s, which does not exist", n)
	}
}

// TestKernels searches every bug kernel, checks that the expected failure
// is found and that its schedule replays in a fresh process, and checks that
// the correct programs produce nothing.
func TestKernels(t *testing.T) {
	if testing.Short() {
		t.Skip("the kernel search builds four race-instrumented packages and takes about three minutes; skipped with -short")
	}
	dir, err := filepath.Abs(kernelsDir)
	if err != nil {
		t.Fatal(err)
	}
	m := readManifest(t)
	byPkg := map[string]map[string]string{}
	miss := map[string]string{}
	plainGo := map[string]string{}
	least := map[string]time.Duration{} // by test, then by package
	var pkgs []string
	for _, b := range m.Bugs {
		if b.Budget != "" {
			d, err := time.ParseDuration(b.Budget)
			if err != nil {
				t.Fatalf("%s: budget: %v", b.Test, err)
			}
			least[b.Test] = d
			least[b.Package] = max(least[b.Package], d)
		}
		if b.Miss != "" {
			miss[b.Test] = b.Miss
		}
		plainGo[b.Test] = b.PlainGoTest
		if byPkg[b.Package] == nil {
			byPkg[b.Package] = map[string]string{}
			pkgs = append(pkgs, b.Package)
		}
		byPkg[b.Package][b.Test] = b.Kind
	}
	sort.Strings(pkgs)
	// Each test's search ends at the first failure of its kind.
	kindOf := map[string]string{}
	for _, b := range m.Bugs {
		kindOf[b.Package+"."+b.Test] = b.Kind
	}
	wanted := func(f checks.Finding) bool { return string(f.Kind) == kindOf[f.Package+"."+f.Test] }
	ctx := context.Background()
	schedules := t.TempDir()
	// One instrumentation of every package; each package's binaries are
	// built once, for its searches and its replays.
	patterns := []string{"./" + strings.TrimPrefix(m.Correct.Package, "kernels/")}
	for _, pkg := range pkgs {
		patterns = append(patterns, "./"+strings.TrimPrefix(pkg, "kernels/"))
	}
	build, err := explore.NewBuild(ctx, explore.BuildOptions{Dir: dir, Patterns: patterns, Race: true, Stage: func(e explore.StageEvent) {
		if e.Done {
			t.Logf("stage %s: %v %s", e.Name, e.Took, e.Detail)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	// Closed when every subtest is done, the parallel ones included.
	t.Cleanup(func() { build.Close() })

	t.Run("correct", func(t *testing.T) {
		res, err := explore.Run(ctx, explore.Options{
			Dir: dir, Patterns: []string{"./" + strings.TrimPrefix(m.Correct.Package, "kernels/")},
			Budget: 15 * correctBudget, Race: true, Seed: 1, SchedulesDir: schedules, Build: build,
			Schedules: bugSchedules,
		})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.Schedules == 0 {
			t.Fatal("no schedule ran")
		}
		for _, ts := range res.Stats.Tests {
			t.Logf("%s: %d schedules", ts.Test, ts.Schedules)
		}
		for _, f := range res.Findings {
			t.Errorf("false positive: %s %s: %s at %v", f.Test, f.Kind, f.Message, f.Pos)
		}
	})
	for _, pkg := range pkgs {
		want := byPkg[pkg]
		t.Run(strings.TrimPrefix(pkg, "kernels/"), func(t *testing.T) {
			// The bug packages' searches run side by side (go test's
			// -parallel), after the correct programs' search ran alone:
			// much of each is waiting (plain go test's runs of a hanging
			// kernel until their timeout, processes starting), and they
			// share only the build (safe for concurrent searches), the
			// manifest (read) and the schedules' directory (each test's
			// files named by the test). Every search is bounded by a
			// count; a kernel missed for want of time is searched again.
			t.Parallel()
			res, err := explore.Run(ctx, explore.Options{
				Dir: dir, Patterns: []string{"./" + strings.TrimPrefix(pkg, "kernels/")},
				Budget: max(time.Duration(len(want))*bugBudget, least[pkg]), Race: true, Seed: 1, SchedulesDir: schedules,
				TestUntil: wanted, Schedules: bugSchedules, Build: build,
				Stage: func(e explore.StageEvent) {
					if e.Done {
						t.Logf("stage %s: %v %s", e.Name, e.Took, e.Detail)
					}
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range res.Notes {
				t.Log("note:", n)
			}
			for _, ts := range res.Stats.Tests {
				t.Logf("%s: %d schedules (first failing: %d), found: %v", ts.Test, ts.Schedules, ts.ToFirstFailure, ts.Met)
			}
			// A kernel not found (a loaded machine may run fewer
			// schedules than the count in the budget) is searched again
			// alone, with other seeds and twice the budget each time:
			// slowness costs time, not a failure.
			found := func(test, kind string) bool {
				for _, f := range res.Findings {
					if f.Test == test && string(f.Kind) == kind {
						return true
					}
				}
				return false
			}
			for round, budget := 0, 2*bugBudget; round < 3; round, budget = round+1, 2*budget {
				var again []explore.TestRef
				var total time.Duration
				for test, kind := range want {
					if miss[test] == "" && !found(test, kind) {
						again = append(again, explore.TestRef{Package: pkg, Name: test})
						total += max(budget, least[test]*time.Duration(2<<round))
					}
				}
				if len(again) == 0 {
					break
				}
				t.Logf("searching %d kernel(s) again for %v", len(again), total)
				more, err := explore.Run(ctx, explore.Options{
					Dir: dir, Patterns: []string{"./" + strings.TrimPrefix(pkg, "kernels/")}, Tests: again,
					Budget: total, Race: true, Seed: int64(2 + round), SchedulesDir: schedules,
					TestUntil: wanted, Schedules: bugSchedules, Build: build,
				})
				if err != nil {
					t.Fatal(err)
				}
				res.Findings = append(res.Findings, more.Findings...)
			}
			var hits []*checks.Finding
			for test, kind := range want {
				var hit *checks.Finding
				var seen []string
				// A failure plain go test has too is a finding as well,
				// labelled so.
				for i := range res.Findings {
					f := &res.Findings[i]
					if f.Test != test {
						continue
					}
					seen = append(seen, string(f.Kind))
					if string(f.Kind) == kind && hit == nil {
						hit = f
					}
				}
				if hit == nil {
					if why := miss[test]; why != "" {
						t.Logf("%s: %s not found, a known miss: %s", test, kind, why)
						continue
					}
					t.Errorf("%s: %s not found (found %q)", test, kind, seen)
					continue
				}
				if why := miss[test]; why != "" {
					t.Logf("%s: found although kernels.json lists it as a miss (%s): remove the miss", test, why)
				}
				if hit.Evidence != checks.Dynamic || hit.Rule != checks.DynamicRuleID(hit.Kind) || !hit.Pos.IsValid() || hit.Replay == "" ||
					hit.Frequency == nil || hit.Frequency.Failing < 1 || hit.PlainGo == nil {
					t.Errorf("%s: incomplete finding %+v", test, hit)
				}
				switch want := plainGo[test]; {
				case want == "fails" && !hit.PlainGo.Fails(),
					want == "passes" && (hit.PlainGo.Runs == 0 || hit.PlainGo.Fails() || hit.PlainGo.ExitCode != 0),
					want == "mostly passes" && (hit.PlainGo.Runs == 0 || hit.PlainGo.ExitCode != 0 && !strings.Contains(hit.PlainGo.Failure, "test timed out")):
					t.Errorf("%s: labels %q, want plain go test %s", test, hit.Labels(), want)
				}
				t.Logf("%s: %s", test, hit.Labels())
				hits = append(hits, hit)
			}
			// Every schedule replays in a fresh process, on the binary the
			// search ran (explore's tests replay on fresh builds).
			var scheds []*rt.Schedule
			var replayed []*checks.Finding
			for _, hit := range hits {
				path := hit.Schedule
				if !filepath.IsAbs(path) {
					path = filepath.Join(dir, path)
				}
				sched, err := explore.ReadSchedule(path)
				if err != nil {
					t.Errorf("%s: %v", hit.Test, err)
					continue
				}
				scheds = append(scheds, sched)
				replayed = append(replayed, hit)
			}
			began := time.Now()
			results, errs := explore.ReplayMany(ctx, scheds, explore.ReplayOptions{Dir: dir, Build: build})
			t.Logf("replays: %v", time.Since(began))
			for i, hit := range replayed {
				if errs[i] != nil {
					t.Errorf("%s: replay: %v", hit.Test, errs[i])
					continue
				}
				// As recorded: a run that left the schedule and failed the
				// same way does not make the printed line replay.
				if rr := results[i]; rr.Outcome != explore.Reproduced || rr.Diverged != "" {
					got := "nothing"
					if rr.Finding != nil {
						got = string(rr.Finding.Kind) + " at " + rr.Finding.Pos.String()
					}
					t.Errorf("%s: replay %s: got %s, want %s at %s (diverged: %q)", hit.Test, rr.Outcome, got, hit.Kind, hit.Pos, rr.Diverged)
					continue
				}
				t.Logf("%s: %s at %s found and replayed", hit.Test, hit.Kind, hit.Pos)
			}
		})
	}
}
