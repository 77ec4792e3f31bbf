// Package okstagecloseselect: stagecloseorder with the forwarding send in
// a select on the stage's own quit channel. Close still stops the stages
// in the order of a set keyed by pointer; any order ends.
package okstagecloseselect

import (
	"runtime"
	"testing"
)

type stage struct {
	in, out    chan int // out: the next stage's in (nil for the last)
	quit, done chan struct{}
	seen       []int
}

func (s *stage) run() {
	defer close(s.done)
	for {
		select {
		case <-s.quit:
			return
		case v := <-s.in:
			if s.out == nil {
				s.seen = append(s.seen, v)
				continue
			}
			select {
			case s.out <- v:
			case <-s.quit:
				return
			}
		}
	}
}

func (s *stage) stop() {
	close(s.quit)
	<-s.done
}

type pipeline struct {
	stages map[*stage]bool
	head   *stage
}

func newPipeline(n int) *pipeline {
	p := &pipeline{stages: map[*stage]bool{}}
	line := make([]*stage, n)
	for i := range line {
		line[i] = &stage{in: make(chan int), quit: make(chan struct{}), done: make(chan struct{})}
	}
	for i, s := range line {
		if i+1 < n {
			s.out = line[i+1].in
		}
		p.stages[s] = true
		go s.run()
	}
	p.head = line[0]
	return p
}

// Close stops every stage, in the set's order.
func (p *pipeline) Close() {
	for s := range p.stages {
		s.stop()
	}
}

func TestClose(t *testing.T) {
	p := newPipeline(2)
	p.head.in <- 1
	runtime.Gosched() // the value moves on, most of the time
	p.Close()
}
