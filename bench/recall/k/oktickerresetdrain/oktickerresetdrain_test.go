// Package oktickerresetdrain: tickers before Go 1.23 (the //go:debug
// line). The link of tickerresetstale, but after the Reset it drains a
// tick already sent (select with a default), so no ping follows a frame
// before a quiet period. Must not be reported.

//go:debug asynctimerchan=1

package oktickerresetdrain

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
			select {
			case <-tk.C: // a tick sent before the Reset
			default:
			}
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
