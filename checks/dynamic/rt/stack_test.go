package rt

import (
	"strings"
	"testing"
	"time"
)

// TestStackLeavesOutTool: a dump of every goroutine taken under control
// shows the program's goroutines (the caller first, without Stack's frame)
// and none of the tool's: the scheduler, the driver.
func TestStackLeavesOutTool(t *testing.T) {
	var dump, own string
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		done := make(chan struct{})
		Go(func() { Recv(done) })
		buf := make([]byte, 1<<20)
		dump = string(buf[:Stack(buf, true)])
		own = string(buf[:Stack(buf, false)])
		Close(done)
	}, nil)
	if rs[0].Outcome != "pass" {
		t.Fatalf("schedule: %+v", rs[0])
	}
	for _, d := range []string{dump, own} {
		first := strings.SplitN(d, "\n", 3)
		if len(first) < 2 || !strings.Contains(first[1], "TestStackLeavesOutTool.func") {
			t.Errorf("first frame is not the caller's:\n%s", d)
		}
	}
	if strings.Contains(dump, "(*sched).loop") || strings.Contains(dump, "RunSchedule(") {
		t.Errorf("the tool's goroutines are in the dump:\n%s", dump)
	}
	// The test's, its child and go test's main goroutine.
	if n := strings.Count("\n"+dump, "\ngoroutine "); n != 3 {
		t.Errorf("%d goroutines in the dump, want 3:\n%s", n, dump)
	}
}
