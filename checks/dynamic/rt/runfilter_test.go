package rt

import (
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestSplitRunAsGoTest(t *testing.T) {
	for _, c := range []struct {
		pattern string
		want    [][]string
	}{
		{"TestA", [][]string{{"TestA"}}},
		{"TestA/b/c", [][]string{{"TestA", "b", "c"}}},
		{"TestA/b|TestC", [][]string{{"TestA", "b"}, {"TestC"}}},
		{"Test[/|]x/y", [][]string{{"Test[/|]x", "y"}}},
		{"Test(a/b|c)/d", [][]string{{"Test(a/b|c)", "d"}}},
		{`Test\/x/y`, [][]string{{`Test\/x`, "y"}}},
		{"TestA/", [][]string{{"TestA", ""}}},
	} {
		if got := splitRun(c.pattern); !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitRun(%q) = %q, want %q", c.pattern, got, c.want)
		}
	}
}

func TestParseRunNamesBadElement(t *testing.T) {
	_, err := ParseRun("TestA/ok/(x")
	if err == nil || !strings.Contains(err.Error(), `element 2 of "TestA/ok/(x" ("(x")`) {
		t.Fatalf("ParseRun: %v, want the error to name element 2", err)
	}
	f, err := ParseRun("TestA/b c|TestD")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name []string
		want bool
	}{
		{[]string{"TestA"}, true},
		{[]string{"TestA", "b_c"}, true}, // go test rewrites the pattern's spaces too
		{[]string{"TestA", "x"}, false},
		{[]string{"TestA", "b_c", "deeper"}, true},
		{[]string{"TestD", "any"}, true},
		{[]string{"TestE"}, false},
	} {
		if got := f.Matches(c.name...); got != c.want {
			t.Errorf("Matches(%q) = %v, want %v", c.name, got, c.want)
		}
	}
	if rest, all := f.Under("TestA"); all || !reflect.DeepEqual(rest, []string{"b_c"}) {
		t.Errorf("Under(TestA) = %q, %v; want [b_c], false", rest, all)
	}
	if rest, all := f.Under("TestD"); !all || rest != nil {
		t.Errorf("Under(TestD) = %q, %v; want all", rest, all)
	}
	if rest, all := f.Under("TestE"); all || rest != nil {
		t.Errorf("Under(TestE) = %q, %v; want nothing", rest, all)
	}
}

// nestedSubtests: top-level subtests a and b, each with x and y; every
// subtest it runs appends its name and starts two goroutines, so a
// schedule recorded with some subtests left out does not replay with them
// run.
func nestedSubtests(ran *[]string) func(t *testing.T) {
	return func(t *testing.T) {
		for _, top := range []string{"a", "b"} {
			Run(t, top, func(t *testing.T) {
				*ran = append(*ran, TestName(t))
				for _, sub := range []string{"x", "y"} {
					Run(t, sub, func(t *testing.T) {
						*ran = append(*ran, TestName(t))
						var mu sync.Mutex
						var wg sync.WaitGroup
						for range 2 {
							WaitGroupAdd(&wg, 1)
							Go(func() {
								defer WaitGroupDone(&wg)
								Lock(&mu)
								Unlock(&mu)
							})
						}
						WaitGroupWait(&wg)
					})
				}
			})
		}
	}
}

