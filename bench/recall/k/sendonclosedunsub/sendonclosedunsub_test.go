// Package sendonclosedunsub: publish copies the subscribers under the lock
// and sends after unlocking, while unsubscribe closes the channel.
package sendonclosedunsub

import (
	"sync"
	"testing"
)

type bus struct {
	mu   sync.Mutex
	subs map[int]chan string
}

func (b *bus) subscribe(id int) <-chan string {
	ch := make(chan string, 4)
	b.mu.Lock()
	b.subs[id] = ch
	b.mu.Unlock()
	return ch
}

func (b *bus) unsubscribe(id int) {
	b.mu.Lock()
	close(b.subs[id])
	delete(b.subs, id)
	b.mu.Unlock()
}

func (b *bus) publish(msg string) {
	b.mu.Lock()
	var targets []chan string
	for _, ch := range b.subs {
		targets = append(targets, ch)
	}
	b.mu.Unlock()
	for _, ch := range targets {
		ch <- msg // send on closed channel after a concurrent unsubscribe
	}
}

func TestPublish(t *testing.T) {
	b := &bus{subs: map[int]chan string{}}
	ch := b.subscribe(1)
	done := make(chan struct{})
	go func() { b.publish("hello"); close(done) }()
	b.unsubscribe(1)
	<-done
	for range ch {
	}
}
