//go:build linux

package rt

import (
	"syscall"
	"testing"
	"unsafe"
)

// TestMapKeysOutsideGoMemory: a key that points outside the memory Go
// allocated (an unsafe.Pointer into mmap'ed or C memory, cgo handles kept
// in a map) stays held at a collection point: a weak pointer to it is a
// fatal error of the runtime ("getWeakHandle on invalid pointer").
func TestMapKeysOutsideGoMemory(t *testing.T) {
	mem, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	rs := explore(t, 3, func(t *testing.T) {
		handles := map[unsafe.Pointer]int{}
		handles[MapKey(unsafe.Pointer(&mem[0]))] = 1
		handles[MapKey(unsafe.Pointer(&mem[64]))] = 2
		GC()
		n := 0
		for it, _, _ := MapIter(handles); it.Next(nil, nil); {
			n++
		}
		if n != 2 {
			t.Errorf("ranged %d keys, want 2", n)
		}
	})
	if o := outcomes(rs); o["pass"] != 3 {
		t.Fatalf("outcomes %v, want 3 passes", o)
	}
	for _, r := range rs {
		if r.Unordered != nil {
			t.Errorf("schedule %d ranged in the runtime's order: %+v", r.Index, *r.Unordered)
		}
	}
}
