// Package errgroupnestedlimit: a crawler limits its errgroup to two tasks
// and each page task starts its link checks in the same group. When both
// slots are held by page tasks, each waits in g.Go for a slot the other
// holds: Wait never returns.
package errgroupnestedlimit

import (
	"sync/atomic"
	"testing"

	"golang.org/x/sync/errgroup"
)

func crawl(pages [][]string) int64 {
	var g errgroup.Group
	g.SetLimit(2)
	var checked atomic.Int64
	for _, links := range pages {
		g.Go(func() error {
			for range links {
				g.Go(func() error { // blocks while both slots are taken
					checked.Add(1)
					return nil
				})
			}
			return nil
		})
	}
	g.Wait()
	return checked.Load()
}

func TestCrawl(t *testing.T) {
	if n := crawl([][]string{{"a"}, {"b"}}); n != 2 {
		t.Fatalf("checked %d links, want 2", n)
	}
}
