package gen

import "testing"

// TestErrorResultsByIdentity (go-redis's ConnStateMachine: TryTransition
// ∥ Transition): Machine.TryMove fails its CAS while the state is Idle,
// then reads the state Set just stored and returns it with an error whose
// text names it. No sequential order gives that pair, but the move did
// fail, as an order says. A call that returns an error is compared by
// what the error wraps: no finding on Machine. Seats' double sale (a nil
// error where an order says "sold out") is still found, and replays.
func TestErrorResultsByIdentity(t *testing.T) {
	silentAndFound(t, "testdata/errstate", "Machine", "reports the state after a failed move by design", "Seats", 10, 40)
}
