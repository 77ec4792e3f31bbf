package conc

import (
	"os"
	"testing"
)

func TestLocks(t *testing.T) {
	t.Parallel()
	if got := Locks(); got != 5 {
		t.Fatalf("Locks() = %d, want 5", got)
	}
	LockerOf(&Embeds{})
}

func TestWaitOnce(t *testing.T) {
	if got := WaitOnce(); got != 11 {
		t.Fatalf("WaitOnce() = %d", got)
	}
	if CondPingPong() != 1 {
		t.Fatal("cond")
	}
}

func TestChans(t *testing.T) {
	t.Run("pipeline", func(t *testing.T) {
		if got := Pipeline(4); got != 20 {
			t.Fatalf("Pipeline = %d", got)
		}
	})
	t.Run("commaok", func(t *testing.T) {
		t.Parallel()
		if v, closed := CommaOK(); v != 7 || !closed {
			t.Fatalf("CommaOK = %d %v", v, closed)
		}
	})
	if s := Interfaces(); s != "abcel" {
		t.Fatalf("Interfaces = %q", s)
	}
	if v := Generic(make(chan int, 1), 9); v != 9 {
		t.Fatalf("Generic = %d", v)
	}
	if v := Selects(make(chan struct{})); v < 1000 {
		t.Fatalf("Selects = %d", v)
	}
	if order, ok := SendValues(); order != "bal" || !ok {
		t.Fatalf("SendValues = %q %v", order, ok)
	}
	if got := Nested(); got != 9 {
		t.Fatalf("Nested = %d", got)
	}
	if Times() != 4 {
		t.Fatal("Times")
	}
}

func TestGos(t *testing.T) {
	if got := Gos(); got != 21 {
		t.Fatalf("Gos = %d", got)
	}
	if got := Gos2(); got != "4" {
		t.Fatalf("Gos2 = %s", got)
	}
	if got := Atomics(); got != 7 {
		t.Fatalf("Atomics = %d", got)
	}
	Yield()
	OnlyRewritten()
	cleaned := 0
	t.Cleanup(func() { cleaned++ })
	var tb testing.TB = t
	tb.Cleanup(func() {
		if cleaned != 0 {
			panic("cleanups out of order: the last one registered runs first")
		}
	})
}

func TestPanic(t *testing.T) {
	which := os.Getenv("CONC_PANIC")
	if which == "" {
		t.Skip("set CONC_PANIC")
	}
	if which == "exit" {
		os.Exit(4)
	}
	Panic(which)
	select {} // the "go" case panics in another goroutine
}

func BenchmarkLocks(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.Run("x", func(b *testing.B) {})
		Locks()
	}
}
