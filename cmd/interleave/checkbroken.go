package main

import (
	"fmt"
	"strings"

	"github.com/interleave-dev/interleave/checks/static"
)

// brokenErrors is how many of a left-out package's compiler lines
// interleave check shows.
const brokenErrors = 3

// brokenNotes says, one note per package, which packages interleave check
// left out because they do not compile (or cannot be loaded), with the
// compiler's first lines: the report's notes and stderr both carry them.
func brokenNotes(broken []static.PackageErrors) []string {
	var notes []string
	for _, p := range broken {
		var b strings.Builder
		verb := "does not compile"
		if p.ListOnly {
			verb = "cannot be loaded"
		}
		fmt.Fprintf(&b, "not analyzed: package %s %s", p.Path, verb)
		n := min(len(p.Errors), brokenErrors)
		for _, e := range p.Errors[:n] {
			fmt.Fprintf(&b, "\n\t%s", e)
		}
		if more := len(p.Errors) - n; more > 0 {
			fmt.Fprintf(&b, "\n\t... and %d more", more)
		}
		notes = append(notes, b.String())
	}
	return notes
}

// checkPatterns is the patterns interleave check analyzes: ./... when none
// are given.
func checkPatterns(patterns []string) []string {
	if len(patterns) == 0 {
		return []string{"./..."}
	}
	return patterns
}
