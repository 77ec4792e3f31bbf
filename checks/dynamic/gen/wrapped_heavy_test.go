//go:build heavy

package gen

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestGuardedWrapperSearch: the kernel's Journal (a guarded target through
// its lock wrapper, TestGuardedWrapper) numbers two concurrent Appends
// alike, through the changed Append only. Found, and the finding replays.
// By default TestGuardedWrapper checks the wrapper look-up and
// TestCorpusGuarded a guarded type's focused search and replay, so this one
// is behind -tags heavy.
func TestGuardedWrapperSearch(t *testing.T) {
	guardedJournal(t)
	if testing.Short() {
		t.Skip("builds with the race detector")
	}
	dir := t.TempDir()
	if err := copyTree("testdata/wrapped", dir); err != nil {
		t.Fatal(err)
	}
	types := []string{"Journal"}
	focus := func(o *Options) {
		o.Guarded = true
		o.Focus = func(t *Target, m string) bool { return m == "Append" }
	}
	// Bounded by a count; the budget only stops a machine that cannot do it.
	// Journal's search ends at its first failure.
	res, err := runCorpus(context.Background(), dir, types, 1, 2, 20, 10*time.Minute, focus, untilFound("Journal"))
	if err != nil {
		t.Fatal(err)
	}
	logStats(t, res, types)
	var c corpusFindings
	c.add(res)
	found := c.found["Journal"]
	if len(found) == 0 {
		t.Fatal("Journal's duplicate sequence numbers were not found")
	}
	if !strings.Contains(found[0].Message, "not linearizable") {
		t.Errorf("Journal: %s, want the oracle's verdict", found[0].Message)
	}
	for b, err := range c.replay(context.Background(), dir, types, nil) {
		if err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
}
