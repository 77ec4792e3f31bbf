// The program's timer channel semantics: Go 1.23's, or the ones before.

package rt

import (
	"os"
	"runtime/debug"
	"strings"
)

// asyncTimerChan: the program's timers have the channels of Go before
// 1.23 (GODEBUG asynctimerchan=1: the default of a main module whose go
// line is older than 1.23, or set by a //go:debug line of a test file or
// by the environment). Stop and Reset then leave a value the timer already
// sent in C, and report such a timer as expired: code that stops or
// resets without draining reads a stale value.
var asyncTimerChan = timerChanAsync(os.Getenv("GODEBUG"), defaultGODEBUG(debug.ReadBuildInfo()))

// defaultGODEBUG is the binary's default GODEBUG (the go line and the
// //go:debug lines it was built with), from its build information.
func defaultGODEBUG(bi *debug.BuildInfo, ok bool) string {
	if !ok {
		return ""
	}
	for _, s := range bi.Settings {
		if s.Key == "DefaultGODEBUG" {
			return s.Value
		}
	}
	return ""
}

// timerChanAsync reports whether asynctimerchan is 1 in env or, when env
// does not set it, in def (both k=v,k=v lists; a later setting wins).
func timerChanAsync(env, def string) bool {
	for _, s := range []string{env, def} {
		if v, ok := godebugValue(s, "asynctimerchan"); ok {
			return v == "1"
		}
	}
	return false
}

// godebugValue is key's last value in the GODEBUG list s.
func godebugValue(s, key string) (string, bool) {
	val, found := "", false
	for _, kv := range strings.Split(s, ",") {
		if k, v, ok := strings.Cut(strings.TrimSpace(kv), "="); ok && k == key {
			val, found = v, true
		}
	}
	return val, found
}
