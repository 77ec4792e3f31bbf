package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
)

// bankReport is the JSON report of `interleave test` on examples/bank's
// TestOppositeTransfers and TestInterestAndDeposits (testdata/bank, with
// the schedule files the search wrote).
func bankReport(t *testing.T) *Report {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "bank", "findings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var jr JSONReport
	if err := json.Unmarshal(b, &jr); err != nil {
		t.Fatal(err)
	}
	r := &Report{Root: filepath.Join("testdata", "bank"), ToolVersion: jr.Tool.Version}
	for _, f := range jr.Findings {
		r.Findings = append(r.Findings, f.Finding)
	}
	return r
}

// TestBankGolden renders the bundled example's deadlock and data race as
// the job summary (markdown) and the terminal output: the told
// interleaving, its Mermaid diagram and the replay command carrying the
// schedule. scripts/mermaid-check.sh parses the diagrams with Mermaid.
func TestBankGolden(t *testing.T) {
	r := bankReport(t)
	for _, c := range []struct {
		w    Writer
		file string
	}{{Markdown{}, "bank.md"}, {Text{}, "bank.txt"}} {
		var buf bytes.Buffer
		if err := c.w.Write(&buf, r); err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "golden", c.file)
		if *update {
			if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if buf.String() != string(want) {
			t.Errorf("output differs from %s (go test ./report -update rewrites it)\ngot:\n%s\nwant:\n%s", golden, buf.String(), want)
		}
	}
	var md, txt bytes.Buffer
	Markdown{}.Write(&md, r)
	Text{}.Write(&txt, r)
	for _, want := range []string{
		"g1 waits to lock `to.mu` (lock A, held by g2) at bank.go:62",
		"g2 waits to lock `to.mu` (lock B, held by g1) at bank.go:62",
		"```mermaid\nsequenceDiagram\n",
		"go run github.com/interleave-dev/interleave/cmd/interleave@v1.0.0 replay -s s1.",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the summary lacks %q", want)
		}
	}
	for _, want := range []string{"interleaving (1 preemption", "g1 waits to lock to.mu (lock A, held by g2) at bank.go:62", "→ deadlock"} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("the terminal output lacks %q", want)
		}
	}
	if strings.Contains(txt.String(), "mermaid") {
		t.Error("the terminal output has a Mermaid diagram")
	}
}

func TestStoryEscapes(t *testing.T) {
	it := &checks.Interleaving{Steps: []checks.Step{
		{G: "g1", Verb: "locks", Object: "m[\"<b>#x;y\"]", Site: "a.go:1"},
		{G: "g2", Verb: "waits to lock", Object: "m[\"<b>#x;y\"]", Site: "a.go:2", Holder: "g1", Blocked: true, Preempts: "g1"},
	}, Preemptions: 1, End: "deadlock <script>"}
	m := Mermaid(it)
	for _, bad := range []string{"<b>", "#", ";"} {
		if strings.Contains(m, bad) {
			t.Errorf("diagram keeps %q:\n%s", bad, m)
		}
	}
	md := StoryMarkdown(it)
	if strings.Contains(md, "<script>") {
		t.Errorf("markdown keeps HTML:\n%s", md)
	}
	if !strings.Contains(md, "g2 waits to lock `m[\"<b>#x;y\"]` (held by g1) at a.go:2, preempting g1") {
		t.Errorf("markdown story:\n%s", md)
	}
}

func TestTokenReplayCommand(t *testing.T) {
	f := &checks.Finding{ReplayToken: "s1.abc_-"}
	for _, c := range []struct{ version, base, want string }{
		{"v1.2.3", "", "go run github.com/interleave-dev/interleave/cmd/interleave@v1.2.3 replay -s s1.abc_-"},
		{"devel", "", "go run github.com/interleave-dev/interleave/cmd/interleave@latest replay -s s1.abc_-"},
		{"v1.2.3", "interleave replay", "interleave replay -s s1.abc_-"},
	} {
		if got := TokenReplayCommand(f, c.version, c.base); got != c.want {
			t.Errorf("TokenReplayCommand(%q, %q) = %q, want %q", c.version, c.base, got, c.want)
		}
	}
	f.ReplayToken = "s1.abc; rm -rf /"
	if got := TokenReplayCommand(f, "v1", ""); got != "" {
		t.Errorf("a token with shell characters gave %q", got)
	}
	// A token a comment would cut short is not printed (the schedule
	// file's command is); one just inside the bound is.
	f.ReplayToken = "s1." + strings.Repeat("a", MaxCommandToken-3)
	if got := TokenReplayCommand(f, "v1", "interleave replay"); !strings.HasSuffix(got, f.ReplayToken) {
		t.Errorf("a token of %d bytes was not printed", len(f.ReplayToken))
	}
	f.ReplayToken += "a"
	if got := TokenReplayCommand(f, "v1", "interleave replay"); got != "" {
		t.Errorf("a token of %d bytes (over %d) gave a command of %d bytes", len(f.ReplayToken), MaxCommandToken, len(got))
	}
}

// TestStoryChoice: a select that took a later ready case is told with
// the case that was ready too, in the list and the diagram, where that
// words is no participant; the heading counts such selects.
func TestStoryChoice(t *testing.T) {
	it := &checks.Interleaving{Steps: []checks.Step{
		{G: "g0", Verb: "selects case 2", Label: "case 1 was ready too", Site: "controller.go:84", Chose: true},
	}, Chosen: 1, End: "test failure"}
	md := StoryMarkdown(it)
	for _, want := range []string{"(0 preemptions; 1 select took a later ready case)", "1. g0 selects case 2 (case 1 was ready too) at controller.go:84"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown story lacks %q:\n%s", want, md)
		}
	}
	m := Mermaid(it)
	if strings.Contains(m, "participant o") || !strings.Contains(m, "g0->>g0: 1. selects case 2 (case 1 was ready too) at controller.go:84") {
		t.Errorf("diagram:\n%s", m)
	}
}
