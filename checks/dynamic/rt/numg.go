package rt

import (
	"runtime"
	"strconv"
	"strings"
)

// NumGoroutine is runtime.NumGoroutine. While a schedule runs it counts
// only the program's goroutines, as go test would show them: it leaves out
// the scheduler, its helpers (the goroutines calling t.Run for controlled
// subtests, forwarders, timer helpers), the driver's goroutine waiting for
// the schedule (and an earlier schedule's test goroutine still ending),
// and controlled goroutines that have ended (under go test a
// goroutine that returned is gone; here its runtime goroutine may still be
// finishing after the scheduler saw it end).
func NumGoroutine() int {
	s := active
	if s == nil {
		return runtime.NumGoroutine()
	}
	buf := wholeDump(1<<16, true)
	count := 0
	for _, block := range strings.Split(string(buf), "\n\n") {
		if id, ok := blockGoid(block); ok && !toolGoroutine(s, id, block) {
			count++
		}
	}
	return count
}

// wholeDump returns runtime.Stack's dump (every goroutine when all),
// starting with a buffer of size bytes and growing it until it fits.
func wholeDump(size int, all bool) []byte {
	buf := make([]byte, size)
	for {
		n := runtime.Stack(buf, all)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// blockGoid parses the id of one goroutine's part of a stack dump.
func blockGoid(block string) (uint64, bool) {
	rest, ok := strings.CutPrefix(strings.TrimLeft(block, "\n"), "goroutine ")
	if !ok {
		return 0, false
	}
	sp := strings.IndexByte(rest, ' ')
	if sp < 0 {
		return 0, false
	}
	id, err := strconv.ParseUint(rest[:sp], 10, 64)
	return id, err == nil
}

// toolGoroutine: is goroutine id (its part of a dump) one the tool keeps
// rather than one of the program's?
//
//go:norace
func toolGoroutine(s *sched, id uint64, block string) bool {
	if id == s.sgid {
		return true
	}
	if s.tab.lookup(id) != nil {
		return false // a live controlled goroutine
	}
	for _, g := range s.gs {
		if g.gid == id && g.exited {
			return true
		}
	}
	// The entry function is the last frame before "created by".
	entry := ""
	lines := strings.Split(block, "\n")
	for i := 1; i < len(lines); i++ {
		l := lines[i]
		if l == "" || strings.HasPrefix(l, "\t") {
			continue
		}
		if strings.HasPrefix(l, "created by ") {
			break
		}
		entry = l
		// The driver's goroutine waits in RunSchedule (or RunFunc).
		if strings.HasPrefix(l, rtPrefix+"RunSchedule(") || strings.HasPrefix(l, rtPrefix+"RunFunc(") {
			return true
		}
	}
	// A controlled goroutine that has not run yet (go childMain has
	// returned to its creator, which counts it at once, as go test would).
	if strings.HasPrefix(entry, rtPrefix+"childMain(") {
		return false
	}
	// A test goroutine that is not controlled is the driver's, or the
	// one of an earlier schedule that is still ending.
	return strings.HasPrefix(entry, rtPrefix) || strings.HasPrefix(entry, "testing.tRunner(")
}
