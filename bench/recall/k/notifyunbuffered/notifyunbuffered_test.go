// Package notifyunbuffered: the watcher delivers events without blocking
// (select with default), as signal.Notify does, so its channel must be
// buffered; the test passes an unbuffered one, and an event that comes
// before the test receives is dropped.
package notifyunbuffered

import "testing"

type Watcher struct{ subs []chan<- string }

// Notify subscribes c; delivery never blocks, so c needs a buffer.
func (w *Watcher) Notify(c chan<- string) { w.subs = append(w.subs, c) }

func (w *Watcher) emit(ev string) {
	for _, c := range w.subs {
		select {
		case c <- ev:
		default: // subscriber not ready: dropped
		}
	}
}

func (w *Watcher) Start(path string) {
	go w.emit("created " + path)
}

func TestWatch(t *testing.T) {
	var w Watcher
	events := make(chan string) // should be make(chan string, 1)
	w.Notify(events)
	w.Start("a.txt")
	if ev := <-events; ev != "created a.txt" {
		t.Fatalf("event %q", ev)
	}
}
