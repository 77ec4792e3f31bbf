package report

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/interleave-dev/interleave/checks"
)

// JSONVersion is the version of the JSON envelope. It changes only when a
// field is removed or changes meaning; adding a field keeps it. Version 2
// dropped failsWithoutInterleave: those failures are findings, labelled
// (frequency, plainGoTest).
const JSONVersion = 2

// JSON is the machine-readable format: a versioned envelope around the
// findings, each with its fingerprint.
type JSON struct{}

var _ Writer = JSON{}

// JSONReport is the envelope JSON writes; consumers decode into it.
type JSONReport struct {
	Version  int           `json:"version"`
	Tool     JSONTool      `json:"tool"`
	Summary  JSONSummary   `json:"summary"`
	Findings []JSONFinding `json:"findings"`
	// PreExisting are summary-only failures (Report.PreExisting).
	PreExisting []JSONFinding `json:"preExisting,omitempty"`
	// Uncompared are summary-only failures (Report.Uncompared).
	Uncompared []JSONFinding `json:"uncompared,omitempty"`
	// Tests is what the dynamic search did per test.
	Tests []TestRun `json:"tests,omitempty"`
	// Search is the search's wall time after the build and its budget.
	Search *SearchTime `json:"search,omitempty"`
	// ChangedSites is what the search did at the change's sites.
	ChangedSites *ChangedSites `json:"changedSites,omitempty"`
	// Notes are what the search says that is not a finding.
	Notes []string `json:"notes,omitempty"`
}

// JSONTool names the producer.
type JSONTool struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// JSONSummary counts findings per severity.
type JSONSummary struct {
	Total   int `json:"total"`
	Error   int `json:"error"`
	Warning int `json:"warning"`
	Note    int `json:"note"`
}

// JSONFinding is a finding plus what consumers should not recompute.
type JSONFinding struct {
	checks.Finding
	Slug        string `json:"slug,omitempty"`
	Fingerprint string `json:"fingerprint"`
}

// Write implements Writer.
func (JSON) Write(w io.Writer, r *Report) error {
	fs := relative(r)
	out := JSONReport{
		Version:  JSONVersion,
		Tool:     JSONTool{Name: "interleave", Version: r.ToolVersion},
		Findings: make([]JSONFinding, 0, len(fs)),
	}
	for _, f := range fs {
		out.Findings = append(out.Findings, JSONFinding{Finding: f, Slug: ruleOf(f.Rule).Slug, Fingerprint: f.Fingerprint()})
		out.Summary.Total++
		switch f.Severity {
		case checks.Error:
			out.Summary.Error++
		case checks.Warning:
			out.Summary.Warning++
		default:
			out.Summary.Note++
		}
	}
	for _, f := range relativeList(r.Root, r.PreExisting) {
		out.PreExisting = append(out.PreExisting, JSONFinding{Finding: f, Slug: ruleOf(f.Rule).Slug, Fingerprint: f.Fingerprint()})
	}
	for _, f := range relativeList(r.Root, r.Uncompared) {
		out.Uncompared = append(out.Uncompared, JSONFinding{Finding: f, Slug: ruleOf(f.Rule).Slug, Fingerprint: f.Fingerprint()})
	}
	out.Tests = r.Tests
	if r.Search != nil {
		out.Search = r.Search.withOverrun()
	}
	out.ChangedSites = r.Changed
	out.Notes = r.Notes
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// DecodeJSON decodes a report JSON wrote: interleave's envelope of this
// version. Its errors read after "report NAME is".
func DecodeJSON(b []byte) (*JSONReport, error) {
	var r JSONReport
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("not an interleave JSON report: %v", err)
	}
	if r.Version != JSONVersion || r.Tool.Name != "interleave" {
		return nil, fmt.Errorf("tool %q version %d, want interleave JSON version %d", r.Tool.Name, r.Version, JSONVersion)
	}
	return &r, nil
}

// ReadJSON reads and decodes (DecodeJSON) the report at path.
func ReadJSON(path string) (*JSONReport, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read report: %w", err)
	}
	r, err := DecodeJSON(b)
	if err != nil {
		return nil, fmt.Errorf("report %s is %w", path, err)
	}
	return r, nil
}
