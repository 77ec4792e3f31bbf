// One top-level subtest searched alone ("TestX/Sub" as Config.Test), and what each top-level subtest of a schedule started.

package rt

import (
	"strings"
	"testing"
)

// SubtestRun is one top-level subtest of a schedule: its name as go test
// prints it, and how many goroutines it and the goroutines it started
// started (its nested subtests' included).
type SubtestRun struct {
	Name       string `json:"name"`
	Goroutines int    `json:"goroutines,omitempty"`
}

// splitTest splits Config.Test into the test function's name and the
// top-level subtest to run alone ("" for all of them).
func splitTest(name string) (test, sub string) {
	test, sub, _ = strings.Cut(name, "/")
	return test, sub
}

// testFunc is the function of test name ("TestX" or "TestX/Sub").
func testFunc(tests map[string]func(*testing.T), name string) func(*testing.T) {
	test, _ := splitTest(name)
	return tests[test]
}

// subOf is the top-level subtest of Config.Test to run alone ("": all).
func subOf(name string) string {
	_, sub := splitTest(name)
	return subtestName(sub)
}

// subtestName is name as go test names the subtest (spaces become
// underscores; go test also escapes unprintable runes and numbers
// duplicates, which this does not).
func subtestName(name string) string {
	return strings.ReplaceAll(name, " ", "_")
}

// subtestRun is a top-level subtest's entry while the schedule runs.
type subtestRun struct {
	name       string
	goroutines int
	failed     bool // its t (or a nested subtest's) failed
	group      bool // a part of Group, not the test's own subtest
}

// subName is the name of g's top-level subtest, or "".
func subName(g *gstate) string {
	if g == nil || g.sub == nil || g.sub.group {
		return ""
	}
	return g.sub.name
}

// commonSub is the top-level subtest every goroutine of gs but the
// test's own (g0) runs in, or "" when one runs in none or they differ.
//
//go:norace
func (s *sched) commonSub(gs []GoroutineState) string {
	name := ""
	for _, st := range gs {
		if st.ID <= 0 || st.ID >= len(s.gs) {
			continue
		}
		n := subName(s.gs[st.ID])
		if n == "" || name != "" && n != name {
			return ""
		}
		name = n
	}
	return name
}

// failedSub is the first top-level subtest that failed, or "".
func (s *sched) failedSub() string {
	for _, r := range s.subs {
		if r.failed && !r.group {
			return r.name
		}
	}
	return ""
}

// startRun decides t.Run of g: a top-level subtest other than
// Config.Test's is skipped (false, and rep says go test's t.Run returns
// true for a subtest -run does not select); else it returns the subtest
// the new goroutine belongs to: the one it starts, or g's. On S.
//
//go:norace
func (s *sched) startRun(g *gstate, name string, rep *reply) (*subtestRun, bool) {
	if g.id != 0 {
		return g.sub, true
	}
	name = subtestName(name)
	if s.subOnly != "" && name != s.subOnly {
		rep.mode, rep.ok = mSkip, true
		return nil, false
	}
	r := &subtestRun{name: name, group: s.groupSite != ""}
	s.subs = append(s.subs, r)
	return r, true
}

// startGo counts the goroutine c that g starts in g's subtest and marks
// it a daemon as its parent is one or runs a package-level Once.
//
//go:norace
func startGo(g, c *gstate) {
	c.sub = g.sub
	c.daemon = g.daemon || g.inDaemonOnce > 0
	c.bubble = g.bubble
	if g.sub != nil {
		g.sub.goroutines++
	}
}

// subtestRuns is the schedule's top-level subtests, for its Result.
//
//go:norace
func (s *sched) subtestRuns() []SubtestRun {
	var out []SubtestRun
	for _, r := range s.subs {
		out = append(out, SubtestRun{Name: r.name, Goroutines: r.goroutines})
	}
	return out
}
