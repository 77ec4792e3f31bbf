package main

import (
	"fmt"
	"io"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// stageLine renders a stage of the search for the log: what it does when
// it starts, how long it took when it ends.
func stageLine(ev explore.StageEvent) string {
	if !ev.Done {
		return ev.Name + " …"
	}
	s := "  took " + ev.Took.Round(100*time.Millisecond).String()
	if ev.Detail != "" {
		s += ": " + ev.Detail
	}
	return s
}

// printStage writes a stage line with the command's prefix.
func printStage(w io.Writer, prefix string, ev explore.StageEvent) {
	fmt.Fprintln(w, prefix+stageLine(ev))
}
