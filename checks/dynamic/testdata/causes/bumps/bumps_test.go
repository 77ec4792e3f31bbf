package bumps

import (
	"sync"
	"testing"
)

func TestBumpA(t *testing.T) {
	c := New()
	var wg sync.WaitGroup
	for j := 0; j < 2; j++ {
		wg.Add(1)
		go func() { defer wg.Done(); c.BumpA() }()
	}
	wg.Wait()
	if c.Get(0) != 2 {
		t.Fatal("lost update in BumpA")
	}
}

func TestBumpB(t *testing.T) {
	c := New()
	var wg sync.WaitGroup
	for j := 0; j < 2; j++ {
		wg.Add(1)
		go func() { defer wg.Done(); c.BumpB() }()
	}
	wg.Wait()
	if c.Get(1) != 2 {
		t.Fatal("lost update in BumpB")
	}
}
