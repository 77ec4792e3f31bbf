//go:debug randseednop=0

package draws

import (
	"math/rand"
	"testing"
)

// TestSeedTwice seeds math/rand before each of two draws to get the same
// value twice (gorilla/websocket's TestPreparedMessage does it for a frame
// mask; Seed acts since GODEBUG=randseednop=0 above). No finding, no note.
func TestSeedTwice(t *testing.T) {
	rand.Seed(1234)
	a := rand.Uint32()
	rand.Seed(1234)
	if b := rand.Uint32(); a != b {
		t.Errorf("after Seed(1234) twice: drew %d, then %d", a, b)
	}
}
