package leakcheck

import (
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"
)

// TestMain fails the package when goroutines started by its tests are
// still alive after them (waiting for those that are ending, as goleak
// does, for up to a minute).
func TestMain(m *testing.M) {
	before := runtime.NumGoroutine()
	code := m.Run()
	for i := 0; runtime.NumGoroutine() > before; i++ {
		if i == 600 {
			buf := make([]byte, 1<<16)
			fmt.Fprintf(os.Stderr, "goroutines left after the tests:\n%s\n", buf[:runtime.Stack(buf, true)])
			os.Exit(1)
		}
		time.Sleep(100 * time.Millisecond)
	}
	os.Exit(code)
}
