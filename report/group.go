package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/interleave-dev/interleave/checks"
	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
)

// A finding stands for one cause; the other failures of that cause (other
// racing pairs, other tests) are in its SameCause, listed under it by every
// format.

// maxSameCauseShown bounds the occurrences listed in text and markdown; the
// JSON report has them all.
const maxSameCauseShown = 20

// relativeOccurrences makes the occurrences' files relative to root.
func relativeOccurrences(root string, os []checks.Occurrence) []checks.Occurrence {
	if os == nil {
		return nil
	}
	out := make([]checks.Occurrence, len(os))
	for i, o := range os {
		o.Pos.File = relFile(root, o.Pos.File)
		if o.Related != nil {
			rel := make([]checks.Related, len(o.Related))
			for j, x := range o.Related {
				x.File = relFile(root, x.File)
				rel[j] = x
			}
			o.Related = rel
		}
		o.Schedule = relFile(root, o.Schedule)
		o.Goroutines = relativeGoroutines(root, o.Goroutines)
		out[i] = o
	}
	return out
}

// SameCauseHeading says how many other failures a finding stands for and
// in which tests, or "" when it stands for itself alone.
func SameCauseHeading(f *checks.Finding) string {
	if len(f.SameCause) == 0 {
		return ""
	}
	n := len(f.SameCause)
	s := fmt.Sprintf("%d more %s of the same cause", n, checks.Plural(n, "failure"))
	if tests := f.Tests(); len(tests) > 1 {
		s += " (tests " + strings.Join(tests, ", ") + ")"
	}
	return s
}

// sameCauseLine is one occurrence as "file:line: message".
func sameCauseLine(o checks.Occurrence) string {
	where := "-"
	if o.Pos.IsValid() {
		where = o.Pos.String()
	}
	return where + ": " + oneLine(o.Message)
}

// SameCauseLines is a finding's occurrences as "file:line: message",
// at most maxSameCauseShown of them and a line saying how many more.
func SameCauseLines(f *checks.Finding) []string {
	var out []string
	for i, o := range f.SameCause {
		if i == maxSameCauseShown {
			out = append(out, fmt.Sprintf("(%d more in the JSON report)", len(f.SameCause)-i))
			break
		}
		out = append(out, sameCauseLine(o))
	}
	return out
}

// writeSameCauseText lists a finding's occurrences, indented.
func writeSameCauseText(w io.Writer, f *checks.Finding) {
	h := SameCauseHeading(f)
	if h == "" {
		return
	}
	fmt.Fprintf(w, "\t%s:\n", h)
	for _, l := range SameCauseLines(f) {
		fmt.Fprintf(w, "\t\t%s\n", l)
	}
}

// SameCauseMarkdown lists a finding's occurrences as a markdown section,
// or returns "".
func SameCauseMarkdown(f *checks.Finding) string {
	h := SameCauseHeading(f)
	if h == "" {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Same cause**: %s, reported as this one finding; its schedule replays the failure above:\n\n", h)
	for i, o := range f.SameCause {
		if i == maxSameCauseShown {
			fmt.Fprintf(&b, "- … %d more\n", len(f.SameCause)-i)
			break
		}
		where := "-"
		if o.Pos.IsValid() {
			where = o.Pos.String()
		}
		fmt.Fprintf(&b, "- %s: %s\n", CodeSpan(where), mdEscapeLine(o.Message))
	}
	return b.String()
}

// mdEscapeLine keeps a message on one line and its markup inert.
func mdEscapeLine(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "<", "&lt;", ">", "&gt;", "[", `\[`, "]", `\]`)
	return r.Replace(oneLine(s))
}

// addSameCauseSARIF adds the occurrences' positions as related locations
// after the finding's own (ids from next), and their count and tests as
// properties.
func addSameCauseSARIF(res *sarif.Result, props *sarif.PropertyBag, f *checks.Finding, next int) {
	if len(f.SameCause) == 0 {
		return
	}
	for _, o := range f.SameCause {
		if next > maxRelatedLocations {
			break
		}
		if !o.Pos.IsValid() {
			continue
		}
		res.AddRelatedLocation(location(o.Pos, "same cause: "+oneLine(o.Message)).WithID(next))
		next++
	}
	props.Add("sameCause", len(f.SameCause))
	props.Add("tests", f.Tests())
}
