// Package tickerresetstale: tickers before Go 1.23 (the //go:debug line,
// as a go line older than 1.23 gives). A link sends a ping only after a
// quiet period: a data frame counts as a heartbeat, so it resets the
// ticker. Reset does not take back a tick already sent: a tick due while
// the loop runs on from a frame to its Reset (a loaded machine's delay)
// stays in C, and the next select reads it at once, a ping right after a
// frame.

//go:debug asynctimerchan=1

package tickerresetstale

import (
	"testing"
	"time"
)

type entry struct {
	what string
	at   time.Time
}

type link struct {
	every  time.Duration
	frames chan string // queued by the application
	quit   chan struct{}
	done   chan struct{}
	wire   []entry // what went out, when (the loop's; read after done)
}

func newLink(every time.Duration) *link {
	return &link{every: every, frames: make(chan string, 1), quit: make(chan struct{}), done: make(chan struct{})}
}

func (l *link) write(what string) { l.wire = append(l.wire, entry{what, time.Now()}) }

func (l *link) run() {
	tk := time.NewTicker(l.every)
	defer tk.Stop()
	defer close(l.done)
	for {
		select {
		case f := <-l.frames:
			l.write(f)
			tk.Reset(l.every) // the next ping a quiet period after this frame
		case <-tk.C:
			l.write("ping")
		case <-l.quit:
			return
		}
	}
}

func TestHeartbeat(t *testing.T) {
	l := newLink(100 * time.Millisecond)
	go l.run()
	for _, f := range []string{"a", "b", "c"} {
		l.frames <- f
		time.Sleep(60 * time.Millisecond) // well inside the quiet period
	}
	close(l.quit)
	<-l.done
	for i := 1; i < len(l.wire); i++ {
		if gap := l.wire[i].at.Sub(l.wire[i-1].at); l.wire[i].what == "ping" && gap < l.every {
			t.Fatalf("ping %v after %q, want at least %v of quiet first", gap, l.wire[i-1].what, l.every)
		}
	}
}
