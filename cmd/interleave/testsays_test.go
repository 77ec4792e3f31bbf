package main

import (
	"testing"

	"github.com/interleave-dev/interleave/checks"
)

// TestLabelCounts: the summary line counts order-dependent findings apart
// from the schedule-dependent ones, and says nothing of them when there
// are none.
func TestLabelCounts(t *testing.T) {
	some := &checks.Frequency{Failing: 1, Schedules: 3}
	every := &checks.Frequency{Failing: 2, Schedules: 2}
	fails := &checks.PlainGo{Runs: 1, Failed: 1}
	fs := []checks.Finding{
		{Frequency: some},
		{Frequency: some, AfterEarlier: &checks.AfterEarlier{Schedules: 1}},
		{Frequency: every, PlainGo: fails},
	}
	if got, want := labelCounts(fs), " (1 schedule-dependent, 1 order-dependent, 1 on every schedule; plain go test fails 1 of them too)"; got != want {
		t.Errorf("labelCounts = %q, want %q", got, want)
	}
	if got, want := labelCounts(fs[:1]), " (1 schedule-dependent, 0 on every schedule; plain go test fails 0 of them too)"; got != want {
		t.Errorf("labelCounts = %q, want %q", got, want)
	}
	if got, want := labelCounts(append(fs, checks.Finding{Frequency: some, DrawsOnly: true})), " (1 schedule-dependent, 1 order-dependent, 1 seed-dependent, 1 on every schedule; plain go test fails 1 of them too)"; got != want {
		t.Errorf("labelCounts = %q, want %q", got, want)
	}
}
