package e2e

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/internal/testctx"
	"github.com/interleave-dev/interleave/report"
	"github.com/interleave-dev/interleave/report/github/ghtest"
)

// pullChange is a pr-command repository holding a base commit and a head
// commit that changes it: the end-to-end tests' pull request.
type pullChange struct {
	*prRepo
	base, head string
}

// newPullChange commits baseFiles, then headFiles over them.
func newPullChange(t *testing.T, baseFiles, headFiles map[string]string) *pullChange {
	t.Helper()
	r := newPRRepo(t)
	base := r.commit(baseFiles)
	return &pullChange{prRepo: r, base: base, head: r.commit(headFiles)}
}

// lineIn returns the number of the first line of src that contains s.
func lineIn(t *testing.T, src, s string) int {
	t.Helper()
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%q not in the source", s)
	return 0
}

// replays fails t unless each finding's schedule, read from the file its
// replay line names, reproduces in a fresh process; the findings of one
// package (and generated file) share one instrumented build
// (explore.ReplayMany).
func (r *prRepo) replays(t *testing.T, fs ...*report.JSONFinding) {
	t.Helper()
	ctx := testctx.New(t)
	var scheds []*rt.Schedule
	var from []*report.JSONFinding
	for _, f := range fs {
		s, err := explore.ReadSchedule(filepath.Join(r.dir, filepath.FromSlash(f.Schedule)))
		if err != nil {
			t.Errorf("replay %s: %v", f.Schedule, err)
			continue
		}
		scheds, from = append(scheds, s), append(from, f)
	}
	rrs, errs := explore.ReplayMany(ctx, scheds, explore.ReplayOptions{Dir: r.dir})
	for i, f := range from {
		if errs[i] != nil || rrs[i].Outcome != explore.Reproduced {
			t.Errorf("replay %s: %v, %v; want %s", f.Schedule, rrs[i], errs[i], explore.Reproduced)
		}
	}
}

// post posts the report out on pull request number of a fake octo/demo
// whose one changed file is file, with the change's own diff of it, and
// returns the fake GitHub.
func (c *pullChange) post(t *testing.T, out, file string, number int) *ghtest.Server {
	t.Helper()
	patch := c.git("diff", c.base, c.head, "--", file)
	patch = patch[strings.Index(patch, "@@"):] + "\n"
	s := ghtest.New(t)
	s.AddToken("ghs_post", true)
	s.AddPull(ghtest.Pull{Owner: "octo", Repo: "demo", Number: number, HeadSHA: c.head, BaseSHA: c.base,
		Files: []ghtest.File{{Filename: file, Patch: patch}}})
	vars := map[string]string{"GITHUB_TOKEN": "ghs_post", "GITHUB_API_URL": s.URL()}
	if code, _, stderr := postRun(t, c.dir, vars, "-report", out, "-repo", "octo/demo", "-pr", strconv.Itoa(number), "-sha", c.head); code != exitOK {
		t.Fatalf("post: exit %d\n%s", code, stderr)
	}
	return s
}

// prFindings runs pr on the change (-base, JSON report) with args, wants
// exit 1 (findings), and returns the report, where it was written and
// pr's standard error.
func (c *pullChange) prFindings(t *testing.T, args ...string) (rep *report.JSONReport, out, stderr string) {
	t.Helper()
	out = filepath.Join(c.dir, "out.json")
	var code int
	code, _, stderr = c.runPR(append([]string{"-base", c.base, "-format", "json", "-o", out}, args...)...)
	t.Logf("interleave pr stderr:\n%s", stderr)
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d (findings)", code, exitFindings)
	}
	rep, err := report.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	return rep, out, stderr
}
