package rt

import (
	"strings"
	"testing"
	"time"
)

func TestGoroutineAt(t *testing.T) {
	dump := "goroutine 7 [running]:\n" +
		"example.com/p.spin(...)\n\t/src/p/p_test.go:9 +0x1d\n" +
		"testing.tRunner(0xc0001, 0x5)\n\t" + stdSrc + "testing/testing.go:1934 +0x93\n\n" +
		"goroutine 12 [IO wait, 2 minutes]:\n" +
		"internal/poll.runtime_pollWait(0x7f, 0x72)\n\t" + stdSrc + "runtime/netpoll.go:351 +0x85\n" +
		"os.(*File).Read(0xc000, {0xc00, 0x1, 0x1})\n\t" + stdSrc + "os/file.go:144 +0x4f\n" +
		"example.com/p.TestRead(0xc0002)\n\t/src/p/p_test.go:24 +0x8a\n\n" +
		"goroutine 120 [select]:\n" +
		"example.com/p.other()\n\t/src/p/p.go:3 +0x1\n"
	tests := []struct {
		gid         uint64
		state, site string
	}{
		{7, "running", "/src/p/p_test.go:9"},
		{12, "IO wait", "/src/p/p_test.go:24"},
		{120, "select", "/src/p/p.go:3"},
		{1, "", ""}, // not in the dump; must not match goroutine 12 or 120
	}
	for _, tt := range tests {
		state, site, stack := goroutineAt(dump, tt.gid)
		if state != tt.state || site != tt.site {
			t.Errorf("goroutine %d: got %q at %q, want %q at %q (stack %q)", tt.gid, state, site, tt.state, tt.site, stack)
		}
	}
	if stdSrc == "" {
		t.Error("stdSrc is empty: standard library frames cannot be told from user frames")
	}
	if got := stuckWhy("IO wait"); got != "IO wait: blocked outside the scheduler's control" {
		t.Errorf("stuckWhy(IO wait) = %q", got)
	}
}

// TestStarvedMore: a goroutine computing past the step timeout is waited
// for longer only while the process got less CPU time than the timeout,
// up to a bound, and never past the end of the run.
func TestStarvedMore(t *testing.T) {
	defer func(f func() (time.Duration, bool)) { cpuNow = f }(cpuNow)
	cpu := 10 * time.Second
	cpuNow = func() (time.Duration, bool) { return cpu, true }
	s := &sched{timeout: 4 * time.Second}
	if got := s.starvedMore(9*time.Second, 4*time.Second); got != time.Second {
		t.Errorf("starved (1s of CPU in a 4s limit): %v more, want 1s", got)
	}
	if got := s.starvedMore(6*time.Second, 4*time.Second); got != 0 {
		t.Errorf("4s of CPU used: %v more, want none", got)
	}
	if got := s.starvedMore(9*time.Second, maxStarvedStretch*4*time.Second); got != 0 {
		t.Errorf("stretched to the bound: %v more, want none", got)
	}
	s.cfg.Deadline = time.Now().Add(-time.Second)
	if got := s.starvedMore(9*time.Second, 4*time.Second); got != 0 {
		t.Errorf("past the end of the run: %v more, want none", got)
	}
	s.cfg.Deadline = time.Time{}
	cpuNow = func() (time.Duration, bool) { return 0, false }
	if got := s.starvedMore(0, 4*time.Second); got != 0 {
		t.Errorf("CPU time unknown: %v more, want none", got)
	}
}

// TestHeldBackNamesFew: a hang's message names a few of the goroutines
// that could have run and counts the rest (860 of them made a 21 KB note).
func TestHeldBackNamesFew(t *testing.T) {
	s := &sched{}
	for i := 0; i < 100; i++ {
		s.gs = append(s.gs, &gstate{id: i, parked: true, req: request{op: opStart}})
	}
	got := s.heldBack(s.gs[0])
	if n := strings.Count(got, "not started yet"); n != 8 {
		t.Errorf("%d goroutines named, want 8: %s", n, got)
	}
	if !strings.HasSuffix(got, ", and 91 more") {
		t.Errorf("the rest not counted: %s", got)
	}
}
