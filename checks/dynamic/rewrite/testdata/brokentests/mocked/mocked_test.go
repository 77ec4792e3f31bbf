package mocked

import "testing"

func TestGet(t *testing.T) {
	m := NewMockGetter(t)
	_ = m
	if Get() != 1 {
		t.Fatal("not one")
	}
}
