// Package iopipeabandon: the reader of an io.Pipe stops after the first
// record without closing its end, so the writer blocks in Write forever.
package iopipeabandon

import (
	"bufio"
	"fmt"
	"io"
	"testing"
)

func TestFirstRecord(t *testing.T) {
	pr, pw := io.Pipe()
	go func() {
		for i := range 3 {
			fmt.Fprintf(pw, "record %d\n", i) // blocks: nobody reads record 1
		}
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil || line != "record 0\n" {
		t.Fatalf("got %q, %v", line, err)
	}
	// Missing: pr.Close(), which would fail the writer's next Write.
}
