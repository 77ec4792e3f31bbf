// Package okctxafterfuncwait: when stop reports that the function has
// been started, Close waits for it before closing the channel. Must not
// be reported.
package okctxafterfuncwait

import (
	"context"
	"testing"
)

type watcher struct {
	notices chan string
	fired   chan struct{}
	stop    func() bool
}

func watch(ctx context.Context) *watcher {
	w := &watcher{notices: make(chan string, 1), fired: make(chan struct{})}
	w.stop = context.AfterFunc(ctx, func() {
		w.notices <- "canceled"
		close(w.fired)
	})
	return w
}

func (w *watcher) Close() {
	if !w.stop() {
		<-w.fired
	}
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
