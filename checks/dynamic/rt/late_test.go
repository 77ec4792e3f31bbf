package rt

import (
	"os"
	"strings"
	"testing"
	"time"
)

// lateBody starts a goroutine that reports through t after a yield, and
// returns without waiting for it.
func lateBody(t *testing.T) {
	Go(func() {
		Gosched()
		Late(t).Errorf("worker failed")
	})
}

func lateCfg(test string, seed int64) Config {
	return Config{Test: test, Strategy: "random", Seed: seed, StepTimeout: 5 * time.Second}
}

// A goroutine that fails its test after the test returned panics as go
// test makes it panic, naming the test (not the driver's subtest); a log
// after the test returned panics too, one before it does not.
func TestLateFailure(t *testing.T) {
	// The seeds give the late order (the test goroutine does not yield
	// before it returns); a failure in time would fail this test.
	late := 0
	for i := 0; i < 20; i++ {
		r := RunSchedule(t, lateCfg("TestMine", int64(i)), 0, nil, nil, lateBody)
		switch {
		case r.Outcome == "panic":
			late++
			if r.Message != "panic: Fail in goroutine after TestMine has completed" || !strings.HasSuffix(r.Site, "late_test.go:15") {
				t.Errorf("late failure %q at %s, want the testing package's message at late_test.go:15", r.Message, r.Site)
			}
		default:
			t.Fatalf("schedule %d: %s %q at %s", i, r.Outcome, r.Message, r.Site)
		}
	}
	if late == 0 {
		t.Error("no schedule failed the test after it returned")
	}
	// Before the test returns, a log is no failure.
	for i := 0; i < 20; i++ {
		r := RunSchedule(t, lateCfg("TestWaits", int64(i)), 0, nil, nil, func(t *testing.T) {
			done := make(chan bool)
			Go(func() {
				Gosched()
				LateLog(t).Logf("worker done")
				Send(done, true)
			})
			Recv(done)
		})
		if r.Outcome != "pass" {
			t.Fatalf("a test that waits for its goroutine: %s %q, want a pass", r.Outcome, r.Message)
		}
	}
	t.Run("log", func(t *testing.T) {
		r := RunSchedule(t, lateCfg("TestLogs", 1), 0, nil, nil, func(t *testing.T) {
			Run(t, "sub", func(t *testing.T) {
				Go(func() {
					Gosched()
					LateLog(t).Logf("done %d", 7)
				})
			})
		})
		if r.Outcome != "panic" || r.Message != "panic: Log in goroutine after TestLogs/sub has completed: done 7" {
			t.Errorf("late log: %s %q", r.Outcome, r.Message)
		}
	})
}

// TestFailsAfterReturn: a goroutine the test left fails it through a
// testing.TB (not rewritten to Late) after the test returned: a
// test-failure marked AfterReturn, with what it left; one that fails it
// before it returns is not so marked.
func TestFailsAfterReturn(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	rs, out, _ := runMain(t, Config{Test: "TestFailsAfterReturn", Schedules: 1, Seed: 1, StepTimeout: 10 * time.Second})
	if len(rs) != 1 {
		t.Fatalf("%d results, want 1\n%s", len(rs), out)
	}
	r := rs[0]
	if r.Outcome != "test-failure" || !r.AfterReturn || r.Message != AfterReturnMessage || !strings.HasPrefix(r.LeftBehind, LeakBlocked) {
		t.Errorf("got %s %q (after return %v, left %q), want a test-failure after return with its blocked goroutine left", r.Outcome, r.Message, r.AfterReturn, r.LeftBehind)
	}
	rs, out, _ = runMain(t, Config{Test: "TestFailsBeforeReturn", Schedules: 1, Seed: 1, StepTimeout: 10 * time.Second})
	if len(rs) != 1 || rs[0].Outcome != "test-failure" || rs[0].AfterReturn || rs[0].Message != "test failed" {
		t.Errorf("a failure before the test returned: %+v\n%s", rs, out)
	}
}
