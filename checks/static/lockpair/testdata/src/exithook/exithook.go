// Package exithook calls exit hooks whose values come from other
// packages only (os.Exit, exitdep.Die): no function of the package calls
// them directly, so only the no-return facts of those packages say that
// a call through the hook ends the path (k8s.io/klog/v2's OsExit).
package exithook

import (
	"os"
	"sync"

	"exitdep"
)

// OsExit may be replaced by tests; it should not simply return.
var OsExit = os.Exit // want OsExit:"noreturn"

var die = exitdep.Die

var warn = exitdep.Warn

type logger struct {
	mu      sync.Mutex
	noStack bool
	out     []string
}

// output is klog's shape: the second Unlock is reached only on the path
// that did not call OsExit.
func (l *logger) output(fatal bool) {
	l.mu.Lock()
	if fatal {
		if l.noStack {
			l.mu.Unlock()
			OsExit(1)
		}
		l.out = append(l.out, "stacks")
		l.mu.Unlock()
		OsExit(255)
	}
	l.mu.Unlock()
}

func (l *logger) outputDie(fatal bool) {
	l.mu.Lock()
	if fatal {
		l.mu.Unlock()
		die(2)
	}
	l.mu.Unlock()
}

// outputWarn's hook returns: the second Unlock follows the first.
func (l *logger) outputWarn(fatal bool) {
	l.mu.Lock()
	if fatal {
		l.mu.Unlock()
		warn(2)
	}
	l.mu.Unlock() // want `l.mu unlocked but not held: it was already released at line 56 on this path`
}

// outputDep calls another package's exit hook: the path ends there.
func (l *logger) outputDep(fatal bool) {
	l.mu.Lock()
	if fatal {
		l.mu.Unlock()
		exitdep.Exit(1)
	}
	l.mu.Unlock()
}

// outputNotify's hook of another package returns.
func (l *logger) outputNotify(fatal bool) {
	l.mu.Lock()
	if fatal {
		l.mu.Unlock()
		exitdep.Notify(1)
	}
	l.mu.Unlock() // want `l.mu unlocked but not held: it was already released at line 76 on this path`
}

// fatalf ends every path in OsExit: a call of it ends the path.
func fatalf(format string) {
	println(format)
	OsExit(1)
}

// fatalfDeep ends every path in fatalf.
func fatalfDeep(format string) {
	if format == "" {
		fatalf("empty")
	}
	fatalf(format)
}

// maybeExit returns when code is 0.
func maybeExit(code int) {
	if code != 0 {
		OsExit(code)
	}
}

func (l *logger) outputFatalf(fatal bool) {
	l.mu.Lock()
	if fatal {
		l.mu.Unlock()
		fatalfDeep("fatal")
	}
	l.mu.Unlock()
}

// outputFlushAndExit: klog.FlushAndExit, another package's function that
// ends in its exit hook.
func (l *logger) outputFlushAndExit(fatal bool) {
	l.mu.Lock()
	if fatal {
		l.mu.Unlock()
		exitdep.FlushAndExit(1)
	}
	l.mu.Unlock()
}

func (l *logger) outputMaybe(fatal bool) {
	l.mu.Lock()
	if fatal {
		l.mu.Unlock()
		maybeExit(1)
	}
	l.mu.Unlock() // want `l.mu unlocked but not held: it was already released at line \d+ on this path`
}

func (l *logger) outputMaybeDep(fatal bool) {
	l.mu.Lock()
	if fatal {
		l.mu.Unlock()
		exitdep.MaybeExit(1)
	}
	l.mu.Unlock() // want `l.mu unlocked but not held: it was already released at line \d+ on this path`
}
