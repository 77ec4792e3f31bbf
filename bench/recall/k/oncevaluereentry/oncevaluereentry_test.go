// Package oncevaluereentry: a sync.OnceValue's function logs when the
// settings are not there yet, and the logger reads the settings through
// the same OnceValue: re-entered, it waits for itself.
package oncevaluereentry

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

var source atomic.Pointer[string]

// settings is set in init: logf's use of it would be an initialization
// cycle in its declaration.
var settings func() map[string]string

func init() { settings = sync.OnceValue(loadSettings) }

func loadSettings() map[string]string {
	p := source.Load()
	if p == nil {
		logf("settings: none yet, using defaults")
		return map[string]string{"level": "info"}
	}
	m := map[string]string{}
	for _, kv := range strings.Split(*p, ",") {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}

var logged []string

func logf(msg string) {
	if settings()["level"] == "quiet" { // re-enters the OnceValue
		return
	}
	logged = append(logged, msg)
}

func TestSettings(t *testing.T) {
	started := make(chan struct{})
	go func() {
		close(started)
		s := "level=debug"
		source.Store(&s)
	}()
	<-started
	if lv := settings()["level"]; lv == "" {
		t.Fatal("no level")
	}
}
