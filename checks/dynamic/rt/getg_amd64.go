package rt

import "unsafe"

// getg returns the calling goroutine's runtime.g (getg_amd64.s).
func getg() unsafe.Pointer
