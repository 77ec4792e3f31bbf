package gen

import (
	"context"
	"path/filepath"
	"testing"
)

// TestGuardedWrapper (logrus-relock's Logger, whose lock is the package's
// MutexWrap): a type whose only lock is a field of the package's own
// wrapper type holds a mutex (claim.Guard looks into the package's
// types), so in a pull request gen tests it. Fails without the wrapper
// look-up: Journal is no guarded target. That a guarded type's search with
// a focus finds its race and the finding replays is TestCorpusGuarded's
// check (the shared corpus run); the search of this kernel is
// TestGuardedWrapperSearch, behind -tags heavy.
func TestGuardedWrapper(t *testing.T) {
	journal := guardedJournal(t)
	if want := "mu lockWrap (mu sync.Mutex)"; journal.Guard != want {
		t.Errorf("Journal's guard = %q, want %q", journal.Guard, want)
	}
}

// guardedJournal returns testdata/wrapped's Journal as a guarded target.
func guardedJournal(t *testing.T) *Target {
	t.Helper()
	abs, err := filepath.Abs("testdata/wrapped")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, _, err := load(context.Background(), abs, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range GuardedTargets(pkgs) {
		if tg.Name.Name() == "Journal" {
			return tg
		}
	}
	t.Fatal("Journal (its lock a lockWrap) is no guarded target")
	return nil
}
