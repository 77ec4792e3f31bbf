package rt

import (
	"context"
	"fmt"
	"io"
	"net"
	"testing"
	"time"
)

// pipeGuarded is coder/websocket's TestConn in rt's calls: a client and a
// server goroutine exchange n messages over a net.Pipe (the standard
// library's, not under control), each read and write guarded by a context
// of 100ms whose AfterFunc closes the connection. Under go test an exchange
// takes microseconds. With short, the server reads one message fewer: the
// client's last write waits until its guard closes the pipe, under go test
// too.
func pipeGuarded(n int, short bool, got *error) func(t *testing.T) {
	return func(t *testing.T) {
		*got = nil
		a, b := net.Pipe()
		guarded := func(c net.Conn, op func() error) error {
			ctx, cancel := WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			stop := ContextAfterFunc(ctx, func() { c.Close() })
			err := op()
			stop()
			return err
		}
		errs := make(chan error, 1)
		Go(func() {
			buf := make([]byte, 8)
			m := n
			if short {
				m--
			}
			for i := 0; i < m; i++ {
				if err := guarded(b, func() error { _, err := io.ReadFull(b, buf); return err }); err != nil {
					Send(errs, fmt.Errorf("server read %d: %w", i, err))
					return
				}
				if err := guarded(b, func() error { _, err := b.Write(buf); return err }); err != nil {
					Send(errs, fmt.Errorf("server write %d: %w", i, err))
					return
				}
			}
			Send(errs, nil)
		})
		msg, buf := []byte("12345678"), make([]byte, 8)
		for i := 0; i < n; i++ {
			if err := guarded(a, func() error { _, err := a.Write(msg); return err }); err != nil {
				*got = fmt.Errorf("client write %d: %w", i, err)
				break
			}
			if err := guarded(a, func() error { _, err := io.ReadFull(a, buf); return err }); err != nil {
				*got = fmt.Errorf("client read %d: %w", i, err)
				break
			}
		}
		if err := Recv(errs); err != nil && *got == nil {
			*got = err
		}
		a.Close()
		b.Close()
	}
}

// slowScheduler makes each decision take d more of real time, as a loaded
// machine stretches the scheduler's own work (coder/websocket's TestConn
// failed so at load 13-27).
func slowScheduler(t *testing.T, d time.Duration) {
	beforeDecision = func() { time.Sleep(d) }
	t.Cleanup(func() { beforeDecision = nil })
}

// TestClockPipeIsNotOutsideWorld: goroutines blocked in a net.Pipe wait for
// each other, not for the outside world: the clock must not keep pace with
// the real time the scheduler spends meanwhile. Before, keepPace counted
// it (the pipe's select taken for a real wait), and with 5ms a decision
// every schedule's guards closed the pipe ("io: read/write on closed
// pipe"); coder/websocket's Ping failed so with "use of closed network
// connection".
func TestClockPipeIsNotOutsideWorld(t *testing.T) {
	slowScheduler(t, 50*time.Millisecond)
	var got error
	RunSchedules(t, Config{Schedules: 3, Seed: 1, StepTimeout: 5 * time.Second}, pipeGuarded(3, false, &got), func(r Result) bool {
		var clock int64
		for _, d := range r.Decisions {
			clock = max(clock, d.Clock)
		}
		t.Logf("schedule %d: %d decisions, clock %v", r.Index, len(r.Decisions), time.Duration(clock))
		if r.Outcome != "pass" || got != nil {
			t.Errorf("schedule %d: %s %q: %v", r.Index, r.Outcome, r.Message, got)
		}
		return true
	})
}

// TestClockPipeHangStillFails: the near miss. The server reads one message
// short: the client's last write waits in the pipe with nothing else to
// run, and its guard must still fire (the clock jumps to it, as when every
// goroutine outside control waits on a mock clock) and close the pipe, as
// under go test, in every schedule and in the replay of one.
func TestClockPipeHangStillFails(t *testing.T) {
	var got error
	want := "client write 2: io: read/write on closed pipe"
	rs := RunSchedules(t, Config{Schedules: 3, Seed: 1, StepTimeout: 5 * time.Second}, pipeGuarded(3, true, &got), func(r Result) bool {
		if r.Outcome != "pass" || got == nil || got.Error() != want {
			t.Errorf("schedule %d: %s %q: %v, want %q", r.Index, r.Outcome, r.Message, got, want)
		}
		return true
	})
	r := rs[0]
	sch := &Schedule{Version: ScheduleVersion, Test: "pipeGuarded", Seed: r.Seed, Decisions: r.Decisions}
	rep := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, sch, pipeGuarded(3, true, &got))
	if rep.Outcome != "pass" || rep.Diverged != "" || got == nil || got.Error() != want {
		t.Fatalf("replay: %s (diverged %q): %v, want %q", rep.Outcome, rep.Diverged, got, want)
	}
}
