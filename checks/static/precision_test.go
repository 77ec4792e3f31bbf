package static

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
)

// The rule table (docs/rules.md, moved there from the README) says, for
// every rule, the held-out precision behind it and whether a pull request
// is shown its findings unconfirmed: both must be what precision.go says.
func TestREADMERuleTableFollowsPrecision(t *testing.T) {
	b, err := os.ReadFile("../../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^\| (IL\d{4}) \|.*\| ([^|]+) \| ([^|]+) \|$`)
	seen := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(string(b), -1) {
		id, measured, pr := m[1], m[2], m[3]
		seen[id] = true
		want := "—"
		if p, ok := Precision[id]; ok {
			want = fmt.Sprintf("%d/%d", p.True, p.Of)
		}
		if measured != want {
			t.Errorf("docs/rules.md: %s measured %q, precision.go says %q", id, measured, want)
		}
		wantPR := "if confirmed"
		if strings.HasPrefix(id, "IL9") || PostedUnconfirmed(id) {
			wantPR = "posted"
		}
		if pr != wantPR {
			t.Errorf("docs/rules.md: %s on a pull request %q, want %q", id, pr, wantPR)
		}
	}
	for _, r := range checks.Rules() {
		if !seen[r.ID] {
			t.Errorf("docs/rules.md: the rule table has no row for %s", r.ID)
		}
	}
	for id := range Precision {
		if _, ok := checks.LookupRule(id); !ok {
			t.Errorf("precision.go measures %s, which is no rule", id)
		}
	}
}

func TestPostedUnconfirmed(t *testing.T) {
	old := Precision["IL2002"]
	t.Cleanup(func() { Precision["IL2002"] = old })
	for _, m := range []struct {
		m    Measured
		want bool
	}{{Measured{9, 10}, true}, {Measured{9, 9}, false}, {Measured{27, 30}, true}, {Measured{26, 29}, false}, {Measured{27, 31}, false}} {
		Precision["IL2002"] = m.m
		if got := PostedUnconfirmed("IL2002"); got != m.want {
			t.Errorf("PostedUnconfirmed(IL2002) at %d/%d = %v, want %v", m.m.True, m.m.Of, got, m.want)
		}
	}
	Precision["IL2002"] = old
	for rule, want := range map[string]bool{
		"IL2003": false, // below 90%
		"IL2001": false, // below 90%
		"IL1005": false, // no true finding
		"IL0001": true,  // the tool's own
	} {
		if got := PostedUnconfirmed(rule); got != want {
			t.Errorf("PostedUnconfirmed(%s) = %v, want %v", rule, got, want)
		}
	}
}
