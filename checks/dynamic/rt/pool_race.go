//go:build race

package rt

import (
	"runtime"
	"unsafe"
)

// poolRelease and poolAcquire order a Put before the Get that returns its
// item, for the race detector.
func poolRelease(x any) { runtime.RaceReleaseMerge(poolRaceAddr(x)) }
func poolAcquire(x any) { runtime.RaceAcquire(poolRaceAddr(x)) }

// poolRaceHash gives the race detector an address per pooled item, as
// sync.Pool's own: the item's address itself might carry other
// synchronization.
var poolRaceHash [128]uint64

//go:norace
func poolRaceAddr(x any) unsafe.Pointer {
	ptr := uintptr((*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1])
	h := uint32((uint64(uint32(ptr)) * 0x85ebca6b) >> 16)
	return unsafe.Pointer(&poolRaceHash[h%uint32(len(poolRaceHash))])
}
