package testmain

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

// config is set up by TestMain before any test runs.
var config map[string]int

// requests is served by a goroutine TestMain starts: a partner the
// scheduler does not control.
var requests chan chan int

func TestMain(m *testing.M) {
	config = map[string]int{"workers": 2}
	requests = make(chan chan int)
	quit := make(chan struct{})
	go func() {
		n := 0
		for {
			select {
			case reply := <-requests:
				n++
				reply <- n
			case <-quit:
				return
			}
		}
	}()
	code := m.Run()
	close(quit)
	fmt.Fprintln(os.Stderr, "testmain: teardown done")
	os.Exit(code)
}

// TestUsesSetup needs TestMain's setup and its serving goroutine.
func TestUsesSetup(t *testing.T) {
	workers := config["workers"]
	if workers != 2 {
		t.Fatalf("workers = %d, want 2: TestMain did not run", workers)
	}
	var mu sync.Mutex
	var got []int
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reply := make(chan int)
			requests <- reply
			n := <-reply
			mu.Lock()
			got = append(got, n)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(got) != workers {
		t.Errorf("got %d replies, want %d", len(got), workers)
	}
}
