package gen

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGuardedWrapper (logrus-relock's Logger, whose lock is the package's
// MutexWrap): a type whose only lock is a field of the package's own
// wrapper type holds a mutex (claim.Guard looks into the package's
// types), so in a pull request gen tests it; the kernel's Journal numbers
// two concurrent Appends alike, through the changed Append only. Found,
// and the finding replays. Fails without the wrapper look-up: Journal is
// no guarded target.
func TestGuardedWrapper(t *testing.T) {
	abs, err := filepath.Abs("testdata/wrapped")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, _, err := load(context.Background(), abs, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	var journal *Target
	for _, tg := range GuardedTargets(pkgs) {
		if tg.Name.Name() == "Journal" {
			journal = tg
		}
	}
	if journal == nil {
		t.Fatal("Journal (its lock a lockWrap) is no guarded target")
	}
	if want := "mu lockWrap (mu sync.Mutex)"; journal.Guard != want {
		t.Errorf("Journal's guard = %q, want %q", journal.Guard, want)
	}
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
