// Package oncevaluereentry: a client's settings load lazily through
// sync.OnceValue; when they are not there yet the loader logs, and the
// logger reads the settings through the same OnceValue: re-entered, it
// waits for itself.
package oncevaluereentry

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

type Client struct {
	source   atomic.Pointer[string]
	settings func() map[string]string
	logged   []string
}

func NewClient() *Client {
	c := &Client{}
	c.settings = sync.OnceValue(c.load)
	return c
}

func (c *Client) load() map[string]string {
	p := c.source.Load()
	if p == nil {
		c.logf("settings: none yet, using defaults")
		return map[string]string{"level": "info"}
	}
	m := map[string]string{}
	for _, kv := range strings.Split(*p, ",") {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}

func (c *Client) logf(msg string) {
	if c.settings()["level"] == "quiet" { // re-enters the OnceValue
		return
	}
	c.logged = append(c.logged, msg)
}

func TestSettings(t *testing.T) {
	c := NewClient()
	started := make(chan struct{})
	go func() {
		close(started)
		s := "level=debug"
		c.source.Store(&s)
	}()
	<-started
	if lv := c.settings()["level"]; lv == "" {
		t.Fatal("no level")
	}
}
