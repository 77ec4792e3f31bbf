// Package logafterreturn: a worker logs through the test's t after handing
// over its result; when the test has returned by then, testing panics
// ("Log in goroutine after TestFetch has completed").
package logafterreturn

import "testing"

func fetch(t *testing.T, key string) <-chan string {
	out := make(chan string)
	go func() {
		out <- "value of " + key
		t.Logf("fetched %s", key) // may run after the test returned
	}()
	return out
}

func TestFetch(t *testing.T) {
	if got := <-fetch(t, "k"); got != "value of k" {
		t.Fatalf("got %q", got)
	}
}
