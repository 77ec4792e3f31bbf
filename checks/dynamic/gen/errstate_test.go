package gen

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestErrorResultsByIdentity (go-redis's ConnStateMachine: TryTransition
// ∥ Transition): Machine.TryMove fails its CAS while the state is Idle,
// then reads the state Set just stored and returns it with an error whose
// text names it. No sequential order gives that pair, but the move did
// fail, as an order says. A call that returns an error is compared by
// what the error wraps: no finding on Machine. Seats' double sale (a nil
// error where an order says "sold out") is still found, and replays.
func TestErrorResultsByIdentity(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with the race detector")
	}
	dir := t.TempDir()
	if err := copyTree("testdata/errstate", dir); err != nil {
		t.Fatal(err)
	}
	types := []string{"Machine", "Seats"}
	// Bounded by a count; the budget only stops a machine that cannot do it.
	res, err := runCorpus(context.Background(), dir, types, 1, 40, 40, 10*time.Minute, untilFound("Seats"))
	if err != nil {
		t.Fatal(err)
	}
	logStats(t, res, types)
	var c corpusFindings
	c.add(res)
	for _, f := range c.found["Machine"] {
		t.Errorf("Machine's failed move reports the state after the attempt by design, but gen reports %s at %v: %s", f.Kind, f.Pos, f.Message)
	}
	moves := 0
	for _, ts := range res.Stats.Tests {
		if genType(ts.Test) == "Machine" {
			moves++
		}
	}
	if moves == 0 {
		t.Fatal("no generated test of Machine was searched")
	}
	found := c.found["Seats"]
	if len(found) == 0 {
		t.Fatal("Seats' double sale was not found")
	}
	if !strings.Contains(found[0].Message, "not linearizable") {
		t.Errorf("Seats: %s, want the oracle's verdict", found[0].Message)
	}
	for b, err := range c.replay(context.Background(), dir, []string{"Seats"}, nil) {
		if err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
}
