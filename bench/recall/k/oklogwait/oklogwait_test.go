// Package oklogwait: logafterreturn's worker logs before it hands over
// its result.
package oklogwait

import "testing"

func fetch(t *testing.T, key string) <-chan string {
	out := make(chan string)
	go func() {
		t.Logf("fetched %s", key)
		out <- "value of " + key
	}()
	return out
}

func TestFetch(t *testing.T) {
	if got := <-fetch(t, "k"); got != "value of k" {
		t.Fatalf("got %q", got)
	}
}
