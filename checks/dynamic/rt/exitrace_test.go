package rt

import (
	"errors"
	"math/rand"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestExitNoToolRace: os.Exit from a timer's callback (go-deadlock's
// OnPotentialDeadlock) ends the process with the program's status and the
// schedule's result, and the race detector sees no race of the scheduler's
// own state: the result is S's to build, not the exiting goroutine's (the
// callback read S's site cache in siteAt, which S had written).
func TestExitNoToolRace(t *testing.T) {
	if ranInRaceChild(t) {
		return
	}
	if os.Getenv("RT_EXIT_CHILD") != "" {
		t.Skip()
	}
	out, err := runTestChild("TestExitRaceChild", "RT_EXIT_CHILD=1")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("child: %v, want exit status 3:\n%s", err, out)
	}
	if strings.Contains(out, "WARNING: DATA RACE") {
		t.Errorf("race reported:\n%s", out)
	}
	if !strings.Contains(out, "os.Exit(3) called during the test: the test binary ends without reporting (schedule 1)") {
		t.Errorf("no result of the exiting schedule:\n%s", out)
	}
}

// TestExitRaceChild is run in a subprocess: its first schedule passes (S
// resolves its sites when it builds the result), the second exits from a
// timer's callback.
func TestExitRaceChild(t *testing.T) {
	if os.Getenv("RT_EXIT_CHILD") == "" {
		t.Skip("subprocess helper")
	}
	run := 0
	RunSchedules(t, Config{Schedules: 2, Seed: 3, StepTimeout: 5 * time.Second, Trace: true, Targets: []string{"exitrace_test.go:61"}}, func(t *testing.T) {
		run++
		exit := run == 2
		done := make(chan struct{})
		AfterFunc(10*time.Millisecond, func() {
			Gosched() // a site S resolves after it started the callback
			if exit {
				Exit(3)
			}
			Close(done)
		})
		Go(func() { Gosched() })
		Recv(done)
	}, nil)
}

// TestSeededRandNoToolRace: after rand.Seed takes effect (GODEBUG
// randseednop=0), goroutines drawing from math/rand's top-level functions
// draw the seeded stream, and the race detector sees no race in it: go
// test orders them with math/rand's lock, and so does interleave.
func TestSeededRandNoToolRace(t *testing.T) {
	if ranInRaceChild(t) {
		return
	}
	if os.Getenv("RT_SEEDED_CHILD") != "" {
		t.Skip()
	}
	if out, err := runTestChild("TestSeededRandRaceChild", "RT_SEEDED_CHILD=1", "GODEBUG=randseednop=0"); err != nil || strings.Contains(out, "WARNING: DATA RACE") || !strings.Contains(out, "--- PASS: TestSeededRandRaceChild") {
		t.Errorf("goroutines drawing a seeded math/rand stream: race reported or the child failed (%v):\n%s", err, out)
	}
}

// TestSeededRandRaceChild is run in a subprocess: the test seeds
// math/rand, draws the stream's first value, and two goroutines draw on.
func TestSeededRandRaceChild(t *testing.T) {
	if os.Getenv("RT_SEEDED_CHILD") == "" {
		t.Skip("subprocess helper")
	}
	want := rand.New(rand.NewSource(7)).Int63()
	RunSchedules(t, Config{Schedules: 3, Seed: 3, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		MathRandSeed(7)
		if got := MathRand.Int63(); got != want {
			t.Errorf("first draw after Seed(7): %d, want the seeded stream's %d", got, want)
		}
		done := make(chan struct{})
		for range 2 {
			Go(func() {
				MathRand.Int63()
				Send(done, struct{}{})
			})
		}
		Recv(done)
		Recv(done)
	}, nil)
}
