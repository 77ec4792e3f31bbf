package explore

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

const loopSrc = `package p

func (c *Cache) Start() {
	stop := func() {
		c.timer.Stop()
	}
	defer stop()
	for {
		select {
		case <-c.stop:
			return
		case <-c.tick:
			c.sweep()
		}
	}
}

func (c *Cache) sweep() {
	c.mu.Lock()
	c.mu.Unlock()
}
`

// TestSameLoop: ttlcache's Start, left running by a Stop that came first,
// was recorded in its stop closure (line 5) and its replay, which left
// the schedule at a map's order, stopped the loop at another line of
// Start: "different", so the leak was a note. A running leak in the same
// top-level function is the same failure; a blocked one, or one in
// another function, is not.
func TestSameLoop(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "cache.go"), []byte(loopSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &replayer{pkgDir: dir}
	running := func(line string) string {
		return rt.LeakRunning + "4000 decisions later: g3 running at select at cache.go:" + line
	}
	rec := &rt.Signature{Kind: "leak", Message: running("5"), Site: "cache.go:5"} // Timer.Stop in the closure
	for _, c := range []struct {
		f    failure
		want bool
	}{
		{failure{kind: checks.Leak, message: running("10"), site: filepath.Join(dir, "cache.go") + ":10"}, true},
		{failure{kind: checks.Leak, message: running("20"), site: filepath.Join(dir, "cache.go") + ":20"}, false},
		{failure{kind: checks.Leak, message: rt.LeakBlocked + "g3 blocked on chan receive at cache.go:9", site: filepath.Join(dir, "cache.go") + ":9"}, false},
		{failure{kind: checks.Deadlock, message: running("9"), site: filepath.Join(dir, "cache.go") + ":9"}, false},
	} {
		if got := r.sameLoop(&c.f, rec); got != c.want {
			t.Errorf("sameLoop(%s at %s) = %v, want %v", c.f.kind, c.f.site, got, c.want)
		}
	}
}
