package use

import (
	"testing"

	"go.uber.org/goleak"
)

func TestNoLeak(t *testing.T) {
	defer goleak.VerifyNone(t)
	done := make(chan struct{})
	go func() { close(done) }()
	<-done
	if goleak.Count() < 1 {
		t.Fatal("no goroutines")
	}
}
