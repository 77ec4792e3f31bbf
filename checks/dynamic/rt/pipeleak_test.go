package rt

import (
	"io"
	"strings"
	"testing"
	"time"
)

// TestPipeWriterStranded: a goroutine writing to an io.Pipe whose reader
// took one record and returned without closing it blocks in the standard
// library for good: once the test returned and nothing else can happen,
// that is a leak naming the write, not a goroutine left behind like a read
// loop on an open connection. (It was abandoned and the schedule passed.)
// A writer whose reader closes the pipe ends, and the schedule passes.
func TestPipeWriterStranded(t *testing.T) {
	cfg := Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 10 * time.Second}
	var left *io.PipeReader
	gone := make(chan struct{}) // closed by the writer, not under control
	rs := RunSchedules(t, cfg, func(t *testing.T) {
		pr, pw := io.Pipe()
		left = pr
		Go(func() {
			defer close(gone)
			for range 3 {
				if _, err := pw.Write([]byte("record\n")); err != nil {
					return
				}
			}
			pw.Close()
		})
		buf := make([]byte, 64)
		if _, err := pr.Read(buf); err != nil {
			t.Error(err)
		}
	}, nil)
	// The writer must not stay behind in the tests that follow.
	left.Close()
	<-gone
	if len(rs) != 1 || rs[0].Outcome != "leak" || !strings.HasPrefix(rs[0].Message, LeakBlocked) {
		t.Fatalf("want a leak of the stranded writer, got %+v", rs)
	}
	if !strings.Contains(rs[0].Message, "g1 outside the scheduler (select) at ") || rs[0].Site == "" {
		t.Errorf("leak %q at %q, want it to name the writer and where it is", rs[0].Message, rs[0].Site)
	}

	rs = RunSchedules(t, cfg, func(t *testing.T) {
		pr, pw := io.Pipe()
		Go(func() {
			for range 3 {
				if _, err := pw.Write([]byte("record\n")); err != nil {
					return
				}
			}
			pw.Close()
		})
		buf := make([]byte, 64)
		if _, err := pr.Read(buf); err != nil {
			t.Error(err)
		}
		pr.Close()
	}, nil)
	if len(rs) != 1 || rs[0].Outcome != "pass" {
		t.Fatalf("want the schedule whose reader closes the pipe to pass, got %+v", rs)
	}
}
