package hang

import (
	"io"
	"testing"
)

// TestIOPipe is correct: a goroutine writes to an io.Pipe the test reads.
// io.Pipe synchronizes inside the standard library, which is not
// instrumented: the read blocks where the scheduler cannot see it, while the
// scheduler holds the writer back. The watchdog must not call that a hang of
// the test.
func TestIOPipe(t *testing.T) {
	r, w := io.Pipe()
	go func() {
		w.Write([]byte("x"))
		w.Close()
	}()
	b, err := io.ReadAll(r)
	if err != nil || string(b) != "x" {
		t.Fatalf("read %q, %v; want x", b, err)
	}
}
