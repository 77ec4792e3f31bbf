package rt

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// timerPool is a package-level pool of timers, as yamux's: New makes a
// timer, a scheduling point under control.
var (
	timerPoolNews int
	timerPool     = sync.Pool{New: func() any { timerPoolNews++; return NewTimer(time.Hour) }}
)

// TestPoolFreshEachSchedule: a pool starts every schedule empty, whatever
// earlier schedules of the process put in it, so every schedule of a
// Get-Reset-Put body makes the same decisions as the first (which a fresh
// process makes): a schedule found late in a process replays alone.
// Inside one schedule, what is put is got again.
func TestPoolFreshEachSchedule(t *testing.T) {
	timerPoolNews = 0
	var again []bool
	rs := RunSchedules(t, Config{Schedules: 4, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		tm := PoolGet(&timerPool).(*time.Timer)
		TimerReset(tm, time.Minute)
		TimerStop(tm)
		PoolPut(&timerPool, tm)
		got := PoolGet(&timerPool)
		again = append(again, got == any(tm))
		PoolPut(&timerPool, got) // left for the next schedule
	}, nil)
	if len(rs) != 4 {
		t.Fatalf("%d schedules, want 4", len(rs))
	}
	for i, r := range rs {
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: %+v", i, r)
		}
		if ops(r.Decisions) != ops(rs[0].Decisions) {
			t.Errorf("schedule %d decided %s, the first %s: the pool carried a timer over", i, ops(r.Decisions), ops(rs[0].Decisions))
		}
		if !again[i] {
			t.Errorf("schedule %d: Get after Put did not return the timer put", i)
		}
	}
	if timerPoolNews != 4 {
		t.Errorf("New called %d times in 4 schedules, want once each", timerPoolNews)
	}
	// Outside a schedule it is the real pool.
	before := timerPoolNews
	if tm, ok := PoolGet(&timerPool).(*time.Timer); !ok || tm == nil || timerPoolNews != before+1 {
		t.Errorf("outside a schedule: Get = %v, New called %d times", tm, timerPoolNews-before)
	}
	var empty sync.Pool
	if x := PoolGet(&empty); x != nil {
		t.Errorf("Get of an empty pool without New = %v", x)
	}
	PoolPut(&empty, nil) // as sync.Pool: ignored
}

func ops(ds []Decision) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Op + ";")
	}
	return b.String()
}

// TestPoolRaceChild is run in a subprocess: a goroutine writes a buffer
// and puts it in a pool, the test goroutine gets it and writes it (mode
// "handed": ordered, as by sync.Pool), or writes a variable the other
// wrote after using another pool (mode "unrelated": a race the pools must
// not hide, as a lock around them all would).
func TestPoolRaceChild(t *testing.T) {
	mode := os.Getenv("RT_POOL_CHILD")
	if mode == "" {
		t.Skip("subprocess helper")
	}
	var pool, other sync.Pool
	RunSchedules(t, Config{Schedules: 5, Seed: 3, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		x := 0
		done := make(chan struct{})
		buf := new([4]int)
		Go(func() {
			buf[0] = 1
			x = 1
			PoolPut(&pool, buf)
			Close(done)
		})
		if mode == "handed" {
			for {
				if b, ok := PoolGet(&pool).(*[4]int); ok {
					b[0] = 2
					break
				}
				Gosched()
			}
		} else {
			PoolGet(&other)
			Gosched()
			x = 2
		}
		Recv(done)
		_ = x
	}, nil)
}

func TestPoolRaceDetector(t *testing.T) {
	if !raceEnabled {
		t.Skip("needs -race")
	}
	if os.Getenv("RT_POOL_CHILD") != "" {
		t.Skip()
	}
	run := func(mode string) string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestPoolRaceChild$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "RT_POOL_CHILD="+mode)
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	if out := run("handed"); strings.Contains(out, "WARNING: DATA RACE") || !strings.Contains(out, "--- PASS: TestPoolRaceChild") {
		t.Errorf("a buffer handed over through the pool: race reported or the child failed:\n%s", out)
	}
	if out := run("unrelated"); !strings.Contains(out, "WARNING: DATA RACE") {
		t.Errorf("a race around a pool's Get and Put not reported:\n%s", out)
	} else if strings.Contains(out, "/pool.go") {
		t.Errorf("race report involves the runtime's pool:\n%s", out)
	}
}
