package xmocked_test

import (
	"testing"

	"example.com/brokentests/xmocked"
)

func TestGet(t *testing.T) {
	if xmocked.Get() != "one" {
		t.Fatal("not one")
	}
}
