package report

import (
	"bufio"
	"fmt"
	"io"
)

// Text is the terminal format, one finding per line in the form editors
// and go vet use, with related positions and goroutines indented below:
//
//	bank/account.go:42:2: IL1001 field a.balance read without holding a.mu
//		bank/account.go:30:2: written here with a.mu held
type Text struct{}

var _ Writer = Text{}

// Write implements Writer.
func (Text) Write(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	for _, f := range relative(r) {
		fmt.Fprintf(bw, "%s: %s %s\n", where(&f), f.Rule, f.Message)
		for _, rel := range f.Related {
			fmt.Fprintf(bw, "\t%s: %s\n", rel.Position, rel.Message)
		}
		writeSameCauseText(bw, &f)
		if !isDynamic(&f) {
			continue
		}
		switch {
		case f.Test != "" && f.Kind != "":
			fmt.Fprintf(bw, "\ttest: %s (%s)\n", f.Test, f.Kind)
		case f.Test != "":
			fmt.Fprintf(bw, "\ttest: %s\n", f.Test)
		}
		for _, g := range f.Goroutines {
			fmt.Fprintf(bw, "\tgoroutine %s", g.ID)
			if g.State != "" {
				fmt.Fprintf(bw, " [%s]", g.State)
			}
			if g.Site != "" {
				fmt.Fprintf(bw, " at %s", g.Site)
			}
			fmt.Fprintln(bw)
			for _, fr := range g.Stack {
				fmt.Fprintf(bw, "\t\t%s\n\t\t\t%s:%d\n", fr.Func, fr.File, fr.Line)
			}
		}
		if lines := StoryLines(f.Interleaving); len(lines) > 0 {
			fmt.Fprintf(bw, "\tinterleaving (%s):\n", StoryHeading(f.Interleaving))
			for _, l := range lines {
				fmt.Fprintf(bw, "\t\t%s\n", l)
			}
		}
		if l := f.Labels(); l != "" {
			fmt.Fprintf(bw, "\tfails: %s\n", l)
		}
		if f.Replay != "" {
			fmt.Fprintf(bw, "\treplay: %s\n", f.Replay)
		}
	}
	for _, f := range relativeList(r.Root, r.PreExisting) {
		fmt.Fprintf(bw, "pre-existing (happens on the base commit too): %s: %s %s\n", where(&f), f.Rule, f.Message)
		if l := f.Labels(); l != "" {
			fmt.Fprintf(bw, "\tfails: %s\n", l)
		}
		if f.Replay != "" {
			fmt.Fprintf(bw, "\treplay: %s\n", f.Replay)
		}
	}
	for _, f := range relativeList(r.Root, r.Uncompared) {
		fmt.Fprintf(bw, "not compared (nothing says the change caused it): %s: %s %s\n", where(&f), f.Rule, f.Message)
		if l := f.Labels(); l != "" {
			fmt.Fprintf(bw, "\tfails: %s\n", l)
		}
		if f.Replay != "" {
			fmt.Fprintf(bw, "\treplay: %s\n", f.Replay)
		}
	}
	return bw.Flush()
}
