package cancelsend

import (
	"context"
	"testing"
)

func canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

func TestGetCanceled(t *testing.T) {
	s := New(map[string]string{"a": "1"})
	defer s.Close()
	if _, err := s.Get(canceled(), "a"); err != context.Canceled {
		t.Fatalf("Get with a canceled context: error %v, want context.Canceled", err)
	}
}

func TestHasCanceled(t *testing.T) {
	s := New(map[string]string{"a": "1"})
	defer s.Close()
	if _, err := s.Has(canceled(), "a"); err != context.Canceled {
		t.Errorf("Has with a canceled context: error %v, want context.Canceled", err)
	}
}
