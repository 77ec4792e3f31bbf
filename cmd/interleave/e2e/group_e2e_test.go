package e2e

import (
	"strconv"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/report"
)

const rlockBase = `package cache

import "sync"

// Cache maps keys to values.
type Cache struct {
	mu sync.RWMutex
	m  map[string]int
}

// New returns a cache holding m.
func New(m map[string]int) *Cache { return &Cache{m: m} }

// Get returns the value of k.
func (c *Cache) Get(k string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[k]
}

// Reset empties the cache.
func (c *Cache) Reset() {
	c.mu.Lock()
	c.m = map[string]int{}
	c.mu.Unlock()
}
`

// rlockHead is the release that counts lookups in Get under the read lock:
// one cause, which races with itself and with every reader of the counts.
const rlockHead = `package cache

import "sync"

// Cache maps keys to values and counts lookups.
type Cache struct {
	mu     sync.RWMutex
	m      map[string]int
	hits   int
	misses int
	last   string
}

// New returns a cache holding m.
func New(m map[string]int) *Cache { return &Cache{m: m} }

// Get returns the value of k.
func (c *Cache) Get(k string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[k]
	if ok {
		c.hits++
	} else {
		c.misses++
	}
	c.last = k
	return v
}

// Stats returns the hits, the misses and the last key looked up.
func (c *Cache) Stats() (hits, misses int, last string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.hits, c.misses, c.last
}

// Reset empties the cache.
func (c *Cache) Reset() {
	c.mu.Lock()
	c.m = map[string]int{}
	c.mu.Unlock()
}
`

const rlockBaseTest = `package cache

import "testing"

func TestGet(t *testing.T) {
	if New(map[string]int{"a": 1}).Get("a") != 1 {
		t.Fatal("bad value")
	}
}
`

const rlockHeadTest = rlockBaseTest + `
func TestReaders(t *testing.T) {
	c := New(map[string]int{"a": 1})
	done := make(chan bool)
	go func() { c.Get("a"); c.Get("b"); done <- true }()
	go func() { c.Get("b"); c.Get("a"); done <- true }()
	c.Stats()
	<-done
	<-done
}
`

// TestPROneCommentPerCause runs interleave pr on a change that writes three
// fields of a cache under its read lock: the race detector reports several
// pairs of racing accesses, and the pull request gets one finding, listing
// them, whose schedule replays, and one review comment.
func TestPROneCommentPerCause(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds instrumented tests")
	}
	ch := newPullChange(t, map[string]string{
		"go.mod":              "module example.com/cache\n\ngo 1.22\n",
		"cache/cache.go":      rlockBase,
		"cache/cache_test.go": rlockBaseTest,
	}, map[string]string{"cache/cache.go": rlockHead, "cache/cache_test.go": rlockHeadTest})

	// Bounded by schedules, not time (the budget is a guard): should a
	// seed's schedules meet only one racing pair, it is searched again
	// with twice as many. Not about generated tests: -gen-budget 0.
	var rep *report.JSONReport
	var out string
	var races []report.JSONFinding
	for attempt, count := 0, 20; ; attempt, count = attempt+1, 2*count {
		rep, out, _ = ch.prFindings(t, "-budget", "3m", "-count", strconv.Itoa(count), "-gen-budget", "0", "-seed", strconv.Itoa(3+attempt), "-race")
		races = nil
		for _, f := range rep.Findings {
			t.Logf("finding %s %s %s:%d %s (%d more of its cause)", f.Rule, f.Evidence, f.Pos.File, f.Pos.Line, f.Message, len(f.SameCause))
			if f.Kind == checks.DataRace {
				races = append(races, f)
			}
		}
		if len(races) != 1 || len(races[0].SameCause) >= 2 || attempt == 3 {
			break
		}
	}
	if len(rep.Findings) != 1 || len(races) != 1 {
		t.Fatalf("got %d findings (%d data races), want one data race for the one cause", len(rep.Findings), len(races))
	}
	f := races[0]
	if len(f.SameCause) < 2 {
		t.Fatalf("the finding lists %d other failures of its cause, want at least 2 (three fields race)", len(f.SameCause))
	}
	ch.replays(t, &f)

	// Posted: one review comment, listing the other pairs.
	comments := ch.post(t, out, "cache/cache.go", 7).ReviewComments("octo", "demo", 7)
	for _, c := range comments {
		t.Logf("review comment %s:%d:\n%s", c.GetPath(), c.GetLine(), c.GetBody())
	}
	if len(comments) != 1 {
		t.Fatalf("%d review comments, want 1 for the one cause", len(comments))
	}
	if body := comments[0].GetBody(); !strings.Contains(body, "**Same cause**") || !strings.Contains(body, f.SameCause[0].Pos.File+":") {
		t.Errorf("the comment does not list the other failures of its cause:\n%s", body)
	}
}
