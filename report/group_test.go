package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/interleave-dev/interleave/checks"
)

// grouped is a report of one data race standing for three failures of its
// cause in two tests.
func grouped() *Report {
	at := func(line int) checks.Position { return checks.Position{File: "/repo/cache/cache.go", Line: line} }
	return &Report{Root: "/repo", Findings: []checks.Finding{{
		Rule: checks.DynamicRuleID(checks.DataRace), Severity: checks.Error, Evidence: checks.Dynamic, Kind: checks.DataRace,
		Message: "TestReaders: data race: write at cache.go:26 in Get and previous read at cache.go:40 in Hits", Test: "TestReaders",
		Pos: at(26), Related: []checks.Related{{Position: at(40), Message: "previous read in Hits"}}, Schedule: "/repo/s/a.json",
		SameCause: []checks.Occurrence{
			{Test: "TestReaders", Message: "TestReaders: data race: write at cache.go:28 in Get and previous read at cache.go:45 in Stats", Pos: at(28), Schedule: "/repo/s/b.json",
				Goroutines: []checks.Goroutine{{ID: "g1", State: "write", Site: "/repo/cache/cache.go:28", Stack: []checks.Frame{{Func: "cache.(*Cache).Get", File: "/repo/cache/cache.go", Line: 28}}}}},
			{Test: "TestReaders", Message: "TestReaders: data race: write at cache.go:30 in Get and previous write at cache.go:30 in Get", Pos: at(30), Schedule: "/repo/s/c.json"},
			{Test: "TestHits", Message: "TestHits: data race: write at cache.go:26 in Get and previous read at cache.go:40 in Hits", Pos: at(26), Schedule: "/repo/s/d.json"},
		},
	}}}
}

// Every format lists the other failures of a finding's cause under it.
func TestSameCauseInEveryFormat(t *testing.T) {
	write := func(w Writer) string {
		var buf bytes.Buffer
		if err := w.Write(&buf, grouped()); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	text := write(Text{})
	for _, want := range []string{"\t3 more failures of the same cause (tests TestReaders, TestHits):\n",
		"\t\tcache/cache.go:28: TestReaders: data race: write at cache.go:28", "\t\tcache/cache.go:26: TestHits: data race"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	md := write(Markdown{})
	for _, want := range []string{"**Same cause**: 3 more failures of the same cause (tests TestReaders, TestHits)", "- `cache/cache.go:30`: TestReaders: data race"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(md, "1 finding") {
		t.Errorf("markdown does not count one finding:\n%s", md)
	}

	var rep JSONReport
	if err := json.Unmarshal([]byte(write(JSON{})), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 1 || len(rep.Findings[0].SameCause) != 3 || rep.Findings[0].SameCause[0].Pos.File != "cache/cache.go" || rep.Findings[0].SameCause[0].Schedule != "s/b.json" {
		t.Errorf("json: %+v", rep.Findings)
	}
	if o := rep.Findings[0].SameCause[0]; len(o.Goroutines) != 1 || o.Goroutines[0].Site != "cache/cache.go:28" || o.Goroutines[0].Stack[0].File != "cache/cache.go" {
		t.Errorf("json: the occurrence's goroutines %+v, want its stack, relative to the root", o.Goroutines)
	}

	out := write(SARIF{})
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if err := sarifSchema(t).Validate(inst); err != nil {
		t.Fatalf("sarif does not validate: %v", err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RelatedLocations []struct {
					ID      int `json:"id"`
					Message struct {
						Text string `json:"text"`
					} `json:"message"`
				} `json:"relatedLocations"`
				Properties map[string]any `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	res := log.Runs[0].Results
	if len(res) != 1 || len(res[0].RelatedLocations) != 4 || res[0].RelatedLocations[3].ID != 4 ||
		!strings.HasPrefix(res[0].RelatedLocations[1].Message.Text, "same cause: TestReaders: data race") || res[0].Properties["sameCause"] != float64(3) {
		t.Errorf("sarif results: %+v", res)
	}
}
