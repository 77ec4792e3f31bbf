// Package ownstack: tests that read their own goroutine's stack (a leak
// checker's own tests bound its size) see it as under go test: the test
// function, testing.tRunner and the "created by" line, with at most one
// frame of the driver's in between.
package ownstack

import (
	"runtime"
	"strings"
	"sync"
	"testing"
)

// framesBelow counts the frames between fn and testing.tRunner in the
// calling goroutine's stack.
func framesBelow(t *testing.T, fn string) int {
	buf := make([]byte, 1<<16)
	stack := string(buf[:runtime.Stack(buf, false)])
	n, seen := 0, false
	for _, line := range strings.Split(stack, "\n") {
		if line == "" || strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "goroutine ") {
			continue
		}
		switch {
		case strings.HasPrefix(line, fn+"("):
			seen = true
		case strings.HasPrefix(line, "testing.tRunner("):
			if !seen {
				t.Fatalf("%s not on the stack:\n%s", fn, stack)
			}
			return n
		case seen:
			n++
		}
	}
	t.Fatalf("testing.tRunner not on the stack:\n%s", stack)
	return 0
}

func TestStackUnderTRunner(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	mu.Unlock()
	if n := framesBelow(t, "realsuite/ownstack.TestStackUnderTRunner"); n > 1 {
		t.Fatalf("%d frames between the test and testing.tRunner", n)
	}
}
