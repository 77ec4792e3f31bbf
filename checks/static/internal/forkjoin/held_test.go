package forkjoin

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

const heldPrelude = `package p

import "sync"

type S struct {
	mu sync.Mutex
	wg sync.WaitGroup
}

`

func TestHeldAtWait(t *testing.T) {
	tests := []struct {
		name string
		body string // of (s *S) start; the question is asked at its last go statement
		want []string
	}{
		{"joined under the lock", `s.mu.Lock()
	done := make(chan bool)
	go func() { done <- true }()
	<-done
	s.mu.Unlock()`, []string{"mu"}},
		{"started, not joined", `s.mu.Lock()
	go func() {}()
	s.mu.Unlock()`, nil},
		{"unlocked before the wait", `s.mu.Lock()
	done := make(chan bool)
	go func() { done <- true }()
	s.mu.Unlock()
	<-done`, nil},
		{"workers of a loop awaited after it", `s.mu.Lock()
	for i := 0; i < 3; i++ {
		s.wg.Add(1)
		go func() { defer s.wg.Done() }()
	}
	s.wg.Wait()
	s.mu.Unlock()`, []string{"mu"}},
		{"a wait on one path only", `s.mu.Lock()
	done := make(chan bool)
	go func() { done <- true }()
	if len(done) == 0 {
		s.mu.Unlock()
		return
	}
	<-done
	s.mu.Unlock()`, []string{"mu"}},
		{"no lock", `done := make(chan bool)
	go func() { done <- true }()
	<-done`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := build(t, heldPrelude+"func (s *S) start() {\n\t"+tt.body+"\n}\n")
			fn := method(p, "start")
			r := lockset.New().Func(fn, lockset.TopLevel, lockset.State{})
			var got []string
			for _, v := range HeldAtWait(r, last[*ssa.Go](fn)) {
				got = append(got, v.Name())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestWaitPoint(t *testing.T) {
	p := build(t, heldPrelude+`func (s *S) waits(c chan int) {
	<-c
	select {
	case <-c:
	}
	s.wg.Wait()
	select {
	case <-c:
	default:
	}
	c <- 1
}
`)
	var got []string
	for _, b := range method(p, "waits").Blocks {
		for _, instr := range b.Instrs {
			if WaitPoint(instr) {
				got = append(got, instr.String())
			}
		}
	}
	// The receive, the blocking select (a one-case select is a receive),
	// Wait; not the select with a default nor the send.
	if len(got) != 3 {
		t.Errorf("got %d wait points %q, want 3", len(got), got)
	}
}
