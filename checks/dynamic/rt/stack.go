package rt

import (
	"runtime"
	"strconv"
	"strings"
)

// Stack replaces runtime.Stack: under control the dump leaves out the
// tool's goroutines (the scheduler, its helpers, the driver), as
// NumGoroutine does, and the frame of this function; a controlled goroutine
// waiting for its turn shows the state and frames go test would show (see
// asParked); tests that read every goroutine's stack (leak checkers) see
// the program's goroutines only.
//
//go:norace
func Stack(buf []byte, all bool) int {
	s := active
	if s != nil && all {
		s.dumps.Add(1)
	}
	dump := wholeDump(len(buf)+1<<16, all)
	blocks := strings.Split(string(dump), "\n\n")
	kept := blocks[:0]
	for i, block := range blocks {
		if i == 0 {
			kept = append(kept, dropOwnFrames(block))
			continue
		}
		if s != nil {
			if id, ok := blockGoid(block); ok {
				if toolGoroutine(s, id, block) {
					continue
				}
				if g := s.tab.lookup(id); g != nil {
					block = asCreated(asParked(block, g), g)
				}
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

// asParked rewrites a controlled goroutine's part of a dump when it waits
// in the scheduler for its turn (in waitTurn, spinning or in semacquire):
// the scheduler's frames above the program's go, and the state is the one
// its pending operation has under go test, as the scheduler filed it:
// blocked on a channel, a lock or a WaitGroup, asleep, else runnable (also
// a goroutine that has not started yet).
//
//go:norace
func asParked(block string, g *gstate) string {
	head, rest, ok := strings.Cut(block, "\n")
	open, close := strings.IndexByte(head, '['), strings.IndexByte(head, ']')
	if !ok || open < 0 || close < open {
		return block
	}
	// Each frame is a function line and its file line.
	waiting := false
	for {
		fn, after, ok := strings.Cut(rest, "\n")
		if !ok || strings.HasPrefix(fn, "created by ") || strings.HasPrefix(fn, rtPrefix+"childMain(") {
			break
		}
		file, next, _ := strings.Cut(after, "\n")
		ownTest := strings.HasPrefix(fn, rtPrefix) && strings.Contains(file, "_test.go:")
		if !(strings.HasPrefix(fn, rtPrefix) && !ownTest || strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "sync.runtime_")) {
			break
		}
		waiting = waiting || strings.HasPrefix(fn, rtPrefix+"(*gstate).waitTurn(")
		rest = next
	}
	if !waiting {
		return block
	}
	state := "runnable"
	switch {
	case strings.HasPrefix(rest, rtPrefix+"childMain("):
		// not started: runnable, as a new goroutine is
	case g.set == setSleeping:
		state = "sleep"
	case g.set == setBlocked && g.req.op == opRunWait:
		// A test waiting for its subtest: go test shows it inside
		// t.Run, receiving from the subtest's signal channel; leak
		// checkers know that stack (goleak's isTestStack) and pass it.
		state = "chan receive"
		rest = tRunFrame + "\n" + rest
	case g.set == setBlocked && g.req.op == opParallel:
		// A parallel subtest paused until its parent's function
		// returns: go test shows it inside t.Parallel, receiving.
		state = "chan receive"
		rest = tParallelFrame + "\n" + rest
	case g.set == setBlocked:
		state = waitState(g.req.op)
	}
	return head[:open+1] + state + head[close:] + "\n" + rest
}

// tRunFrame is the frame go test's t.Run has on top of a test goroutine
// that waits for its subtest (function line, file line).
const tRunFrame = "testing.(*T).Run(...)\n\ttesting/testing.go:0"

// tParallelFrame is the frame go test's t.Parallel has on top of a
// parallel subtest paused until its parent's function returns.
const tParallelFrame = "testing.(*T).Parallel(...)\n\ttesting/testing.go:0"

// waitState is the runtime's wait reason for a goroutine blocked at op.
func waitState(op opKind) string {
	switch op {
	case opSend:
		return "chan send"
	case opRecv:
		return "chan receive"
	case opSelect:
		return "select"
	case opLock, opLockerLock:
		return "sync.Mutex.Lock"
	case opWLock:
		return "sync.RWMutex.Lock"
	case opRLock:
		return "sync.RWMutex.RLock"
	case opWGWait:
		return "sync.WaitGroup.Wait"
	case opSyncWait:
		return "synctest.Wait"
	case opBubbleEnd:
		return "synctest.Test"
	case opCondPark:
		return "sync.Cond.Wait"
	case opSleep:
		return "sleep"
	}
	return "runnable"
}

// asCreated rewrites the end of a controlled goroutine's part of a dump
// when rt's Go or GoCall started it: go test's ends with "created by F in
// goroutine N" and the go statement's position, F the function with the go
// statement; under control it ends with the tool's childMain frame (below
// GoCall's closure) and "created by" rt's goStart (leak checkers match on
// the creator: goleak's own TestFind wants "created by
// go.uber.org/goleak.startBlockedG").
//
//go:norace
func asCreated(block string, g *gstate) string {
	if g.goPC == 0 {
		return block
	}
	i := strings.Index(block, "\ncreated by "+rtPrefix+"goStart in goroutine ")
	if i < 0 {
		return block
	}
	head, created := block[:i], block[i+1:]
	line, _, _ := strings.Cut(created, "\n")
	in := line[strings.Index(line, " in goroutine "):]
	if j := strings.LastIndex(head, "\n"+rtPrefix+"childMain("); j >= 0 && strings.Count(head[:j], "\n") >= 2 {
		head = head[:j] // its frame and file line; kept when it is the only one (not started)
		if g.goWrapper && strings.Count(head, "\n") >= 4 {
			// The closure GoCall ran (a function line and a file
			// line), when the call it wraps has a frame above it.
			head = head[:strings.LastIndex(head[:strings.LastIndex(head, "\n")], "\n")]
		}
	}
	fr, _ := runtime.CallersFrames([]uintptr{g.goPC}).Next()
	if fr.Function == "" {
		return block
	}
	return head + "\ncreated by " + fr.Function + in + "\n\t" + fr.File + ":" + strconv.Itoa(fr.Line) + " +0x0"
}
