package machine

import (
	"strings"
	"testing"
)

func TestFault(t *testing.T) {
	for _, c := range []struct {
		out, want string
	}{
		{"# example.com/m/a\ncompile: writing output: write $WORK/b001/_pkg_.a: no space left on device\n", "the disk is full: compile: writing output"},
		{"go: creating work dir: mkdir /tmp/go-build123: No space left on device\n", "the disk is full: go: creating work dir"},
		{"# example.com/m/a\n/usr/local/go/pkg/tool/linux_amd64/compile: signal: killed\n", "a process was killed"},
		{"fatal error: runtime: out of memory\n", "the machine is out of memory"},
		{"go build example.com/m/a: open /root/.cache/go-build/ab/x: too many open files\n", "the process ran out of file descriptors"},
		{"fork/exec /usr/local/go/pkg/tool/linux_amd64/compile: resource temporarily unavailable\n", "the machine cannot start more processes"},
		{"go: downloading go1.27.3 (linux/amd64)\ngo: download go1.27.3 for linux/amd64: toolchain not available\n", "the Go toolchain the module asks for could not be downloaded: go: download go1.27.3"},
		{"go: go.mod requires go >= 1.99 (running go 1.26.8; GOTOOLCHAIN=local)\n", "the module asks for a newer Go"},
		{"go: example.com/x@v1.0.0: Get \"https://proxy.golang.org/example.com/x/@v/v1.0.0.mod\": dial tcp 142.250.0.1:443: i/o timeout\n", "the network failed"},
	} {
		if got := Fault(c.out); !strings.HasPrefix(got, c.want) {
			t.Errorf("Fault(%q) = %q, want it to start %q", c.out, got, c.want)
		}
	}
	// The code's: compiler errors (whatever their identifiers say), a
	// module that does not exist, a test that fails.
	for _, out := range []string{
		"# example.com/m/a\na/a.go:3:23: cannot use \"one\" (untyped string constant) as int value in return statement\n",
		"a/a.go:9:2: undefined: signalKilled\n",
		"go: example.com/x@v1.0.0: reading https://proxy.golang.org/example.com/x/@v/v1.0.0.mod: 404 Not Found\n",
		"--- FAIL: TestX (0.00s)\n    x_test.go:9: disk is full, want space\n",
	} {
		if got := Fault(out); got != "" {
			t.Errorf("Fault(%q) = %q, want none: the code's", out, got)
		}
	}
}
