package prjob

import (
	"slices"
	"strings"
	"testing"
)

func TestVetErrors(t *testing.T) {
	out := "# example.com/m/user\nuser/user.go:6:34: undefined: work.Total\n# [example.com/m/x]\nvet: x/x.go:3:1: missing return\nuser/user.go:6:34: undefined: work.Total\n"
	got := vetErrors(out)
	want := []string{"user/user.go:6:34: undefined: work.Total", "x/x.go:3:1: missing return"}
	if !slices.Equal(got, want) {
		t.Errorf("vetErrors = %q, want %q", got, want)
	}
}

func TestBrokenSummary(t *testing.T) {
	r := &job{}
	if s := r.brokenSummary(); s != "" {
		t.Errorf("no broken package: summary %q", s)
	}
	p := r.broken.get("example.com/m/legacy")
	p.errs = []string{"a.go:1:1: one", "a.go:2:1: two", "a.go:3:1: three", "a.go:4:1: four ```"}
	p.plain, p.base = "fails", "fails"
	q := r.broken.get("example.com/m/new")
	q.touched, q.plain, q.base = true, "passes", "absent"
	s := r.brokenSummary()
	for _, want := range []string{
		"**Not analyzed: 2 packages that do not compile**",
		"- `example.com/m/new`: does not compile; go vet passes on it: interleave could not load it; it is new in this change\n- `example.com/m/legacy`: does not compile; go vet fails on it too; it does not compile on the base commit either\n",
		"  a.go:3:1: three\n  ... and 1 more\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "four") {
		t.Errorf("summary shows more than %d compiler lines:\n%s", showErrors, s)
	}
}
