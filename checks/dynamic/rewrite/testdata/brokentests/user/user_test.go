package user

import "testing"

func TestTwo(t *testing.T) {
	if Two() != 2 {
		t.Fatal("not two")
	}
}
