package explore

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestFailsAlike: a test whose every schedule failed with one cause, for
// alikeSchedules schedules, starts no further process in the hour its
// share would give it (logrus-relock's TestEntryWriter: every schedule
// leaks); one with a passing schedule, two causes, or fewer schedules
// is searched on. Counted schedules, a binary that does not exist (a
// process tried is a note): no time passes that matters. Fails without
// the worker's failsAlike check.
func TestFailsAlike(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		failing, passing     int
		causes               int
		searched, failsAlike bool
	}{
		{"every schedule leaks", alikeSchedules, 0, 1, false, true},
		{"one schedule passed", alikeSchedules, 1, 1, true, false},
		{"two causes", alikeSchedules, 0, 2, true, false},
		{"too few schedules", alikeSchedules - 1, 0, 1, true, false},
	} {
		s := &search{opts: Options{Budget: time.Hour, Workers: 1},
			failures: map[string]*failure{}, owners: map[string]*target{}, workDir: t.TempDir()}
		s.deadline, s.hardStop = budgetEnds(time.Now(), time.Hour)
		tg := &target{pkg: rewrite.Package{ImportPath: "example.com/p", Dir: t.TempDir()}, name: "TestLeaky", weight: 1,
			bin: "/nonexistent/p.test", cost: time.Second, stats: &TestStats{Test: "TestLeaky"}}
		for i := 0; i < tc.failing; i++ {
			s.counted(tg, rt.Result{Outcome: "leak"})
		}
		for i := 0; i < tc.passing; i++ {
			s.counted(tg, rt.Result{Outcome: "pass"})
		}
		for c := 0; c < tc.causes; c++ {
			k := tg.name + "|" + string(rune('a'+c))
			s.order = append(s.order, k)
			s.owners[k] = tg
			s.failures[k] = &failure{kind: checks.Leak, message: "leaked", site: "x.go:" + string(rune('1'+c))}
		}
		s.searchTests(context.Background(), []*target{tg})
		tried := false
		for _, n := range s.notes {
			tried = tried || strings.Contains(n, "TestLeaky")
		}
		if tried != tc.searched || tg.stats.FailsAlike != tc.failsAlike {
			t.Errorf("%s: a process tried %v, FailsAlike %v; want %v, %v (notes %q)", tc.name, tried, tg.stats.FailsAlike, tc.searched, tc.failsAlike, s.notes)
		}
	}
}
