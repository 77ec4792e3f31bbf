package gen

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestAsyncPool (puddle-stat's TryAcquire ∥ TryAcquire): Pool.Take makes
// its item in the background and says ErrNotReady meanwhile, so two
// concurrent Takes on a fresh pool both say so, while in a sequential
// order the background work may finish before the second Take. A result a
// call gave while work an earlier call started was still running is not
// compared (genSequential's pending positions): no finding on Pool. The
// oracle still finds Tickets' duplicate tickets (no background work), and
// that finding replays.
func TestAsyncPool(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with the race detector")
	}
	dir := t.TempDir()
	if err := copyTree("testdata/async", dir); err != nil {
		t.Fatal(err)
	}
	types := []string{"Pool", "Tickets"}
	// Bounded by a count; the budget only stops a machine that cannot do it.
	// Tickets' search ends at its first failure; Pool's runs every schedule
	// (without the pending positions each of its four tests fails within
	// its first 6 of 20).
	res, err := runCorpus(context.Background(), dir, types, 1, 4, 20, 10*time.Minute, untilFound("Tickets"))
	if err != nil {
		t.Fatal(err)
	}
	logStats(t, res, types)
	var c corpusFindings
	c.add(res)
	for _, f := range c.found["Pool"] {
		t.Errorf("Pool makes its items in the background by design, but gen reports %s at %v: %s", f.Kind, f.Pos, f.Message)
	}
	pairs := 0
	for _, ts := range res.Stats.Tests {
		if genType(ts.Test) == "Pool" {
			pairs++
		}
	}
	if pairs == 0 {
		t.Fatal("no generated test of Pool was searched")
	}
	found := c.found["Tickets"]
	if len(found) == 0 {
		t.Fatal("Tickets' duplicate tickets were not found")
	}
	if !strings.Contains(found[0].Message, "not linearizable") {
		t.Errorf("Tickets: %s, want the oracle's verdict", found[0].Message)
	}
	for b, err := range c.replay(context.Background(), dir, []string{"Tickets"}, nil) {
		if err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
}
