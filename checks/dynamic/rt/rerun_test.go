package rt

import "testing"

// TestRerunWatch: a process of one test stops (Config.RerunEvidence)
// only when the schedules after its first all failed the same way and the
// first did not (it passed, or failed another way): not when the first
// failed so too (the test's own failure on every schedule), nor after a
// pass or another failure among them (a schedule-dependent failure), nor
// when the evidence is 0.
func TestRerunWatch(t *testing.T) {
	t.Parallel()
	pass := Result{Outcome: "pass"}
	reg := Result{Outcome: "panic", Site: "q.go:20", Message: "panic: q: count registered twice\ngoroutine 7 [running]:"}
	regAgain := Result{Outcome: "panic", Site: "q.go:20", Message: "panic: q: count registered twice\ngoroutine 9 [running]:"}
	lost := Result{Outcome: "test-failure", Site: "q_test.go:21", Message: "test failed: count 1, want 2"}
	for _, c := range []struct {
		name     string
		evidence int
		runs     []Result
		want     int // the run after which add reports true; -1: none
	}{
		{"after a pass, three alike", 3, []Result{pass, reg, regAgain, reg, reg}, 3},
		{"the first failed too", 3, []Result{reg, reg, reg, reg, reg}, -1},
		// The first run failed on a port another process held, after it
		// registered its name: the runs after it fail on the name.
		{"the first failed another way", 3, []Result{lost, reg, reg, reg, reg}, 3},
		{"a pass among them", 3, []Result{pass, reg, pass, reg, reg, reg}, -1},
		{"another failure among them", 3, []Result{pass, reg, lost, reg, reg}, -1},
		{"inconclusive among them", 3, []Result{pass, reg, {Outcome: "panic", Site: "q.go:20", Message: reg.Message, Inconclusive: "step bound"}, reg, reg}, -1},
		{"off", 0, []Result{pass, reg, reg, reg, reg}, -1},
	} {
		w := rerunWatch{evidence: c.evidence}
		got := -1
		for i, r := range c.runs {
			if w.add(r) {
				if got >= 0 {
					t.Errorf("%s: add reported true again at run %d", c.name, i)
				}
				got = i
			}
		}
		if got != c.want {
			t.Errorf("%s: add reported true at run %d, want %d", c.name, got, c.want)
		}
	}
}
