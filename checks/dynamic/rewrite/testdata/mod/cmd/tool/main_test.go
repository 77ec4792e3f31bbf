package main

import "testing"

func TestRun(t *testing.T) {
	if run() != 4 {
		t.Fatal("bad")
	}
}
