package static

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
)

// bench/precision/rules.py writes the rule texts a triage sample's reader
// is given (RULES.md): every default static rule under its own heading,
// with the text its rules.go entry evaluates to (concatenations such as
// percent(inferredThreshold) included), less the sentences about measured
// precision.
func TestRulesPyRendersEveryDefaultRule(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	out := filepath.Join(t.TempDir(), "RULES.md")
	if b, err := exec.Command(py, "../../bench/precision/rules.py", "../..", out, "test").CombinedOutput(); err != nil {
		t.Fatalf("rules.py: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	for _, s := range strings.Split(string(b), "\n### ")[1:] {
		head, body, _ := strings.Cut(s, "\n")
		id, _, _ := strings.Cut(head, " ")
		if _, dup := sections[id]; dup {
			t.Errorf("RULES.md: %s twice", id)
		}
		sections[id] = head + "\n" + body
	}
	for _, p := range Passes {
		for _, r := range p.Rules {
			s, ok := sections[r.ID]
			if r.Level != checks.Default {
				if ok {
					t.Errorf("RULES.md: opt-in %s rendered", r.ID)
				}
				continue
			}
			if !ok {
				t.Errorf("RULES.md: no section for %s", r.ID)
				continue
			}
			delete(sections, r.ID)
			head, rest, _ := strings.Cut(s, "\n")
			if want := r.ID + " " + r.Slug + ": " + r.Title; head != want {
				t.Errorf("RULES.md: heading %q, want %q", head, want)
			}
			paras := strings.Split(strings.TrimSpace(rest), "\n\n")
			if len(paras) < 2 {
				t.Errorf("RULES.md: %s has no text", r.ID)
				continue
			}
			text := paras[1]
			if n := min(len(text), 80); !strings.HasPrefix(r.Text, text[:n]) {
				t.Errorf("RULES.md: %s's text starts %q, its rule's %q", r.ID, text[:n], r.Text[:min(len(r.Text), 80)])
			}
			for _, sentence := range strings.Split(text, ". ") {
				if !strings.Contains(r.Text, sentence) {
					t.Errorf("RULES.md: %s's text has %q, which its rule's text has not", r.ID, sentence)
				}
			}
		}
	}
	for id := range sections {
		t.Errorf("RULES.md: %s is no rule of the suite", id)
	}
}
