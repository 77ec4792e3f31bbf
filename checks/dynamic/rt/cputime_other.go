//go:build !unix

package rt

import "time"

// processCPU is not known here: the watchdog goes by wall time alone.
func processCPU() (time.Duration, bool) { return 0, false }
