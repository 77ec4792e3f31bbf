package rt

import (
	"testing"
	"time"
)

// Whether a blocked select had queued when a buffered send came (it parked
// at an earlier virtual time: handOff, completes) is timing in a
// recording: under load the scheduler gives up waiting for a slow
// goroutine, takes it back later, after the clock moved, and the send
// finds no one queued. A replay pairs as its recording did, whenever its
// own goroutines parked. Both tests make the recording's last send of
// pacedBody the case load makes (the other pairing than their own replay
// would judge) and replay it, without load.

// TestReplayUnpairedSend: the recording's send found the test's select
// not yet queued (no partner; the select took the value at its own
// decision after), at a decision that moved the clock, so the replay's
// select, parked before it, looks queued. Without following the
// recording the replay paired them and ended a decision short ("the run
// ended after 8 of the schedule's 9 decisions").
func TestReplayUnpairedSend(t *testing.T) {
	var handler, took time.Duration
	var ticks int
	body := pacedBody(&handler, &took, &ticks)
	rec := recordPaced(t, &handler, body)
	recTicks := ticks
	at, sel := lastSend(t, rec.Decisions)
	ds := append([]Decision(nil), rec.Decisions[:at+1]...)
	ds[at].Partner, ds[at].Clock = nil, clockBefore(ds, at)+int64(time.Millisecond)
	first := 0
	ds = append(ds, Decision{G: 0, Site: rec.Decisions[sel].Site, Op: opSelect.String(), Obj: rec.Decisions[sel].Obj, Choice: &first})
	rec.Decisions = ds
	if f := replaySlower(t, &handler, body, rec, &ticks, recTicks); f != "" {
		t.Error(f)
	}
}

// TestReplayPairedSend: the recording's send found the select queued (a
// partner) at a decision that did not move the clock, so the replay's
// select, parked at the same virtual time, does not look queued. Without
// following the recording the replay left the value in the buffer and
// wanted a decision more than the schedule has.
func TestReplayPairedSend(t *testing.T) {
	var handler, took time.Duration
	var ticks int
	body := pacedBody(&handler, &took, &ticks)
	rec := recordPaced(t, &handler, body)
	recTicks := ticks
	at, _ := lastSend(t, rec.Decisions)
	ds := append([]Decision(nil), rec.Decisions[:at+1]...)
	test := 0
	ds[at].Partner, ds[at].Clock = &test, 0
	rec.Decisions = ds
	if f := replaySlower(t, &handler, body, rec, &ticks, recTicks); f != "" {
		t.Error(f)
	}
}

// lastSend finds, in a schedule of pacedBody, the response's send (g1's)
// and a select of the test's goroutine.
func lastSend(t *testing.T, ds []Decision) (at, sel int) {
	at, sel = -1, -1
	for i, d := range ds {
		switch {
		case d.G == 1 && d.Op == opSend.String():
			at = i
		case d.G == 0 && d.Op == opSelect.String():
			sel = i
		}
	}
	if at < 0 || sel < 0 || at < len(ds)-2 {
		t.Fatalf("want g1's send last or before g0's last select, and a select of g0's, in %+v", ds)
	}
	return at, sel
}

// clockBefore is the latest clock the decisions before at carry.
func clockBefore(ds []Decision, at int) int64 {
	var c int64
	for _, d := range ds[:at] {
		c = max(c, d.Clock)
	}
	return c
}
