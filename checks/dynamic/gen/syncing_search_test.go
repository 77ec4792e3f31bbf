package gen

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
)

// TestSyncingSearch: testdata/syncing searched as a pull request that
// changed Host.SetRemote and Meter.Reset searches it. Meter's Reset
// racing with Add is found and replays; Host's SetRemote racing with
// itself or with Remote (no method of it uses Host's atomic) is no
// finding, at most a note.
func TestSyncingSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with the race detector")
	}
	dir := t.TempDir()
	if err := copyTree("testdata/syncing", dir); err != nil {
		t.Fatal(err)
	}
	types := []string{"Host", "Meter", "Sampler"}
	focus := func(o *Options) {
		o.Guarded = true
		o.Focus = func(t *Target, m string) bool { return m == "SetRemote" || m == "Reset" || m == "Count" }
	}
	// Bounded by the count; the budget only stops a machine that cannot.
	res, err := runCorpus(context.Background(), dir, types, 1, 4, 20, 10*time.Minute, focus)
	if err != nil {
		t.Fatal(err)
	}
	logStats(t, res, types)
	var c corpusFindings
	c.add(res)
	for _, f := range c.found["Host"] {
		t.Errorf("Host: reported %s %s", f.Kind, f.Message)
	}
	meter := c.found["Meter"]
	if len(meter) == 0 || meter[0].Kind != checks.DataRace {
		t.Fatalf("Meter: %v, want Reset's race with Add", meter)
	}
	if !strings.Contains(meter[0].Message, "syncing.go") {
		t.Errorf("Meter: %s, want a race in syncing.go", meter[0].Message)
	}
	// Sampler's Count races with itself on the random source: Count
	// counts through an atomic.AddUint64 (a syncing method), and New
	// takes an address (New("a") fails, so no case would run).
	sampler := c.found["Sampler"]
	if len(sampler) == 0 || sampler[0].Kind != checks.DataRace || !strings.Contains(sampler[0].Message, "Count") {
		t.Fatalf("Sampler: %v, want Count's race with Count", sampler)
	}
	for b, err := range c.replay(context.Background(), dir, []string{"Meter", "Sampler"}, nil) {
		if err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
	for _, n := range res.Notes {
		t.Log("note:", n)
	}
}
