package explore

import (
	"context"
	"testing"
	"time"
)

// TestSkipTest: a test SkipTest turns down keeps its unperturbed schedule
// and runs no other; the others are searched to their count. Fails without
// Options.SkipTest: TestRandomFanOutV2 runs its ten schedules too.
func TestSkipTest(t *testing.T) {
	c := countedBuild(t, "../testdata/draws", []string{"."})
	var asked []string
	res, err := Run(context.Background(), Options{
		Dir: c.dir, Patterns: []string{"."}, Budget: 5 * time.Minute, Build: c.build,
		Seed: 1, Workers: 1, Schedules: 10, SchedulesDir: t.TempDir(),
		SkipTest: func(r TestRef) bool {
			asked = append(asked, r.Name)
			return r.Name == "TestRandomFanOutV2"
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 2 {
		t.Errorf("SkipTest asked about %q, want both tests", asked)
	}
	for _, ts := range res.Stats.Tests {
		t.Logf("%s: %d schedules", ts.Test, ts.Schedules)
		switch {
		case ts.Test == "TestRandomFanOutV2" && ts.Schedules > 1:
			t.Errorf("%s: %d schedules, want its unperturbed one alone", ts.Test, ts.Schedules)
		case ts.Test == "TestRandomFanOut" && ts.Schedules < 2:
			t.Errorf("%s: %d schedules, want it searched", ts.Test, ts.Schedules)
		}
	}
}
