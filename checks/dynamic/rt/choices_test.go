package rt

import (
	"sync"
	"testing"
	"time"
)

// TestChoicesCounted: Result.Choices is 0 only for a run no other
// schedule could change: one goroutine at every decision, no select with
// two ready cases, no timer set, no map range of two keys, no random
// draw. Each body is run unperturbed (the plain strategy), as explore's
// first run of a test is.
func TestChoicesCounted(t *testing.T) {
	cases := []struct {
		name string
		body func()
		none bool
	}{
		{"one goroutine, locks and a buffered channel", func() {
			var mu sync.Mutex
			ch := make(chan int, 1)
			for i := 0; i < 3; i++ {
				Lock(&mu)
				Send(ch, i)
				_ = Recv(ch)
				Unlock(&mu)
			}
			m := map[string]int{"a": 1}
			mapRange(m, func(string, int) bool { return true }) // one key: one order
		}, true},
		{"two goroutines", func() {
			var mu sync.Mutex
			done := make(chan bool)
			Go(func() { Lock(&mu); Unlock(&mu); Send(done, true) })
			Lock(&mu)
			Unlock(&mu)
			Recv(done)
		}, false},
		{"a goroutine started late, after decisions with one", func() {
			var mu sync.Mutex
			for i := 0; i < 5; i++ {
				Lock(&mu)
				Unlock(&mu)
			}
			done := make(chan bool, 1)
			Go(func() { Send(done, true) })
			Lock(&mu)
			Unlock(&mu)
			Recv(done)
		}, false},
		{"a select with two ready cases", func() {
			a, b := make(chan int, 1), make(chan int, 1)
			Send(a, 1)
			Send(b, 2)
			Select(false, RecvCase(a), RecvCase(b))
		}, false},
		{"a map range of two keys", func() {
			var mu sync.Mutex
			m := map[string]int{"a": 1, "b": 2}
			mapRange(m, func(string, int) bool { Lock(&mu); Unlock(&mu); return true })
		}, false},
		{"a random draw", func() { _ = RandN(10) }, false},
		{"a goroutine runs while the other sleeps", func() {
			// startsleep's shape: the sleep could end before the
			// goroutine ran (EarlySleep), the only choice there is.
			var mu sync.Mutex
			done := make(chan bool, 1)
			Go(func() { Lock(&mu); Unlock(&mu); Send(done, true) })
			Sleep(time.Millisecond)
			Recv(done)
		}, false},
		{"a timer set while the goroutine runs", func() {
			tm := NewTimer(time.Millisecond)
			var mu sync.Mutex
			Lock(&mu)
			Unlock(&mu)
			TimerStop(tm)
		}, false},
	}
	for _, c := range cases {
		r := RunFunc(Config{Strategy: PlainStrategy, StepTimeout: 5 * time.Second}, 0, c.body)
		if r.Outcome != "pass" {
			t.Fatalf("%s: %s %s", c.name, r.Outcome, r.Message)
		}
		if none := r.Choices == 0; none != c.none {
			t.Errorf("%s: Choices = %d, want none: %v", c.name, r.Choices, c.none)
		}
	}
}
