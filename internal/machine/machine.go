// Package machine tells a go command that failed for the machine's sake (a
// full disk, no memory, a process killed, no file descriptors, a network or
// toolchain download that failed) from one that failed for the code's: a
// build that fails so says nothing about the change, and is never told as
// the code not compiling.
package machine

import "strings"

// fault is one way a machine fails a command: words in its output, and
// what they mean.
type fault struct {
	words []string // all of them, case-insensitive, on one line
	what  string
}

var faults = []fault{
	{[]string{"no space left on device"}, "the disk is full"},
	{[]string{"disk quota exceeded"}, "the disk quota is used up"},
	{[]string{"cannot allocate memory"}, "the machine is out of memory"},
	{[]string{"fatal error: runtime: out of memory"}, "the machine is out of memory"},
	{[]string{"signal: killed"}, "a process was killed (out of memory, or stopped from outside)"},
	{[]string{"too many open files"}, "the process ran out of file descriptors"},
	{[]string{"fork/exec", "resource temporarily unavailable"}, "the machine cannot start more processes"},
	{[]string{"read-only file system"}, "a directory it writes to is read-only"},
	{[]string{"toolchain not available"}, "the Go toolchain the module asks for could not be downloaded"},
	{[]string{"go: downloading go1", "dial tcp"}, "the Go toolchain the module asks for could not be downloaded"},
	{[]string{"go: download go1"}, "the Go toolchain the module asks for could not be downloaded"},
	{[]string{"requires go >=", "gotoolchain=local"}, "the module asks for a newer Go than this machine has (GOTOOLCHAIN=local)"},
	{[]string{"dial tcp", "i/o timeout"}, "the network failed"},
	{[]string{"dial tcp", "connection refused"}, "the network failed"},
	{[]string{"dial tcp", "network is unreachable"}, "the network failed"},
	{[]string{"tls handshake timeout"}, "the network failed"},
}

// Fault returns what about the machine made a go command fail, read from
// its output: "the disk is full: <the line that says so>"; "" when no line
// of output is the machine's (a compiler error, a test failing).
func Fault(output string) string {
	for _, line := range strings.Split(output, "\n") {
		low := strings.ToLower(line)
		for _, f := range faults {
			if all(low, f.words) {
				return f.what + ": " + strings.TrimSpace(line)
			}
		}
	}
	return ""
}

func all(s string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}
