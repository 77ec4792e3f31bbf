//go:build race

package rt

import (
	"runtime"
	"unsafe"
)

// bubbleRace is the address the race detector's edges of a synctest
// bubble go through, as the runtime's bubble: a goroutine inside one
// releases on it at each scheduling point (so also where it blocks or
// exits), and SynctestWait and SynctestTest's return acquire it. What the
// others did before they blocked happens before Wait returns, as under
// testing/synctest; without it, jrpc2's tests that read after Wait what a
// goroutine wrote before it exited were data races on every schedule.
var bubbleRace uint64

func bubbleRelease() { runtime.RaceReleaseMerge(unsafe.Pointer(&bubbleRace)) }
func bubbleAcquire() { runtime.RaceAcquire(unsafe.Pointer(&bubbleRace)) }
