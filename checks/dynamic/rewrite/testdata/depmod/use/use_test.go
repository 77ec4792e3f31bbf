package use

import (
	"context"
	"testing"
	"time"

	"example.com/tick"
)

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
	e := tick.Every[int](time.Millisecond)
	e.Stop()
}
