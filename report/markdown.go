package report

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/interleave-dev/interleave/checks"
)

// Markdown is the pull request summary: a table of findings by severity,
// then each dynamic finding with its failure, the goroutines involved, the
// schedule in a collapsible block and the command that replays it.
type Markdown struct{}

var _ Writer = Markdown{}

// maxScheduleBytes bounds the schedule pasted into the summary: a GitHub
// comment or job summary holds 65,536 characters, and a report carries
// several findings.
const maxScheduleBytes = 8 << 10

// Write implements Writer.
func (Markdown) Write(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	fs := relative(r)
	bySeverity(fs)
	fmt.Fprintln(bw, "## interleave")
	fmt.Fprintln(bw)
	if len(fs) == 0 {
		fmt.Fprintln(bw, "No concurrency findings.")
		summaryOnly(bw, r)
		notesSection(bw, r)
		return bw.Flush()
	}
	fmt.Fprintf(bw, "%d %s: %s.\n\n", len(fs), checks.Plural(len(fs), "finding"), counts(fs))
	fmt.Fprintln(bw, "| Severity | Rule | Location | Message |")
	fmt.Fprintln(bw, "|---|---|---|---|")
	var dynamic []checks.Finding
	for _, f := range fs {
		rule := ruleOf(f.Rule)
		name := f.Rule
		if rule.Slug != "" {
			name += " " + rule.Slug
		}
		fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", f.Severity, cell(name), code(where(&f)), cell(f.Message))
		if isDynamic(&f) {
			dynamic = append(dynamic, f)
		}
	}
	for _, f := range dynamic {
		fmt.Fprintln(bw)
		title := ruleOf(f.Rule).Title
		fmt.Fprintf(bw, "### %s: %s", f.Rule, title)
		if f.Test != "" {
			fmt.Fprintf(bw, " in %s", code(f.Test))
		}
		fmt.Fprintln(bw)
		fmt.Fprintln(bw)
		if f.Kind != "" {
			fmt.Fprintf(bw, "**Failure** (%s) at %s: %s\n", f.Kind, code(where(&f)), oneLine(f.Message))
		} else {
			fmt.Fprintf(bw, "**Confirmed** at %s: %s\n", code(where(&f)), oneLine(f.Message))
		}
		if l := f.Labels(); l != "" {
			fmt.Fprintln(bw)
			fmt.Fprintf(bw, "**Fails** %s\n", oneLine(l))
		}
		if len(f.Goroutines) > 0 {
			fmt.Fprintln(bw)
			fmt.Fprintln(bw, "**Goroutines involved**")
			fmt.Fprintln(bw)
			for _, g := range f.Goroutines {
				fmt.Fprintf(bw, "- %s", code(g.ID))
				if g.State != "" {
					fmt.Fprintf(bw, " %s", oneLine(g.State))
				}
				if g.Site != "" {
					fmt.Fprintf(bw, " at %s", code(g.Site))
				}
				if len(g.Stack) > 0 {
					fmt.Fprintf(bw, " in %s", code(g.Stack[0].Func))
				}
				fmt.Fprintln(bw)
			}
		}
		if same := SameCauseMarkdown(&f); same != "" {
			fmt.Fprintln(bw)
			fmt.Fprint(bw, same)
		}
		if story := StoryMarkdown(f.Interleaving); story != "" {
			fmt.Fprintln(bw)
			fmt.Fprint(bw, story)
		}
		if f.Schedule != "" {
			fmt.Fprintln(bw)
			fmt.Fprintf(bw, "<details><summary>Schedule %s</summary>\n\n", htmlEscape(f.Schedule))
			if body, ok := readSchedule(r.Root, f.Schedule); ok {
				fmt.Fprintf(bw, "```json\n%s\n```\n", strings.TrimRight(body, "\n"))
			} else {
				fmt.Fprintf(bw, "The schedule file %s was not readable when this summary was written.\n", code(f.Schedule))
			}
			fmt.Fprintln(bw, "\n</details>")
		}
		if cmd := TokenReplayCommand(&f, r.ToolVersion, ""); cmd != "" {
			fmt.Fprintln(bw)
			fmt.Fprintf(bw, "Replay it in a clone of this code (the schedule is in the command; with interleave installed, `interleave replay -s …` does the same):\n\n```sh\n%s\n```\n", cmd)
		} else if f.Replay != "" {
			fmt.Fprintln(bw)
			fmt.Fprintf(bw, "Replay it:\n\n```sh\n%s\n```\n", f.Replay)
		}
	}
	summaryOnly(bw, r)
	notesSection(bw, r)
	return bw.Flush()
}

// maxNotes bounds the notes the summary lists; the JSON report and SARIF
// carry them all.
const maxNotes = 30

// notesSection lists what the run says that is not a finding (tests not
// searched, failures left to the summary, hosts refused), so a reader of
// the summary or the check run sees it too.
func notesSection(bw *bufio.Writer, r *Report) {
	if len(r.Notes) == 0 {
		return
	}
	fmt.Fprintf(bw, "\n<details><summary>Notes (%d)</summary>\n\n", len(r.Notes))
	for i, n := range r.Notes {
		if i == maxNotes {
			fmt.Fprintf(bw, "- and %d more, in the JSON report and SARIF\n", len(r.Notes)-i)
			break
		}
		fmt.Fprintf(bw, "- %s\n", htmlEscape(oneLine(n)))
	}
	fmt.Fprintln(bw, "\n</details>")
}

// summaryOnly lists the failures that are not the change's or not the
// interleaving's: they are reported here and nowhere on the diff.
func summaryOnly(bw *bufio.Writer, r *Report) {
	list := func(title string, fs []checks.Finding) {
		if len(fs) == 0 {
			return
		}
		fmt.Fprintf(bw, "\n<details><summary>%s (%d)</summary>\n\n", title, len(fs))
		for _, f := range relativeList(r.Root, fs) {
			fmt.Fprintf(bw, "- %s at %s: %s", f.Rule, code(where(&f)), oneLine(f.Message))
			if l := f.Labels(); l != "" {
				fmt.Fprintf(bw, " (fails %s)", oneLine(l))
			}
			if f.Replay != "" {
				fmt.Fprintf(bw, " (replay: %s)", code(f.Replay))
			}
			fmt.Fprintln(bw)
		}
		fmt.Fprintln(bw, "\n</details>")
	}
	list("Pre-existing: these failures happen on the base commit too", r.PreExisting)
	list("Not compared: nothing says the change caused these (the base commit could not build or run their tests, or, as each says, they were not replayed or fail in code the change did not touch)", r.Uncompared)
}

// readSchedule returns the schedule file's text when it exists and is small
// enough to paste.
func readSchedule(root, name string) (string, bool) {
	if !filepath.IsAbs(name) && root != "" {
		name = filepath.Join(root, filepath.FromSlash(name))
	}
	b, err := os.ReadFile(name)
	if err != nil || len(b) > maxScheduleBytes || strings.Contains(string(b), "```") {
		return "", false
	}
	return string(b), true
}

// cell makes s safe inside a table cell: one line, pipes escaped.
func cell(s string) string {
	return strings.ReplaceAll(oneLine(s), "|", `\|`)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// CodeSpan puts s on one line and wraps it in a markdown code span that its
// own backquotes cannot break.
func CodeSpan(s string) string {
	s = oneLine(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// code is CodeSpan safe inside a table cell too.
func code(s string) string { return strings.ReplaceAll(CodeSpan(s), "|", `\|`) }

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
