package rt

import (
	"sync"
	"testing"
	"time"
)

// twoSubtests is a test with a sequential subtest and one that starts
// two goroutines (one of them a nested subtest); ran counts which
// subtests ran.
func twoSubtests(ran map[string]int) func(t *testing.T) {
	return func(t *testing.T) {
		Run(t, "fills first", func(t *testing.T) {
			ran["fills_first"]++
		})
		Run(t, "Concurrent", func(t *testing.T) {
			ran["Concurrent"]++
			var wg sync.WaitGroup
			WaitGroupAdd(&wg, 2)
			Go(func() {
				defer WaitGroupDone(&wg)
				Go(func() {})
			})
			Go(func() {
				defer WaitGroupDone(&wg)
				Run(t, "nested", func(t *testing.T) {})
			})
			WaitGroupWait(&wg)
		})
	}
}

// TestSubtestAlone: "TestX/Sub" runs only the top-level subtest Sub (go
// test's name: spaces become underscores), and each schedule's Result
// lists the top-level subtests that ran with the goroutines each started.
func TestSubtestAlone(t *testing.T) {
	ran := map[string]int{}
	cfg := Config{Test: "TestLazy", Schedules: 1, StepTimeout: 5 * time.Second, Targets: []string{"elsewhere.go:1"}}
	all := RunSchedules(t, cfg, twoSubtests(ran), nil)
	if len(all) != 1 || all[0].Outcome != "pass" {
		t.Fatalf("whole test: %+v", all)
	}
	want := []SubtestRun{{Name: "fills_first"}, {Name: "Concurrent", Goroutines: 3}}
	if got := all[0].Subtests; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("subtests of the whole test: %+v, want %+v", got, want)
	}
	if ran["fills_first"] != 1 || ran["Concurrent"] != 1 {
		t.Errorf("whole test ran %v", ran)
	}
	for _, sub := range []string{"Concurrent", "fills_first"} {
		ran = map[string]int{}
		cfg.Test = "TestLazy/" + sub
		all = RunSchedules(t, cfg, twoSubtests(ran), nil)
		if len(all) != 1 || all[0].Outcome != "pass" {
			t.Fatalf("%s: %+v", cfg.Test, all)
		}
		if len(ran) != 1 || ran[sub] != 1 {
			t.Errorf("%s ran %v, want only %s", cfg.Test, ran, sub)
		}
		if got := all[0].Subtests; len(got) != 1 || got[0].Name != sub {
			t.Errorf("%s: subtests %+v", cfg.Test, got)
		}
	}
}
