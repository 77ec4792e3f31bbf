// Package okerrgroupsubgroup: each page task checks its links in a group
// of its own, so page tasks never wait for their own slots. Must not be
// reported.
package okerrgroupsubgroup

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
			var sub errgroup.Group
			sub.SetLimit(2)
			for range links {
				sub.Go(func() error {
					checked.Add(1)
					return nil
				})
			}
			return sub.Wait()
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
