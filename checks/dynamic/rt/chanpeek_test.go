package rt

import (
	"reflect"
	"testing"
	"time"
)

// lenCap reads what reflect says: buffered, unbuffered, closed with
// values left, and a real timer's channel (unbuffered to the program).
func TestLenCapAsReflect(t *testing.T) {
	buf := make(chan int, 4)
	buf <- 1
	buf <- 2
	shut := make(chan int, 2)
	shut <- 1
	close(shut)
	timer := time.NewTimer(time.Nanosecond)
	defer timer.Stop()
	time.Sleep(time.Millisecond) // fired: its value waits
	for _, ch := range []any{buf, make(chan struct{}), shut, timer.C} {
		rv := reflect.ValueOf(ch)
		n, k := lenCap(rv.UnsafePointer(), rv)
		if n != rv.Len() || k != rv.Cap() {
			t.Errorf("%T: lenCap = %d, %d; reflect says %d, %d", ch, n, k, rv.Len(), rv.Cap())
		}
	}
}
