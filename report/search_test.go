package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The JSON report carries the search's wall time after the build and its
// budget when the search set them, and leaves them out otherwise.
func TestJSONSearchTime(t *testing.T) {
	for _, st := range []*SearchTime{nil, {BudgetMS: 30000, AfterBuildMS: 30450}} {
		var buf bytes.Buffer
		if err := (JSON{}).Write(&buf, &Report{Search: st}); err != nil {
			t.Fatal(err)
		}
		var out JSONReport
		if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
			t.Fatal(err)
		}
		switch {
		case st == nil && out.Search != nil:
			t.Errorf("no search: got %+v", out.Search)
		case st != nil && (out.Search == nil || *out.Search != *st):
			t.Errorf("search %+v: got %+v in %s", st, out.Search, buf.String())
		}
	}
}
