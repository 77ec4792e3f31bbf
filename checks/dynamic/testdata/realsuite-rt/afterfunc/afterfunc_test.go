package afterfunc

import (
	"testing"
	"time"
)

// The callback reads what the code that armed the timer wrote before: the
// runtime orders the two, so the race detector must not report it.
func TestAfterFuncSeesArmer(t *testing.T) {
	x := 0
	done := make(chan int)
	x = 42
	time.AfterFunc(time.Millisecond, func() { done <- x })
	if v := <-done; v != 42 {
		t.Fatalf("got %d", v)
	}
}

// The same through Reset.
func TestResetAndChannel(t *testing.T) {
	var a int
	done := make(chan int)
	tm := time.AfterFunc(time.Hour, func() { done <- a })
	a = 7
	tm.Reset(time.Millisecond)
	if v := <-done; v != 7 {
		t.Fatalf("got %d", v)
	}
}
