package chans

import (
	"bufio"
	"io"
	"strings"
	"testing"
	"time"
)

// readHeader reads the lines up to the first empty one from a stream a
// goroutine renders into an io.Pipe, and returns without closing the
// reader: the renderer stays blocked in its Write of the body for good.
func readHeader(render func(io.Writer)) ([]string, error) {
	pr, pw := io.Pipe()
	go func() {
		render(pw)
		pw.Close()
	}()
	br := bufio.NewReader(pr)
	var header []string
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return header, err
		}
		if line == "\n" {
			return header, nil // should pr.Close(): render's next Write would fail
		}
		header = append(header, strings.TrimSuffix(line, "\n"))
	}
}

func TestHeaderStrandsRenderer(t *testing.T) {
	h, err := readHeader(func(w io.Writer) {
		io.WriteString(w, "a: 1\n")
		io.WriteString(w, "\n")
		io.WriteString(w, "body\n")
	})
	if err != nil || len(h) != 1 {
		t.Fatalf("header %q, %v", h, err)
	}
}

// watch counts the beats that came before each timeout; it rearms its
// timer with the drain idiom of Go before 1.23, which blocks for good
// when the select took the timer's value already: a timeout that beats a
// beat hangs the watcher.
func watch(beats <-chan struct{}, timeout time.Duration, n int) int {
	tm := time.NewTimer(timeout)
	got := 0
	for range n {
		select {
		case <-beats:
			got++
		case <-tm.C:
		}
		if !tm.Stop() {
			<-tm.C // the value was taken above: blocks for good
		}
		tm.Reset(timeout)
	}
	return got
}

func TestHeartbeatDrain(t *testing.T) {
	beats := make(chan struct{}, 2)
	go func() {
		beats <- struct{}{}
		beats <- struct{}{}
	}()
	if got := watch(beats, 20*time.Millisecond, 2); got > 2 {
		t.Fatalf("%d beats, sent 2", got)
	}
}
