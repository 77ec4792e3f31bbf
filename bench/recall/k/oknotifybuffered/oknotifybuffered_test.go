// Package oknotifybuffered: notifyunbuffered with a buffered channel.
package oknotifybuffered

import "testing"

type Watcher struct{ subs []chan<- string }

func (w *Watcher) Notify(c chan<- string) { w.subs = append(w.subs, c) }

func (w *Watcher) emit(ev string) {
	for _, c := range w.subs {
		select {
		case c <- ev:
		default:
		}
	}
}

func (w *Watcher) Start(path string) {
	go w.emit("created " + path)
}

func TestWatch(t *testing.T) {
	var w Watcher
	events := make(chan string, 1)
	w.Notify(events)
	w.Start("a.txt")
	if ev := <-events; ev != "created a.txt" {
		t.Fatalf("event %q", ev)
	}
}
