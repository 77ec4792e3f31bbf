package rt

import (
	"reflect"
	"sync"
	"time"
	"unsafe"
)

// A timer made under control is virtual: a time.Timer with only C set,
// which the runtime never initialized, so its own Reset and Stop panic. It
// can outlive the schedule that made it (a package-level sync.Pool of
// timers, a cache) and reach a later schedule or a goroutine outside
// control. So it is allocated inside a timerBox that keeps what is needed
// to go on with it anywhere: a later schedule adopts it onto its own
// virtual clock; outside control Reset and Stop arm and stop a real timer
// that sends on (or calls) the same thing.
type timerBox struct {
	t     time.Timer
	magic *byte
	send  chan time.Time // the channel C receives from (nil for AfterFunc)
	kind  uint8
	fn    func()
	mu    sync.Mutex  // guards real, outside control only
	real  *time.Timer // armed outside control
}

// boxMagic marks a timerBox.
var boxMagic byte

// newTimerBox makes the virtual timer of a schedule. C is never nil (a
// channel nobody sends on for AfterFunc), which tells it from a zero Timer.
func newTimerBox(kind uint8, send chan time.Time, fn func()) *time.Timer {
	b := &timerBox{magic: &boxMagic, send: send, kind: kind, fn: fn}
	b.t.C = send
	if send == nil {
		b.t.C = make(chan time.Time)
	}
	return &b.t
}

// timerInitOffset is the offset of time.Timer's initTimer field (set by
// the runtime in every timer it made), or -1 when this Go has none.
var timerInitOffset = func() uintptr {
	f, ok := reflect.TypeOf(time.Timer{}).FieldByName("initTimer")
	if !ok || f.Type.Kind() != reflect.Bool {
		return ^uintptr(0)
	}
	return f.Offset
}()

// boxOf returns the box of a virtual timer, nil for a timer the runtime
// made (or any other). The scheduler calls it too: it reads t without
// acquiring anything.
//
//go:nocheckptr
//go:norace
func boxOf(t *time.Timer) *timerBox {
	if t == nil || t.C == nil || timerInitOffset == ^uintptr(0) {
		return nil
	}
	if *(*bool)(unsafe.Add(unsafe.Pointer(t), timerInitOffset)) {
		return nil // the runtime's
	}
	b := (*timerBox)(unsafe.Pointer(t))
	if b.magic != &boxMagic {
		return nil
	}
	return b
}

// realReset is Timer.Reset (stop when reset is false) of a virtual timer
// used outside control: a real timer does the firing. As in Go 1.23, no
// stale value is left in C once it returns (before 1.23, asyncTimerChan,
// it stays).
func (b *timerBox) realReset(d time.Duration, reset bool) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	active := false
	if b.real != nil {
		active = b.real.Stop()
		b.real = nil
	}
	if b.send != nil && !asyncTimerChan {
		select {
		case <-b.send:
		default:
		}
	}
	if reset {
		if b.kind == tkFunc {
			b.real = time.AfterFunc(d, b.fn)
		} else {
			ch := b.send
			b.real = time.AfterFunc(d, func() {
				select {
				case ch <- time.Now():
				default:
				}
			})
		}
	}
	return active
}

// stopReal stops the real timer of a box a schedule adopts (run by a
// helper: S takes no locks).
func (b *timerBox) stopReal() {
	b.mu.Lock()
	if b.real != nil {
		b.real.Stop()
		b.real = nil
	}
	b.mu.Unlock()
}
