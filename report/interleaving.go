package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/interleave-dev/interleave/checks"
)

// StoryLines tells an interleaving as numbered lines of plain text, the
// last one saying how it ends.
func StoryLines(it *checks.Interleaving) []string {
	if it == nil || len(it.Steps) == 0 {
		return nil
	}
	plain := func(s string) string { return s }
	var out []string
	if it.Omitted > 0 {
		out = append(out, fmt.Sprintf("(%d earlier %s not shown)", it.Omitted, checks.Plural(it.Omitted, "step")))
	}
	for i, st := range it.Steps {
		out = append(out, fmt.Sprintf("%d. %s", i+1, st.Sentence(plain)))
	}
	if it.End != "" {
		out = append(out, "→ "+it.End)
	}
	return out
}

// StoryHeading says how many preemptions the interleaving needs, and how
// many the schedule had before it was shrunk.
func StoryHeading(it *checks.Interleaving) string {
	s := fmt.Sprintf("%d %s", it.Preemptions, checks.Plural(it.Preemptions, "preemption"))
	if it.Original > it.Preemptions {
		s += fmt.Sprintf(", shrunk from %d", it.Original)
	}
	if it.Chosen > 0 {
		s += fmt.Sprintf("; %d %s took a later ready case", it.Chosen, checks.Plural(it.Chosen, "select"))
	}
	return s
}

// StoryMarkdown tells an interleaving as a numbered markdown list, its
// source text in code spans, followed by a Mermaid sequence diagram.
func StoryMarkdown(it *checks.Interleaving) string {
	if it == nil || len(it.Steps) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**How it happens** (%s)\n\n", StoryHeading(it))
	if it.Omitted > 0 {
		fmt.Fprintf(&b, "_%d earlier %s not shown._\n\n", it.Omitted, checks.Plural(it.Omitted, "step"))
	}
	for i, st := range it.Steps {
		fmt.Fprintf(&b, "%d. %s\n", i+1, mdText(st.Sentence(CodeSpan)))
	}
	if it.End != "" {
		fmt.Fprintf(&b, "\n→ %s\n", mdText(it.End))
	}
	fmt.Fprintf(&b, "\n```mermaid\n%s```\n", Mermaid(it))
	return b.String()
}

// mdText keeps text outside code spans from opening HTML or mentioning
// anyone; code spans are left alone.
func mdText(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		if r == '`' {
			in = !in
		}
		if !in {
			switch r {
			case '<':
				b.WriteString("&lt;")
				continue
			case '>':
				b.WriteString("&gt;")
				continue
			case '@':
				b.WriteString("@\u200b")
				continue
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Mermaid renders an interleaving as a Mermaid sequenceDiagram: the
// goroutines and the objects they operate on are participants, each step
// is a message from its goroutine (a cross for an operation it stays
// blocked at), and each preemption is a note.
func Mermaid(it *checks.Interleaving) string {
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	if it == nil {
		return b.String()
	}
	// Participants: goroutines first, in order of appearance, then objects.
	var gs []string
	seenG := map[string]bool{}
	addG := func(g string) {
		if g != "" && !seenG[g] {
			seenG[g] = true
			gs = append(gs, g)
		}
	}
	objID := map[string]string{}
	var objs []string
	objOf := func(st checks.Step) string {
		if strings.HasPrefix(st.Verb, "starts") && !strings.HasPrefix(st.Verb, "starts running") || st.Chose {
			return "" // a choice's label is no object: "case 1 was ready too""
		}
		key := st.Label
		if key == "" {
			key = st.Object
		}
		return key
	}
	for _, st := range it.Steps {
		addG(st.G)
		if strings.HasPrefix(st.Verb, "starts") && !strings.HasPrefix(st.Verb, "starts running") {
			addG(st.Object)
		}
		addG(st.Preempts)
		addG(st.Holder)
		if k := objOf(st); k != "" {
			if _, ok := objID[k]; !ok {
				objID[k] = "o" + strconv.Itoa(len(objs)+1)
				objs = append(objs, k)
			}
		}
	}
	for _, g := range gs {
		fmt.Fprintf(&b, "    participant %s as %s\n", mermaidID(g), mermaidText(g))
	}
	for _, k := range objs {
		fmt.Fprintf(&b, "    participant %s as %s\n", objID[k], mermaidText(k))
	}
	for i, st := range it.Steps {
		if st.Preempts != "" {
			fmt.Fprintf(&b, "    Note over %s,%s: %s preempts %s\n", mermaidID(st.Preempts), mermaidID(st.G), mermaidText(st.G), mermaidText(st.Preempts))
		}
		to := mermaidID(st.G)
		text := st.Verb
		if strings.HasPrefix(st.Verb, "starts") && !strings.HasPrefix(st.Verb, "starts running") {
			to = mermaidID(st.Object)
		} else if k := objOf(st); k != "" {
			to = objID[k]
			if st.Object != "" {
				text += " " + st.Object
			}
		}
		if st.Chose {
			text += " (" + st.Label + ")"
		}
		if st.Site != "" {
			text += " at " + st.Site
		}
		if st.Holder != "" {
			text += " (held by " + st.Holder + ")"
		}
		arrow := "->>"
		if st.Blocked {
			arrow = "--x"
		}
		fmt.Fprintf(&b, "    %s%s%s: %d. %s\n", mermaidID(st.G), arrow, to, i+1, mermaidText(text))
	}
	return b.String()
}

// mermaidID makes a participant id from a goroutine name ("g1").
func mermaidID(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "x"
	}
	return b.String()
}

// mermaidText keeps source text from ending a statement or starting an
// entity, a comment or HTML in a diagram.
func mermaidText(s string) string {
	return strings.NewReplacer(";", ",", "#", "", "%%", "%", "<", "‹", ">", "›", "\n", " ", "\r", " ", "`", "'", "&", "+").Replace(s)
}

// MaxCommandToken bounds the token a printed replay command carries: a
// GitHub comment holds 65,536 characters, and a token cut short there (a
// schedule with thousands of earlier runs) replays nothing.
const MaxCommandToken = 16 << 10

// Module is the import path of interleave's command, for `go run`.
const Module = "github.com/interleave-dev/interleave/cmd/interleave"

// TokenReplayCommand is the command that replays a finding anywhere the
// code is: the schedule travels in the command, and `go run` fetches
// interleave at version (the tool's own release; "latest" when it has
// none). base, when set, replaces "go run MODULE@VERSION replay". It is ""
// when the finding carries no usable token, or one longer than
// MaxCommandToken: the caller then prints the schedule file's command.
func TokenReplayCommand(f *checks.Finding, version, base string) string {
	tok := f.ReplayToken
	if tok == "" || len(tok) > MaxCommandToken || strings.Trim(tok, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") != "" {
		return ""
	}
	if base == "" {
		base = "go run " + Module + "@" + moduleVersion(version) + " replay"
	}
	return base + TriesFlag(f) + " -s " + tok
}

// TriesFlag is " -tries N" for a finding that reproduced on some fresh
// replays only (checks.ReplayRate), else "": its replay command runs it
// until one run reproduces it.
func TriesFlag(f *checks.Finding) string {
	if f.Replays == nil {
		return ""
	}
	return fmt.Sprintf(" -tries %d", f.Replays.ReplayTries())
}

// moduleVersion is version when it is a release tag go run accepts.
func moduleVersion(v string) string {
	if len(v) > 1 && v[0] == 'v' && v[1] >= '0' && v[1] <= '9' && strings.Trim(v, "0123456789.-+abcdefghijklmnopqrstuvwxyz") == "" {
		return v
	}
	return "latest"
}
