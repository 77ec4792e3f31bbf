package rt

import (
	"testing"
	"time"
)

// TestTestNameUnderControl: under control a test and its subtests see the
// names go test gives them, not the driver's subtest ("TestStop/queue",
// not ".../schedule-0/queue"), searched whole or a subtest alone; outside
// control the name is the test's own.
func TestTestNameUnderControl(t *testing.T) {
	for _, test := range []string{"TestStop", "TestStop/queue"} {
		var names []string
		body := func(t *testing.T) {
			names = append(names, TestName(t))
			Run(t, "queue", func(t *testing.T) {
				names = append(names, TestName(t))
				Run(t, "inner", func(t *testing.T) { names = append(names, TestName(t)) })
			})
		}
		cfg := Config{Test: test, Schedules: 1, StepTimeout: 5 * time.Second}
		if all := RunSchedules(t, cfg, body, nil); len(all) != 1 || all[0].Outcome != "pass" {
			t.Fatalf("%s: %+v", test, all)
		}
		want := []string{"TestStop", "TestStop/queue", "TestStop/queue/inner"}
		if len(names) != len(want) {
			t.Fatalf("%s: names %q, want %q", test, names, want)
		}
		for i := range want {
			if names[i] != want[i] {
				t.Errorf("%s: names %q, want %q", test, names, want)
				break
			}
		}
	}
	if got := TestName(t); got != t.Name() {
		t.Errorf("outside control: %q, want %q", got, t.Name())
	}
}
