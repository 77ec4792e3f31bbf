package good

import (
	"os"
	"sync"
)

// exitHook is a package-level hook for os.Exit that tests may replace
// (k8s.io/klog/v2's OsExit: "the function should not simply return").
// Every store of it in the package is a function that never returns, so
// a call through it ends the path like a call of os.Exit.
var exitHook = os.Exit

// fatalExit, assigned in init, never returns either.
var fatalExit func(int)

func init() { fatalExit = die }

func die(code int) { os.Exit(code) }

type logger struct {
	mu      sync.Mutex
	noStack bool
	out     []string
}

// output is klog's output on a fatal message: unlock, flush, exit; the
// second Unlock is reached only on the path that did not exit.
func (l *logger) output(fatal bool, msg string) {
	l.mu.Lock()
	l.out = append(l.out, msg)
	if fatal {
		if l.noStack {
			l.mu.Unlock()
			l.flush()
			exitHook(1)
		}
		l.out = append(l.out, "stacks")
		l.mu.Unlock()
		l.flush()
		exitHook(255)
	}
	l.mu.Unlock()
}

// outputLoaded calls the hook through a local copy of it, and fatalExit.
func (l *logger) outputLoaded(fatal bool) {
	l.mu.Lock()
	if fatal {
		l.mu.Unlock()
		exit := exitHook
		exit(1)
	}
	if l.noStack {
		l.mu.Unlock()
		fatalExit(2)
	}
	l.mu.Unlock()
}

func (l *logger) flush() {}
