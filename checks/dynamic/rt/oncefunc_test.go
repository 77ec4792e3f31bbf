package rt

import (
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// TestOnceValueReentry: a OnceValue whose function calls it again waits
// for itself; under control that is a deadlock on Once.Do, on every
// schedule (sync's own would block inside the standard library, outside
// the scheduler's view).
func TestOnceValueReentry(t *testing.T) {
	rs := explore(t, 5, func(t *testing.T) {
		var get func() int
		get = OnceValue(func() int { return get() + 1 })
		get()
	})
	for _, r := range rs {
		if r.Outcome != "deadlock" || !strings.Contains(r.Message, "Once.Do") {
			t.Fatalf("outcome %q %q, want a deadlock on Once.Do", r.Outcome, r.Message)
		}
		if !strings.Contains(r.Message, "oncefunc_test.go") {
			t.Fatalf("%q: not at the call in the test", r.Message)
		}
	}
}

// TestOnceValueShared: callers racing for a OnceValue get the one value
// its function computed once; the waiting is under control, and a panic
// of the function is the panic of every call, as in sync.
func TestOnceValueShared(t *testing.T) {
	calls := 0
	rs := explore(t, 30, func(t *testing.T) {
		n := 0
		get := OnceValue(func() int { Gosched(); n++; return 7 * n })
		pair := OnceValues(func() (int, string) { return 1, "a" })
		f := OnceFunc(func() { calls++ })
		var wg sync.WaitGroup
		for range 3 {
			WaitGroupAdd(&wg, 1)
			Go(func() {
				defer WaitGroupDone(&wg)
				if v := get(); v != 7 {
					t.Errorf("get() = %d, want 7", v)
				}
				if a, b := pair(); a != 1 || b != "a" {
					t.Errorf("pair() = %d, %q", a, b)
				}
				f()
			})
		}
		WaitGroupWait(&wg)
		bad := OnceValue(func() int { panic("boom") })
		for range 2 {
			func() {
				defer func() {
					if p := recover(); p != "boom" {
						t.Errorf("recovered %v, want boom", p)
					}
				}()
				bad()
			}()
		}
	})
	mustPass(t, rs)
	if calls != 30 {
		t.Errorf("OnceFunc's function ran %d times in 30 schedules", calls)
	}
	waits := 0
	for _, r := range rs {
		for _, d := range r.Decisions {
			if d.Op == "Once.Do" {
				waits++
			}
		}
	}
	if waits == 0 {
		t.Error("no Once.Do decision: the once is not under control")
	}
}

// TestGenericClosureNotUser: a closure of a generic rt function, compiled
// into its caller, is named after the caller, not rt; its file says it is
// rt's, and a site never points into rt.
func TestGenericClosureNotUser(t *testing.T) {
	fr := runtime.Frame{Function: "example.com/p.(*Client).logf.OnceValue[...].func2", File: filepath.Join(rtDir, "oncefunc.go"), Line: 57}
	if isUserFrame(fr) {
		t.Errorf("%s in %s counted as user code", fr.Function, fr.File)
	}
	fr.File = "/src/p/client.go"
	if !isUserFrame(fr) {
		t.Errorf("%s in %s not counted as user code", fr.Function, fr.File)
	}
}
