package gen

import (
	"strings"
	"testing"
)

// TestStopsCloseStartedValue: a case whose value comes from a
// constructor that starts a goroutine (testdata/closer's NewFeed) closes
// it last, in every run; one whose constructor starts none (NewTally)
// does not. datadog-go's statsd.New starts a sender and two watchers:
// its generated tests left them running after every run, a leak of the
// test's making on every schedule, and every schedule after one started
// a fresh process (2 to 3 schedules a second).
func TestStopsCloseStartedValue(t *testing.T) {
	_, pkgs := loadKernel(t, "testdata/closer")
	g := NewGenerator(pkgs[0].PkgPath, pkgs[0].Name, 1)
	seen := map[string]int{}
	for _, tg := range Targets(pkgs) {
		for _, c := range g.Generate(tg, 8) {
			closes := false
			for _, s := range stops(c) {
				closes = closes || strings.Contains(s.Body, "v.Close()")
			}
			byCtor := strings.Contains(strings.Join(c.Build, "\n"), ".New")
			switch name := tg.Name.Name(); {
			case name == "Feed" && byCtor && !closes:
				t.Errorf("%s (%s): no Close last, want one: NewFeed starts a goroutine", c.Name, caseWhat(c))
			case name == "Tally" && closes:
				t.Errorf("%s (%s): Close last, want none: NewTally starts nothing", c.Name, caseWhat(c))
			}
			if byCtor {
				seen[tg.Name.Name()]++
			}
		}
	}
	if seen["Feed"] == 0 || seen["Tally"] == 0 {
		t.Fatalf("cases built by a constructor: %v, want some of Feed and Tally", seen)
	}
}
