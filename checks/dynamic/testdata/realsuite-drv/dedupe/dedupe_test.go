// Package dedupe leaks its producer only when cancellation wins, and the
// producer is then stuck at one of two sends depending on how far it got:
// one failure, whatever the line it is stuck at.
package dedupe

import (
	"errors"
	"strings"
	"testing"
)

var errCanceled = errors.New("canceled")

// lookup sorts keys into found (1) and missing (0) until cancel is closed.
func lookup(keys []string, cancel <-chan struct{}) (map[string]int, error) {
	found := make(chan string)
	missing := make(chan string)
	go func() {
		for _, k := range keys {
			if strings.HasPrefix(k, "x") {
				missing <- k // the producer leaks here...
			} else {
				found <- k // ...or here when lookup gave up
			}
		}
		close(found)
	}()
	out := map[string]int{}
	for {
		select {
		case k, ok := <-found:
			if !ok {
				return out, nil
			}
			out[k] = 1
		case k := <-missing:
			out[k] = 0
		case <-cancel:
			return nil, errCanceled
		}
	}
}

func TestLookupCanceled(t *testing.T) {
	cancel := make(chan struct{})
	go func() { close(cancel) }()
	m, err := lookup([]string{"a", "xb", "c", "xd"}, cancel)
	if err == nil && len(m) != 4 {
		t.Errorf("got %v", m)
	}
}
