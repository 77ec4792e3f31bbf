package use

import (
	"context"
	"errors"
	"testing"
	"time"

	"example.com/oldtick"
	"example.com/tick"
)

var errWaited = errors.New("waited a minute")

func TestUse(t *testing.T) {
	done := make(chan struct{})
	s := tick.Later(time.Hour, func() {})
	if !s.Stop() {
		t.Fatal("Stop of a pending timer returned false")
	}
	s.Reset(time.Millisecond)
	var b tick.Box[string]
	b.Put("x")
	if b.Age() < 0 {
		t.Fatal("negative age")
	}
	go close(done)
	if _, ok := tick.Wait(context.Background(), done, time.Minute); !ok {
		t.Fatal("Wait missed a closed channel")
	}
	if _, err := tick.WaitCause(context.Background(), make(chan int), time.Millisecond, errWaited); err != errWaited {
		t.Fatalf("WaitCause = %v, want its cause", err)
	}
	e := tick.Every[int](time.Millisecond)
	e.Stop()
	ch := make(chan int, 1)
	oldtick.Pass(ch, 1, time.Millisecond)
	if v := oldtick.Recv(ch); v != 1 {
		t.Fatalf("Recv = %d", v)
	}
}
