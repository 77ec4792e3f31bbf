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

// TestTestNameInGroup: a name both the package and its external test
// package declare runs as a Group of two subtests under control; each
// function sees the name go test gives it ("TestCount", then
// "TestCount#01"), and so do their subtests.
func TestTestNameInGroup(t *testing.T) {
	var names []string
	record := func(t *testing.T) {
		names = append(names, TestName(t))
		Run(t, "sub", func(t *testing.T) { names = append(names, TestName(t)) })
	}
	body := Group([]string{"counter", "counter_test"}, record, record)
	cfg := Config{Test: "TestCount", Schedules: 1, StepTimeout: 5 * time.Second}
	if all := RunSchedules(t, cfg, body, nil); len(all) != 1 || all[0].Outcome != "pass" {
		t.Fatalf("%+v", all)
	}
	want := []string{"TestCount", "TestCount/sub", "TestCount#01", "TestCount#01/sub"}
	if len(names) != len(want) {
		t.Fatalf("names %q, want %q", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Errorf("names %q, want %q", names, want)
			break
		}
	}
}
