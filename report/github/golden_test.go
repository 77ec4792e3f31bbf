package github

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/report"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestRenderGolden checks a dynamic finding's review comment, its check
// run annotation details and its workflow command against golden files.
func TestRenderGolden(t *testing.T) {
	root := t.TempDir()
	schedule := ".interleave/schedules/TestWait-1.json"
	os.MkdirAll(filepath.Join(root, ".interleave/schedules"), 0o755)
	os.WriteFile(filepath.Join(root, schedule), []byte("{\"version\":1,\"note\":\"```\",\"decisions\":[0,1]}\n"), 0o644)
	f := deadlock(schedule)
	f.Message = "all goroutines are blocked <script> @octocat"
	rep := makeReport(t, f)
	p := &publisher{in: Input{Root: root}}
	jf := &rep.Findings[0]
	got := map[string]string{
		"comment-dynamic.md":     p.commentBody(jf),
		"annotation-details.txt": p.annotation(jf).GetRawDetails(),
		"workflow-command.txt":   workflowCommand(jf, DefaultReplayCommand),
	}
	for name, text := range got {
		golden := filepath.Join("testdata", "golden", name)
		if *updateGolden {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (go test ./report/github -run TestRenderGolden -update creates it)", err)
		}
		if text != string(want) {
			t.Errorf("%s differs (-update rewrites it)\ngot:\n%s\nwant:\n%s", golden, text, want)
		}
	}
	if !strings.Contains(got["comment-dynamic.md"], "````json") {
		t.Errorf("the schedule's own ``` does not lengthen the fence")
	}
}

// TestBankCommentGolden renders the review comments of the bundled
// example's deadlock and data race (../testdata/bank: the JSON report and
// schedule files of a real search): the told interleaving, the Mermaid
// diagram and the replay command that carries the schedule.
// scripts/mermaid-check.sh parses the diagrams with Mermaid.
func TestBankCommentGolden(t *testing.T) {
	root := filepath.Join("..", "testdata", "bank")
	b, err := os.ReadFile(filepath.Join(root, "findings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var jr report.JSONReport
	if err := json.Unmarshal(b, &jr); err != nil {
		t.Fatal(err)
	}
	for _, f := range jr.Findings {
		text := RenderComment(Input{Root: root, ToolVersion: jr.Tool.Version}, f)
		golden := filepath.Join("testdata", "golden", "bank-"+string(f.Kind)+".md")
		if *updateGolden {
			if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (go test ./report/github -run TestBankCommentGolden -update creates it)", err)
		}
		if text != string(want) {
			t.Errorf("%s differs (-update rewrites it)\ngot:\n%s\nwant:\n%s", golden, text, want)
		}
		for _, want := range []string{"**How it happens**", "```mermaid\nsequenceDiagram\n", "```sh\ngo run github.com/interleave-dev/interleave/cmd/interleave@" + jr.Tool.Version + " replay -s s1."} {
			if !strings.Contains(text, want) {
				t.Errorf("%s comment lacks %q", f.Kind, want)
			}
		}
	}
}
