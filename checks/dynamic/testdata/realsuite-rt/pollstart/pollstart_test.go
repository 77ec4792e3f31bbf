package pollstart

import (
	"syscall"
	"testing"
	"time"

	"dep"
)

// A loop polls, with select default and time.Now, for a goroutine it has
// just started, while another goroutine has a 2s timer pending: the
// started goroutine must run before the 1s poll deadline passes.
func TestPollNewGoroutine(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tm := time.NewTimer(2 * time.Second)
		defer tm.Stop()
		select {
		case <-tm.C:
		case <-stop:
		}
	}()
	done := make(chan struct{}, 1)
	go func() { done <- struct{}{} }()
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			return
		default:
		}
	}
	t.Fatal("the started goroutine did not run within the 1s poll")
}

// A stop routine starts three waiters and polls their results until a 1s
// timeout, as a scheduler's shutdown does, while a 2s timer is pending.
func TestPollThreeWaiters(t *testing.T) {
	slow := time.NewTimer(2 * time.Second)
	defer slow.Stop()
	a, b, c := make(chan struct{}), make(chan struct{}), make(chan struct{})
	for _, ch := range []chan struct{}{a, b, c} {
		go func() { close(ch) }()
	}
	timeout := time.Now().Add(time.Second)
	count := 0
	for time.Now().Before(timeout) && count < 3 {
		select {
		case <-a:
			a = nil
			count++
		case <-b:
			b = nil
			count++
		case <-c:
			c = nil
			count++
		default:
		}
	}
	if count < 3 {
		t.Fatalf("timed out: %d of 3 waiters done", count)
	}
}

// A loop counts what arrives on a channel for one second, polling with
// select default: it must end after a second of the clock.
func TestPollForASecond(t *testing.T) {
	ch := make(chan struct{}, 1)
	deadline := time.Now().Add(time.Second)
	n := 0
	for !time.Now().After(deadline) {
		select {
		case <-ch:
			n++
		default:
		}
	}
	if n != 0 {
		t.Fatal(n)
	}
}

// A loop polls, with select default and time.Now, for a goroutine it has
// just started that first waits for a lock held outside control for 50ms
// of real time (as gocron's stop waiters first write a log line): the
// clock must not pass the 1s poll deadline meanwhile.
func TestPollStartedHeld(t *testing.T) {
	h := dep.HoldFor(50 * time.Millisecond)
	done := make(chan struct{}, 1)
	go func() {
		h.Use()
		done <- struct{}{}
	}()
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			return
		default:
		}
	}
	t.Fatal("the started goroutine did not run within the 1s poll")
}

// The same with a started goroutine that first makes a system call taking
// 50ms of real time (a log line written to a slow pipe, as gocron's
// executor does before it runs a job).
func TestPollStartedInSyscall(t *testing.T) {
	done := make(chan struct{}, 1)
	go func() {
		ts := syscall.NsecToTimespec(int64(50 * time.Millisecond))
		syscall.Nanosleep(&ts, nil)
		done <- struct{}{}
	}()
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			return
		default:
		}
	}
	t.Fatal("the started goroutine did not run within the 1s poll")
}

// The same with a worker that, handed a job, first checks a stop channel
// with select default (as gocron's executor does) before it runs the job:
// a select with default reached once is not a spin, and the worker gets
// its turn before the poll's clock moves on.
func TestPollWorkerChecksStop(t *testing.T) {
	stop, work, done := make(chan struct{}), make(chan int), make(chan struct{}, 1)
	defer close(work)
	go func() {
		for range work {
			select {
			case <-stop:
				return
			default:
			}
			done <- struct{}{}
		}
	}()
	work <- 1
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			return
		default:
		}
	}
	t.Fatal("the worker did not run the job within the 1s poll")
}

// A goroutine polls with select default until its own 1s deadline (as
// gocron's executor waits for its jobs when it stops) while its caller
// waits for it with a 2s timer: the clock the poll reads passes its
// deadline before the caller's timer fires.
func TestPollDeadlineBeforeTimer(t *testing.T) {
	never, res := make(chan struct{}), make(chan struct{}, 1)
	go func() {
		deadline := time.Now().Add(time.Second)
		for time.Now().Before(deadline) {
			select {
			case <-never:
			default:
			}
		}
		res <- struct{}{}
	}()
	select {
	case <-res:
	case <-time.After(2 * time.Second):
		t.Fatal("the 1s poll had not ended when the 2s timer fired")
	}
}
