//go:debug randseednop=0

package rt

import (
	"math/rand"
	"testing"
	"time"
)

// TestSeedRestartsStream: as in a test that seeds math/rand before each of
// two writes to draw the same mask twice, a rand.Seed that takes effect
// (randseednop=0, the default of modules older than go 1.24) makes the
// top-level draws under control repeat the standard generator's stream
// from that seed, every time it is called; a generator the test made
// itself is untouched, and so is math/rand/v2's stream.
func TestSeedRestartsStream(t *testing.T) {
	want := rand.New(rand.NewSource(1234))
	w1, w2, w3 := want.Uint32(), want.Intn(1000), want.Uint64()
	var got [][3]uint64
	body := func(t *testing.T) {
		own := rand.New(rand.NewSource(7))
		ownFirst := own.Int63()
		for range 2 {
			MathRandSeed(1234)
			got = append(got, [3]uint64{uint64(MathRand.Uint32()), uint64(MathRand.Intn(1000)), MathRand.Uint64()})
			MathRandV2.Uint64()
		}
		if ownFirst != rand.New(rand.NewSource(7)).Int63() {
			t.Error("the test's own generator drew another value")
		}
	}
	rec := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, nil, body)
	if rec.Outcome != "pass" {
		t.Fatalf("schedule: %+v", rec)
	}
	for i, g := range got {
		if g != [3]uint64{uint64(w1), uint64(w2), w3} {
			t.Errorf("draws after Seed #%d: %v, want the seeded stream's %v", i+1, g, [3]uint64{uint64(w1), uint64(w2), w3})
		}
	}
	// The next schedule draws from its own stream again.
	var next uint32
	RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 1, nil, nil, func(t *testing.T) { next = MathRand.Uint32() })
	if next == w1 {
		t.Errorf("the next schedule still draws the seeded stream (%d)", next)
	}
	// Outside control: the real generator, seeded.
	MathRandSeed(1234)
	if g := MathRand.Uint32(); g != w1 {
		t.Errorf("outside control: drew %d after Seed, want %d", g, w1)
	}
}
