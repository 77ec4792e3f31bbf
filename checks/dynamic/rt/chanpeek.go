package rt

import (
	"reflect"
	"unsafe"
)

// A channel closed outside control (inside the standard library's
// context, by a dependency) must look closed to the scheduler. The runtime
// keeps the flag in the channel's header, after the buffer count, size and
// pointer and the element size; that prefix of runtime.hchan has not
// changed since Go 1.0. hchanPrefix mirrors it, and peekOK records that a
// check at start-up read the flag right on this toolchain (otherwise the
// shadow state alone decides, as before).
type hchanPrefix struct {
	qcount   uint
	dataqsiz uint
	buf      unsafe.Pointer
	elemsize uint16
	closed   uint32
}

var peekOK = func() bool {
	open, shut := make(chan int, 3), make(chan int)
	open <- 1
	close(shut)
	o := (*hchanPrefix)(reflect.ValueOf(open).UnsafePointer())
	c := (*hchanPrefix)(reflect.ValueOf(shut).UnsafePointer())
	return o.qcount == 1 && o.dataqsiz == 3 && o.elemsize == uint16(unsafe.Sizeof(int(0))) && o.closed == 0 &&
		c.qcount == 0 && c.dataqsiz == 0 && c.closed != 0
}()

// closedForReal reports whether channel p (non-nil) is closed, by its
// header.
//
//go:norace
func closedForReal(p unsafe.Pointer) bool {
	return peekOK && (*hchanPrefix)(p).closed != 0
}
