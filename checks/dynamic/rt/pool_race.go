//go:build race

package rt

import "runtime"

// poolRelease and poolAcquire order a Put before the Get that returns its
// item, for the race detector.
func poolRelease(x any) { runtime.RaceReleaseMerge(poolRaceAddr(x)) }
func poolAcquire(x any) { runtime.RaceAcquire(poolRaceAddr(x)) }
