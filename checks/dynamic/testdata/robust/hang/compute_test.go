package hang

import "testing"

// sum keeps mask's results alive.
var sum uint32

// mask XORs b with key and returns a checksum; key is read after the call
// to fold, so a goroutine dump shows the arguments of each call.
//
//go:noinline
func mask(b []byte, key uint32) uint32 {
	fold(b)
	for i := range b {
		b[i] ^= byte(key >> (8 * (i % 4)))
	}
	return key ^ uint32(len(b))
}

//go:noinline
func fold(b []byte) {
	if len(b) > 0 {
		b[0]++
	}
}

// TestComputeFresh computes over a fresh buffer and key in each round,
// with no scheduling point, for longer than any watchdog (coder/websocket's
// TestMask, slow under the race detector at load, is of this shape): the
// watchdog ends it, but its goroutine was computing, not stuck, which is
// not a hang.
func TestComputeFresh(t *testing.T) {
	for round := uint32(1); round != 0; round++ {
		b := make([]byte, 4096+int(round%512))
		sum += mask(b, round*2654435761)
	}
}
