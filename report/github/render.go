package github

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/report"
)

// Hidden markers. A review comment carries its finding's fingerprint so a
// later run recognizes it; the summary comment carries summaryMarker so it
// is edited instead of posted again.
const (
	summaryMarker     = "<!-- interleave:summary -->"
	fingerprintPrefix = "<!-- interleave:fp="
)

// fingerprintRE matches the marker at the end of a body, where commentBody
// puts it; a person quoting a marker mid-comment does not match.
var fingerprintRE = regexp.MustCompile(`<!-- interleave:fp=([A-Za-z0-9_-]{1,64}) -->\s*$`)

// maxScheduleBytes bounds the schedule pasted into one comment.
const maxScheduleBytes = 8 << 10

// fingerprintMarker returns the hidden marker of fingerprint fp.
func fingerprintMarker(fp string) string { return fingerprintPrefix + fp + " -->" }

// markedFingerprint returns the fingerprint in body's marker, if any.
func markedFingerprint(body string) (string, bool) {
	m := fingerprintRE.FindStringSubmatch(body)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// fingerprintOf is the finding's fingerprint as the report gave it, made
// safe for an HTML comment, or computed when missing or unsafe.
func fingerprintOf(f *report.JSONFinding) string {
	if fp := f.Fingerprint; fp != "" && len(fp) <= 64 && strings.Trim(fp, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == "" {
		return fp
	}
	return f.Finding.Fingerprint()
}

// ruleName is "IL1001 unguarded-field", or the bare ID.
func ruleName(f *report.JSONFinding) string {
	slug := f.Slug
	if slug == "" {
		if r, ok := checks.LookupRule(f.Rule); ok {
			slug = r.Slug
		}
	}
	if slug == "" {
		return f.Rule
	}
	return f.Rule + " " + slug
}

// ruleTitle is the rule's registered title, or "".
func ruleTitle(id string) string {
	if r, ok := checks.LookupRule(id); ok {
		return r.Title
	}
	return ""
}

func isDynamic(f *checks.Finding) bool {
	return f.Evidence == checks.Dynamic || f.Evidence == checks.Confirmed
}

// commentBody renders one finding as a review comment, ending in its
// hidden marker.
func (p *publisher) commentBody(f *report.JSONFinding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (%s): %s\n", mdEscape(ruleName(f)), f.Severity, mdEscape(oneLine(f.Message)))
	if t := ruleTitle(f.Rule); t != "" {
		fmt.Fprintf(&b, "\n_%s_\n", mdEscape(t))
	}
	if isDynamic(&f.Finding) {
		p.writeDynamic(&b, &f.Finding)
	}
	return fitBody(b.String(), fingerprintMarker(fingerprintOf(f)))
}

// writeDynamic writes a dynamic finding's failure, goroutines, schedule and
// replay command.
func (p *publisher) writeDynamic(b *strings.Builder, f *checks.Finding) {
	b.WriteString("\n**Failure**: ")
	b.WriteString(string(f.Kind))
	if f.Test != "" {
		fmt.Fprintf(b, " in %s", code(f.Test))
	}
	b.WriteString("\n")
	if l := f.Labels(); l != "" {
		fmt.Fprintf(b, "\n**Fails** %s\n", mdEscape(oneLine(l)))
	}
	if len(f.Goroutines) > 0 {
		b.WriteString("\n**Goroutines involved**\n\n")
		for _, g := range f.Goroutines {
			fmt.Fprintf(b, "- %s", code(g.ID))
			if g.State != "" {
				fmt.Fprintf(b, " %s", mdEscape(oneLine(g.State)))
			}
			if g.Site != "" {
				fmt.Fprintf(b, " at %s", code(g.Site))
			}
			if len(g.Stack) > 0 {
				fmt.Fprintf(b, " in %s", code(g.Stack[0].Func))
			}
			b.WriteString("\n")
		}
	}
	if same := report.SameCauseMarkdown(f); same != "" {
		b.WriteString("\n")
		b.WriteString(defang(same))
	}
	if story := report.StoryMarkdown(f.Interleaving); story != "" {
		b.WriteString("\n")
		b.WriteString(story)
	}
	// The replay command carries the schedule when it can: the file's
	// JSON is then not pasted.
	if f.Schedule != "" && p.tokenCommand(f) == "" {
		fmt.Fprintf(b, "\n<details><summary>Schedule %s</summary>\n\n", htmlEscape(f.Schedule))
		if text, ok := p.readSchedule(f.Schedule); ok {
			fence := CodeFence(text)
			fmt.Fprintf(b, "%sjson\n%s\n%s\n", fence, strings.TrimRight(text, "\n"), fence)
		} else {
			fmt.Fprintf(b, "Schedule file %s (not readable here, or too large to paste).\n", code(f.Schedule))
		}
		b.WriteString("\n</details>\n")
	}
	if cmd := p.tokenCommand(f); cmd != "" {
		fmt.Fprintf(b, "\nReplay it in a clone of this branch (the schedule is in the command; with interleave installed, `interleave replay -s …` does the same):\n\n```sh\n%s\n```\n", cmd)
	} else if cmd := p.replayCommand(f); cmd != "" {
		fence := CodeFence(cmd)
		fmt.Fprintf(b, "\nReplay it:\n\n%ssh\n%s\n%s\n", fence, cmd, fence)
	}
}

// tokenCommand is the replay command carrying the schedule, or "".
func (p *publisher) tokenCommand(f *checks.Finding) string {
	return report.TokenReplayCommand(f, p.in.ToolVersion, oneLine(p.in.ReplayCommand))
}

// RenderComment renders the review comment of a finding as Publish posts
// it (for tests and previews).
func RenderComment(in Input, f report.JSONFinding) string {
	p := &publisher{in: in}
	return p.commentBody(&f)
}

// replayCommand is "<base> <schedule>", or the finding's own command when
// it has no schedule.
func (p *publisher) replayCommand(f *checks.Finding) string {
	if f.Schedule != "" {
		return p.in.replayBase() + report.TriesFlag(f) + " " + shellQuote(f.Schedule)
	}
	return oneLine(f.Replay)
}

// readSchedule returns a schedule file's text when it is a small regular
// JSON file at a clean relative path under the root. The report may come
// from an untrusted artifact, so nothing else is read.
func (p *publisher) readSchedule(name string) (string, bool) {
	if !filepath.IsLocal(filepath.FromSlash(name)) {
		return "", false
	}
	path := filepath.Join(p.in.Root, filepath.FromSlash(name))
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxScheduleBytes {
		return "", false
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) > maxScheduleBytes || !json.Valid(b) {
		return "", false
	}
	return string(b), true
}

// scheduleUnsafe reports whether a schedule file exists but is not one
// readSchedule would paste (a symlink, a directory, too large, not JSON).
func (p *publisher) scheduleUnsafe(name string) bool {
	_, err := os.Lstat(filepath.Join(p.in.Root, filepath.FromSlash(name)))
	if err != nil {
		return false // missing: the summary says it was not readable
	}
	_, ok := p.readSchedule(name)
	return !ok
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:@=+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// CodeFence returns a backquote fence longer than any run of backquotes in
// text, so text cannot close it.
func CodeFence(text string) string {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// code wraps s in a code span its own backquotes cannot break.
func code(s string) string { return report.CodeSpan(s) }

// mdEscape keeps untrusted text from opening HTML tags or comments (which
// could hide or forge a marker) or pinging people.
func mdEscape(s string) string {
	return strings.NewReplacer("<", "&lt;", ">", "&gt;", "@", "@\u200b").Replace(s)
}

var mentionRE = regexp.MustCompile(`@([A-Za-z0-9])`)

// defang keeps @mentions in markdown from notifying anyone: the summary
// may come from an untrusted artifact, and a comment notifies whoever it
// mentions. A zero-width space after the @ leaves the text readable.
func defang(markdown string) string { return mentionRE.ReplaceAllString(markdown, "@\u200b$1") }

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// cell makes s safe inside a markdown table cell.
func cell(s string) string { return strings.ReplaceAll(mdEscape(oneLine(s)), "|", `\|`) }

// truncate cuts s to at most limit bytes (so at most limit characters) on
// a rune boundary. When it cuts, it ends with a note saying how much was
// cut and what was kept.
func truncate(s string, limit int, what string) string {
	if len(s) <= limit {
		return s
	}
	note := fmt.Sprintf("\n\n… %s truncated: %d of %d bytes cut to fit GitHub's limit of %d characters.\n", what, 0, len(s), limit)
	keep := limit - len(note) - 16 // the count below can grow the note
	if keep < 0 {
		keep = 0
	}
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	note = fmt.Sprintf("\n\n… %s truncated: %d of %d bytes cut to fit GitHub's limit of %d characters.\n", what, len(s)-keep, len(s), limit)
	return s[:keep] + note
}

// fitBody appends marker to body, cutting body so the whole stays within
// a comment's limit; the marker always survives.
func fitBody(body, marker string) string {
	return truncate(body, maxCommentBody-len(marker)-1, "comment") + "\n" + marker
}

// escapeData escapes a workflow command's message.
// https://docs.github.com/actions/reference/workflows-and-actions/workflow-commands
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// workflowCommand renders a finding as a "::error"/"::warning"/"::notice"
// command that the runner turns into an annotation.
func workflowCommand(f *report.JSONFinding, replayBase string) string {
	level := "warning"
	switch f.Severity {
	case checks.Error:
		level = "error"
	case checks.Note:
		level = "notice"
	}
	props := []string{"file=" + escapeProperty(f.Pos.File), fmt.Sprintf("line=%d", f.Pos.Line)}
	if f.Pos.EndLine > f.Pos.Line {
		props = append(props, fmt.Sprintf("endLine=%d", f.Pos.EndLine))
	}
	if f.Pos.Column > 0 && (f.Pos.EndLine == 0 || f.Pos.EndLine == f.Pos.Line) {
		props = append(props, fmt.Sprintf("col=%d", f.Pos.Column))
		if f.Pos.EndColumn > f.Pos.Column {
			props = append(props, fmt.Sprintf("endColumn=%d", f.Pos.EndColumn))
		}
	}
	props = append(props, "title="+escapeProperty(ruleName(f)))
	msg := f.Message
	if isDynamic(&f.Finding) && f.Schedule != "" {
		msg += "\nreplay: " + replayBase + report.TriesFlag(&f.Finding) + " " + shellQuote(f.Schedule)
	}
	// The runner cuts messages at about 4,096 characters.
	return "::" + level + " " + strings.Join(props, ",") + "::" + escapeData(truncate(msg, maxWorkflowMessage, "message"))
}
