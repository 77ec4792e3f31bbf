package threadsafe

import "sync"

// Bits is a thread-safe bit array (cometbft's BitArray shape).
type Bits struct {
	mu    sync.Mutex
	n     int
	elems []uint64
	log   string
}

func NewBits(n int) *Bits {
	return &Bits{n: n, elems: make([]uint64, (n+63)/64)}
}

func (b *Bits) Set(i int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.elems[i/64] |= 1 << uint(i%64)
	b.n = max(b.n, i+1)
}

func (b *Bits) Log() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.log
}

// UnmarshalJSON decodes into the value being built: not a concurrent use.
func (b *Bits) UnmarshalJSON(bz []byte) error {
	b.n = len(bz) // ok: a decoder fills its receiver
	b.elems = make([]uint64, (len(bz)+63)/64)
	return nil
}

// FromWords sets the bits from w.
func (b *Bits) FromWords(w []uint64) {
	b.elems = w // ok: a decoder
}

// Words hands out the live slice without the lock.
func (b *Bits) Words() []uint64 {
	return b.elems // want `Words reads b.elems without holding b.mu`
}

// SetLog is a builder step, only ever chained on the constructor.
func (b *Bits) SetLog(l string) *Bits {
	b.log = l // ok: the value is still being built
	return b
}

// Resize returns its receiver too, but Clear calls it on a shared value.
func (b *Bits) Resize(n int) *Bits {
	b.n = n // want `Resize writes b.n without holding b.mu`
	return b
}

// Clear empties the array.
func (b *Bits) Clear() { b.Resize(0) }

func build() *Bits {
	x := NewBits(8)
	x.SetLog("x")
	return NewBits(64).SetLog("y").SetLog("z")
}
