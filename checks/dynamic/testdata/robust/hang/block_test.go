package hang

import (
	"os"
	"testing"
)

// TestReadPipe blocks in a read on a pipe nobody writes to: the read is
// not a synchronization operation the rewriter knows, so the scheduler
// cannot see why the goroutine does not come back.
func TestReadPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	done := make(chan bool, 1)
	go func() {
		done <- true
	}()
	<-done
	buf := make([]byte, 1)
	if _, err := r.Read(buf); err != nil {
		t.Fatal(err)
	}
}