// TestRunSelectsSubtests: Config.Run selects subtests level by level as
// go test's -run does, and a schedule replays with the same Run, not
// without it.
func TestRunSelectsSubtests(t *testing.T) {
	var ran []string
	cfg := Config{Test: "TestNested", Schedules: 1, StepTimeout: 5 * time.Second, Run: "TestNested/b/y|TestNested/a/x"}
	mustPass(t, RunSchedules(t, cfg, nestedSubtests(&ran), nil))
	if want := []string{"TestNested/a", "TestNested/a/x", "TestNested/b", "TestNested/b/y"}; !reflect.DeepEqual(ran, want) {
		t.Fatalf("ran %q, want %q", ran, want)
	}

	cfg = Config{Test: "TestNested", Schedules: 1, Seed: 3, Strategy: "random", StepTimeout: 5 * time.Second, Run: "TestNested/b/y"}
	rs := RunSchedules(t, cfg, nestedSubtests(&ran), nil)
	mustPass(t, rs)
	sch := &Schedule{Version: ScheduleVersionRun, Test: "TestNested", Seed: rs[0].Seed, Decisions: rs[0].Decisions, Run: cfg.Run}
	ran = nil
	r := RunSchedule(t, Config{Test: "TestNested", StepTimeout: 5 * time.Second, Run: sch.Run}, 0, nil, sch, nestedSubtests(&ran))
	if r.Diverged != "" || len(r.Decisions) != len(rs[0].Decisions) {
		t.Errorf("replay with Run: diverged %q, %d decisions; want the %d recorded", r.Diverged, len(r.Decisions), len(rs[0].Decisions))
	}
	if want := []string{"TestNested/b", "TestNested/b/y"}; !reflect.DeepEqual(ran, want) {
		t.Errorf("replay ran %q, want %q", ran, want)
	}
	r = RunSchedule(t, Config{Test: "TestNested", StepTimeout: 5 * time.Second}, 0, nil, sch, nestedSubtests(&ran))
	if r.Diverged == "" {
		t.Errorf("replay without Run followed the schedule; the test does not show that Run matters")
	}
}

// TestSkipsAsGoTest: Skips reads -skip as go test does: a test is left out
// when the first alternative matching its name's elements has no more
// elements than the name (a partial match skips nothing yet).
func TestSkipsAsGoTest(t *testing.T) {
	for _, c := range []struct {
		pattern string
		name    string
		want    bool
	}{
		{"TestA", "TestA", true},
		{"TestA", "TestB", false},
		{"TestA/x", "TestA", false},
		{"TestA/x", "TestA/x", true},
		{"TestA/x", "TestA/x/deeper", true},
		{"TestA/x", "TestA/y", false},
		{"TestA/x|TestB", "TestB", true},
		// The first matching alternative decides: TestA matches the first
		// partly, so TestA runs and its subtests other than x are skipped
		// by the second.
		{"TestA/x|TestA", "TestA", false},
		{"TestA/x|TestA", "TestA/y", true},
		{"TestA/b c", "TestA/b_c", true},
	} {
		f, err := ParseRun(c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Skips(strings.Split(c.name, "/")...); got != c.want {
			t.Errorf("-skip %q: Skips(%s) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}

// TestSkipLeavesOutSubtests: Config.Skip leaves out the subtests it skips
// as go test's -skip does, and a schedule replays with the same Skip, not
// without it.
func TestSkipLeavesOutSubtests(t *testing.T) {
	var ran []string
	cfg := Config{Test: "TestNested", Schedules: 1, StepTimeout: 5 * time.Second, Skip: "TestNested/a/x|TestNested/b"}
	mustPass(t, RunSchedules(t, cfg, nestedSubtests(&ran), nil))
	if want := []string{"TestNested/a", "TestNested/a/y"}; !reflect.DeepEqual(ran, want) {
		t.Fatalf("ran %q, want %q", ran, want)
	}

	cfg = Config{Test: "TestNested", Schedules: 1, Seed: 3, Strategy: "random", StepTimeout: 5 * time.Second, Skip: "TestNested/a"}
	rs := RunSchedules(t, cfg, nestedSubtests(&ran), nil)
	mustPass(t, rs)
	sch := &Schedule{Version: ScheduleVersionSkip, Test: "TestNested", Seed: rs[0].Seed, Decisions: rs[0].Decisions, Skip: cfg.Skip}
	ran = nil
	r := RunSchedule(t, Config{Test: "TestNested", StepTimeout: 5 * time.Second, Skip: sch.Skip}, 0, nil, sch, nestedSubtests(&ran))
	if r.Diverged != "" || len(r.Decisions) != len(rs[0].Decisions) {
		t.Errorf("replay with Skip: diverged %q, %d decisions; want the %d recorded", r.Diverged, len(r.Decisions), len(rs[0].Decisions))
	}
	if want := []string{"TestNested/b", "TestNested/b/x", "TestNested/b/y"}; !reflect.DeepEqual(ran, want) {
		t.Errorf("replay ran %q, want %q", ran, want)
	}
	r = RunSchedule(t, Config{Test: "TestNested", StepTimeout: 5 * time.Second}, 0, nil, sch, nestedSubtests(&ran))
	if r.Diverged == "" {
		t.Errorf("replay without Skip followed the schedule; the test does not show that Skip matters")
	}
}
