// math/rand's and math/rand/v2's top-level functions on a stream the
// schedule's seed fixes.

package rt

import (
	"math/rand"
	randv2 "math/rand/v2"
	"sync"
	"time"
)

// MathRand stands for math/rand's top-level functions (rand.Intn becomes
// MathRand.Intn) and MathRandV2 for math/rand/v2's. Under control they
// draw from a stream seeded by the schedule's seed, in the order the
// decisions fix, so a replay draws what the recording drew (a pool that
// picks a worker at random picks the same one); outside control, from the
// standard library's generators. Their methods only read the *Rand (Read
// is not rewritten, Seed is MathRandSeed), so sharing one is safe.
var (
	MathRand   = rand.New(randSource{v1: true})
	MathRandV2 = randv2.New(randSource{})
)

// MathRandSeed is math/rand's Seed. Where Seed takes effect (GODEBUG
// randseednop=0, the default of a module whose go line is older than
// 1.24), math/rand's top-level draws then repeat the standard generator's
// stream from that seed (a test that seeds twice to draw the same mask
// twice); under control that stream replaces the schedule's until the
// schedule ends. Where Seed is a no-op, so is this.
//
//go:norace
func MathRandSeed(seed int64) {
	//lint:ignore SA1019 the code under test calls it
	rand.Seed(seed)
	// Whether it took effect: the next draw is the seeded stream's first
	// (else a random one: 2^-63 to match). Reseed to undo that draw.
	if rand.Int63() != rand.NewSource(seed).Int63() {
		return
	}
	//lint:ignore SA1019 as above
	rand.Seed(seed)
	if current() != nil {
		active.randSeeded = rand.NewSource(seed).(rand.Source64)
	}
}

// RandN is math/rand/v2's N on MathRandV2.
func RandN[Int ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](n Int) Int {
	if n <= 0 {
		panic("invalid argument to N")
	}
	return Int(MathRandV2.Uint64N(uint64(n)))
}

// randSource is math/rand's top-level stream (v1) or math/rand/v2's.
// Outside control math/rand's follows the real one, which Seed may have
// seeded.
type randSource struct{ v1 bool }

//go:norace
func (r randSource) Uint64() uint64 {
	if current() == nil {
		if r.v1 {
			return rand.Uint64()
		}
		return randv2.Uint64()
	}
	if r.v1 && active.randSeeded != nil {
		seededMu.Lock()
		defer seededMu.Unlock()
		return active.randSeeded.Uint64()
	}
	return active.randUint64()
}

// seededMu orders the draws from a seeded stream (sched.randSeeded) as
// math/rand's top-level source orders them, with a mutex: the stream is
// math/rand's own generator, whose state the race detector watches, and
// controlled goroutines hand over to each other unseen by it
// (rcrowley/go-metrics' TestGaugeConcurrency, rand.Seed then rand.Int63
// in 100 goroutines, was noted as a race of interleave's own runtime).
// Only controlled goroutines draw, one at a time: it never waits.
var seededMu sync.Mutex

//go:norace
func (r randSource) Int63() int64 {
	if current() == nil && r.v1 {
		return rand.Int63()
	}
	if current() != nil && r.v1 && active.randSeeded != nil {
		seededMu.Lock()
		defer seededMu.Unlock()
		return active.randSeeded.Int63()
	}
	return int64(r.Uint64() >> 1)
}

func (randSource) Seed(int64) {}

// randUint64 is the schedule's next draw (splitmix64). Controlled
// goroutines run one at a time; the race detector does not see the
// scheduler's hand-offs, hence norace.
//
//go:norace
func (s *sched) randUint64() uint64 {
	s.choices++ // another schedule draws another value
	s.draws++
	s.randState += 0x9e3779b97f4a7c15
	z := s.randState
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// A generator of its own seeded from the clock (rand.NewSource(
// time.Now().UnixNano()), a backoff's jitter) draws other values in every
// process, a replay's too, whose clock starts at another second. NewSource
// and NewPCG (rewritten from math/rand's and math/rand/v2's) take, under
// control, a seed that is a reading of the schedule's clock (in
// nanoseconds, microseconds, milliseconds or seconds since 1970, between
// the schedule's start and now) from the schedule's stream instead, as a
// draw: a replay seeds what the recording seeded. Any other seed (a
// constant, a test's fixed one) is kept, and so is every seed outside
// control.

// NewSource is math/rand's NewSource.
func NewSource(seed int64) rand.Source {
	if clockSeed(seed) {
		seed = int64(active.randUint64() >> 1)
	}
	return rand.NewSource(seed)
}

// NewPCG is math/rand/v2's NewPCG.
func NewPCG(seed1, seed2 uint64) *randv2.PCG {
	if clockSeed(int64(seed1)) {
		seed1 = active.randUint64()
	}
	if clockSeed(int64(seed2)) {
		seed2 = active.randUint64()
	}
	return randv2.NewPCG(seed1, seed2)
}

// clockSeed reports whether seed is a reading of the virtual clock since
// the schedule began, by a controlled goroutine.
//
//go:norace
func clockSeed(seed int64) bool {
	s := active
	if current() == nil || s == nil {
		return false
	}
	from, to := s.base, s.base.Add(s.now)
	for _, u := range []func(time.Time) int64{time.Time.UnixNano, time.Time.UnixMicro, time.Time.UnixMilli, time.Time.Unix} {
		if u(from) <= seed && seed <= u(to) {
			return true
		}
	}
	return false
}
