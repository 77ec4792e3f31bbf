package bad

import (
	"os"
	"sync"
)

// exitFunc starts as os.Exit, but SetExitFunc stores a function of the
// caller's: a call through it may return.
var exitFunc = os.Exit

func SetExitFunc(f func(int)) { exitFunc = f }

// onFatal's only value returns.
var onFatal = func(code int) { println("fatal", code) }

// exitRef starts as os.Exit, but its address is handed out.
var exitRef = os.Exit

func hookAddr() *func(int) { return &exitRef }

type logger struct {
	mu  sync.Mutex
	out []string
}

func (l *logger) fatal(msg string) {
	l.mu.Lock()
	if msg == "" {
		l.mu.Unlock()
		exitFunc(1)
	}
	l.out = append(l.out, msg)
	l.mu.Unlock() // want `l.mu unlocked but not held: it was already released at line 30 on this path`
}

func (l *logger) fatalHook(msg string) {
	l.mu.Lock()
	if msg == "" {
		l.mu.Unlock()
		onFatal(1)
	}
	l.mu.Unlock() // want `l.mu unlocked but not held: it was already released at line 40 on this path`
}

func (l *logger) fatalRef(msg string) {
	l.mu.Lock()
	if msg == "" {
		l.mu.Unlock()
		exitRef(1)
	}
	l.mu.Unlock() // want `l.mu unlocked but not held: it was already released at line 49 on this path`
}
