package github

import (
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
)

// TestReplayRateComment (issue 21): a finding that reproduced on some fresh
// replays only is posted labelled, and every replay command the comment,
// the annotation and the workflow command print asks for -tries.
func TestReplayRateComment(t *testing.T) {
	schedule := ".interleave/schedules/TestWait-1.json"
	f := deadlock(schedule)
	f.Replays = &checks.ReplayRate{Reproduced: 1, Tries: 2, Otherwise: "passed"}
	rep := makeReport(t, f)
	jf := &rep.Findings[0]
	p := &publisher{in: Input{Root: t.TempDir()}}
	body := p.commentBody(jf)
	if !strings.Contains(body, "reproduced on 1 of 2 fresh replays") {
		t.Errorf("comment lacks the replay rate:\n%s", body)
	}
	if !strings.Contains(body, DefaultReplayCommand+" -tries 5 ") {
		t.Errorf("comment's replay command lacks -tries 5:\n%s", body)
	}
	if wc := workflowCommand(jf, DefaultReplayCommand); !strings.Contains(wc, DefaultReplayCommand+" -tries 5 ") {
		t.Errorf("workflow command lacks -tries 5:\n%s", wc)
	}
	// With the schedule in the command (a token), -tries comes before -s.
	jf.ReplayToken = "abc"
	if cmd := p.tokenCommand(&jf.Finding); !strings.Contains(cmd, " -tries 5 -s abc") {
		t.Errorf("token command = %q, want -tries 5 before -s", cmd)
	}
}

// TestLongTokenComment: a finding whose token would not fit a comment
// (a schedule carrying many earlier runs) is posted with its schedule
// file's replay command, not a token cut short by GitHub's 65,536
// characters.
func TestLongTokenComment(t *testing.T) {
	schedule := ".interleave/schedules/TestWait-1.json"
	rep := makeReport(t, deadlock(schedule))
	jf := &rep.Findings[0]
	jf.ReplayToken = "s1." + strings.Repeat("x", maxCommentBody)
	p := &publisher{in: Input{Root: t.TempDir()}}
	body := p.commentBody(jf)
	if len(body) > maxCommentBody || strings.Contains(body, " -s s1.") {
		t.Fatalf("comment of %d bytes carries the token (at most %d)", len(body), maxCommentBody)
	}
	if !strings.Contains(body, schedule) {
		t.Errorf("comment lacks the schedule file's replay command:\n%s", body)
	}
}
