package prjob

import (
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/report"
)

// StageLine renders a stage of the search for the log: what it does when
// it starts, how long it took when it ends. interleave test prints the
// same lines.
func StageLine(ev explore.StageEvent) string {
	if !ev.Done {
		return ev.Name + " …"
	}
	s := "  took " + ev.Took.Round(100*time.Millisecond).String()
	if ev.Detail != "" {
		s += ": " + ev.Detail
	}
	return s
}

// TestRuns is the per-test part of a report.
func TestRuns(st explore.Stats) []report.TestRun {
	var out []report.TestRun
	for _, ts := range st.Tests {
		out = append(out, report.TestRun{Package: ts.Package, Test: ts.Test, Schedules: ts.Schedules,
			Failures: ts.Failures, Plain: ts.Plain, ElapsedMS: ts.Elapsed.Milliseconds(), TargetHits: ts.TargetHits, PerSecond: ts.PerSecond, NoChoice: ts.NoChoice, OnePerProcess: ts.OnePerProcess,
			StepBound: ts.StepBound, PlainSteps: ts.PlainSteps, MostSteps: ts.MostSteps, MaxSteps: ts.MaxSteps})
	}
	return out
}
