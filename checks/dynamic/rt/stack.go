package rt

import (
	"runtime"
	"strings"
)

// Stack replaces runtime.Stack: under control the dump leaves out the
// tool's goroutines (the scheduler, its helpers, the driver), as
// NumGoroutine does, and the frame of this function; tests that read every
// goroutine's stack (leak checkers) see the program's goroutines only.
func Stack(buf []byte, all bool) int {
	s := active
	dump := make([]byte, len(buf)+1<<16)
	for {
		n := runtime.Stack(dump, all)
		if n < len(dump) {
			dump = dump[:n]
			break
		}
		dump = make([]byte, 2*len(dump))
	}
	blocks := strings.Split(string(dump), "\n\n")
	kept := blocks[:0]
	for i, block := range blocks {
		if i == 0 {
			kept = append(kept, dropOwnFrame(block))
			continue
		}
		if s != nil {
			if id, ok := blockGoid(block); ok && toolGoroutine(s, id, block) {
				continue
			}
		}
		kept = append(kept, block)
	}
	return copy(buf, strings.Join(kept, "\n\n"))
}

// dropOwnFrame removes Stack's own frame (a function line and its file
// line) from the calling goroutine's part of a dump.
func dropOwnFrame(block string) string {
	head, rest, ok := strings.Cut(block, "\n")
	if !ok || !strings.HasPrefix(rest, rtPrefix+"Stack(") {
		return block
	}
	lines := strings.SplitN(rest, "\n", 3)
	if len(lines) < 3 {
		return head + "\n"
	}
	return head + "\n" + lines[2]
}
