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
	// Tickets' search ends at its first failure; Pool's runs every schedule
	// (without the pending positions each of its four tests fails within
	// its first 6 of 20).
	silentAndFound(t, "testdata/async", "Pool", "makes its items in the background by design", "Tickets", 4, 20)
}

// silentAndFound searches the kernel at dir (a copy) for the generated
// tests of silent and broken, perTest tests each of schedules schedules
// at most: silent, a type whose answers are right by design, has no
// finding and was searched; broken's first finding is the oracle's
// verdict and replays. why says why silent's answers are right.
func silentAndFound(t *testing.T, kernel, silent, why, broken string, perType, schedules int) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds with the race detector")
	}
	dir := t.TempDir()
	if err := copyTree(kernel, dir); err != nil {
		t.Fatal(err)
	}
	types := []string{silent, broken}
	// Bounded by a count; the budget only stops a machine that cannot do it.
	res, err := runCorpus(context.Background(), dir, types, 1, perType, schedules, 10*time.Minute, untilFound(broken))
	if err != nil {
		t.Fatal(err)
	}
	logStats(t, res, types)
	var c corpusFindings
	c.add(res)
	for _, f := range c.found[silent] {
		t.Errorf("%s %s, but gen reports %s at %v: %s", silent, why, f.Kind, f.Pos, f.Message)
	}
	searched := 0
	for _, ts := range res.Stats.Tests {
		if genType(ts.Test) == silent {
			searched++
		}
	}
	if searched == 0 {
		t.Fatalf("no generated test of %s was searched", silent)
	}
	found := c.found[broken]
	if len(found) == 0 {
		t.Fatalf("%s's defect was not found", broken)
	}
	if !strings.Contains(found[0].Message, "not linearizable") {
		t.Errorf("%s: %s, want the oracle's verdict", broken, found[0].Message)
	}
	for b, err := range c.replay(context.Background(), dir, []string{broken}, nil) {
		if err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
}
