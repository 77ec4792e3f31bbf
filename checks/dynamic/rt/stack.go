package rt

import "strings"

// Stack replaces runtime.Stack: under control the dump leaves out the
// tool's goroutines (the scheduler, its helpers, the driver), as
// NumGoroutine does, and the frame of this function; tests that read every
// goroutine's stack (leak checkers) see the program's goroutines only.
func Stack(buf []byte, all bool) int {
	s := active
	dump := wholeDump(len(buf)+1<<16, all)
	blocks := strings.Split(string(dump), "\n\n")
	kept := blocks[:0]
	for i, block := range blocks {
		if i == 0 {
			kept = append(kept, dropOwnFrames(block))
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

// dropOwnFrames removes the frames of Stack and wholeDump from
// the top of the calling goroutine's part of a dump: each a function line
// and its file line.
func dropOwnFrames(block string) string {
	head, rest, ok := strings.Cut(block, "\n")
	if !ok {
		return block
	}
	for strings.HasPrefix(rest, rtPrefix+"wholeDump(") || strings.HasPrefix(rest, rtPrefix+"Stack(") {
		lines := strings.SplitN(rest, "\n", 3)
		if len(lines) < 3 {
			return head + "\n"
		}
		rest = lines[2]
	}
	return head + "\n" + rest
}
