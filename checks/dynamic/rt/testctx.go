// t.Context() cancelled when the test's function returns, under control.

package rt

import (
	"context"
	"reflect"
	"testing"
	"unsafe"
)

var cancelFuncType = reflect.TypeOf(context.CancelFunc(nil))

// cancelTestContext cancels tb.Context(), as go test does once the test's
// function has returned and its parallel subtests have ended, before its
// cleanups run. Under control, goroutines waiting on it then end while the
// schedule runs, not after its leak check.
func cancelTestContext(tb testing.TB) {
	if cancel := testCancelOf(tb); cancel != nil {
		cancel()
	}
}

// testCancelOf returns the cancel function of a *testing.T's or
// *testing.B's context (testing's unexported common.cancelCtx), or nil
// for another TB or another layout (go test then cancels it after the
// schedule, as before).
func testCancelOf(tb testing.TB) context.CancelFunc {
	var v reflect.Value
	switch tb := tb.(type) {
	case *testing.T, *testing.B, *testing.F:
		v = reflect.ValueOf(tb)
	default:
		return nil
	}
	if v.IsNil() {
		return nil
	}
	f := v.Elem().FieldByName("cancelCtx")
	if !f.IsValid() || f.Type() != cancelFuncType || !f.CanAddr() {
		return nil
	}
	return *(*context.CancelFunc)(unsafe.Pointer(f.UnsafeAddr()))
}
