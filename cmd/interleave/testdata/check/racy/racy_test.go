package racy

import "testing"

func TestSpawn(t *testing.T) {
	Spawn(func() {})
}
