// Package ctxafterfuncstop: a watcher registers a context.AfterFunc that
// posts a notice; Close calls the stop function and closes the notice
// channel, ignoring stop's result. When the context was canceled first,
// the function has been started and sends on the closed channel.
package ctxafterfuncstop

import (
	"context"
	"testing"
)

type watcher struct {
	notices chan string
	stop    func() bool
}

func watch(ctx context.Context) *watcher {
	w := &watcher{notices: make(chan string, 1)}
	w.stop = context.AfterFunc(ctx, func() { w.notices <- "canceled" })
	return w
}

func (w *watcher) Close() {
	w.stop() // false: the function has been started
	close(w.notices)
}

func TestClose(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	w := watch(ctx)
	go cancel() // the client goes away
	w.Close()
	for range w.notices {
	}
}
