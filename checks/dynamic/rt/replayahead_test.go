package rt

import (
	"testing"
	"time"
)

// TestReplayResponseBackSooner: the replay's response comes back at once
// (its server does not wait; a loaded machine's replay is as much slower
// than the 400ms server of replaySlower), while the recording fired the
// test's timer several times, with nothing else able to run, before the
// response came. The replay fires each as its recording did
// (fireRecordedDue) and counts as many ticks; without it the response,
// able to run, kept the timer from firing and the replay diverged
// ("expected g0 at clockrealio_test.go:102 (timer create), g0 is blocked
// at :103 (select)").
func TestReplayResponseBackSooner(t *testing.T) {
	var handler, took time.Duration
	var ticks int
	body := pacedBody(&handler, &took, &ticks)
	rec := recordPaced(t, &handler, body)
	recTicks := ticks
	if f := replayWithServer(t, 0, &handler, body, rec, &ticks, recTicks); f != "" {
		t.Error(f)
	}
}
