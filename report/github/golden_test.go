package github

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
