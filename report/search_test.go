package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The JSON report carries the search's wall time after the build, its
// budget and how far past it the search ran, in percent of it, when the
// search set them, and leaves them out otherwise.
func TestJSONSearchTime(t *testing.T) {
	for _, c := range []struct {
		in   *SearchTime
		over float64
	}{
		{nil, 0},
		{&SearchTime{BudgetMS: 30000, AfterBuildMS: 30450}, 1.5},
		{&SearchTime{BudgetMS: 120000, AfterBuildMS: 129100}, 7.6}, // gocron-stop-twice, regress20
		{&SearchTime{BudgetMS: 120000, AfterBuildMS: 114700}, -4.4},
		{&SearchTime{AfterBuildMS: 5000}, 0}, // no budget
	} {
		var buf bytes.Buffer
		if err := (JSON{}).Write(&buf, &Report{Search: c.in}); err != nil {
			t.Fatal(err)
		}
		var out JSONReport
		if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
			t.Fatal(err)
		}
		switch {
		case c.in == nil && out.Search != nil:
			t.Errorf("no search: got %+v", out.Search)
		case c.in != nil && (out.Search == nil || out.Search.BudgetMS != c.in.BudgetMS || out.Search.AfterBuildMS != c.in.AfterBuildMS || out.Search.OverrunPct != c.over):
			t.Errorf("search %+v: got %+v in %s, want overrunPct %v", c.in, out.Search, buf.String(), c.over)
		}
	}
}
