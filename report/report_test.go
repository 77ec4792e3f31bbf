package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/interleave-dev/interleave/checks"
)

// The fixture's static rules. report must not depend on the suite, so the
// test registers look-alikes under IDs the suite does not use.
func init() {
	checks.Register(
		checks.Rule{ID: "IL8101", Slug: "test-lock-order", Title: "Two locks acquired in opposite orders", Severity: checks.Error, Level: checks.Default,
			Text: "One path takes A then B, another takes B then A. Pick one order."},
		checks.Rule{ID: "IL8102", Slug: "test-unguarded-field", Title: "Field accessed without the mutex that guards it elsewhere", Severity: checks.Warning, Level: checks.Default,
			Text: "Take the lock here, or document why the value is not shared yet."},
		checks.Rule{ID: "IL8103", Slug: "test-unused-directive", Title: "Suppression that matched nothing", Severity: checks.Note, Level: checks.Default,
			Text: "Remove the directive."},
	)
}

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// fixture is a report with one of everything: static findings with related
// positions, a note, a message with a pipe, a dynamic finding with
// goroutines and a readable schedule, and one without a position.
func fixture(t *testing.T) *Report {
	t.Helper()
	root, err := filepath.Abs("testdata/repo")
	if err != nil {
		t.Fatal(err)
	}
	at := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	return &Report{
		Root:        root,
		ToolVersion: "v0.1.0",
		Notes:       []string{"TestSlow: not searched: its unperturbed run did not finish in its share"},
		Findings: []checks.Finding{
			{
				Rule: "IL8101", Severity: checks.Error, Evidence: checks.Static,
				Message: "locks a.mu and b.mu acquired in opposite orders",
				Pos:     checks.Position{File: at("bank/transfer.go"), Line: 21, Column: 2, EndLine: 21, EndColumn: 12},
				Related: []checks.Related{
					{Position: checks.Position{File: at("bank/transfer.go"), Line: 20, Column: 2}, Message: "a.mu acquired here first"},
					{Position: checks.Position{File: at("bank/audit.go"), Line: 14, Column: 2}, Message: "b.mu acquired first on this path"},
				},
				Package: "example.com/bank", Func: "Transfer", Snippet: "b.mu.Lock()",
			},
			{
				Rule: "IL8102", Severity: checks.Warning, Evidence: checks.Static,
				Message: "field a.balance read without holding a.mu (held at 3 of 4 other accesses) | pipe",
				Pos:     checks.Position{File: at("bank/account.go"), Line: 42, Column: 9},
				Package: "example.com/bank", Func: "Account.Peek", Snippet: "return a.balance",
			},
			{
				Rule: "IL8103", Severity: checks.Note, Evidence: checks.Static,
				Message: "directive //interleave:ignore IL1001 matched no finding",
				Pos:     checks.Position{File: at("bank/account.go"), Line: 50, Column: 2},
				Package: "example.com/bank", Func: "Account.Reset",
			},
			{
				Rule: checks.DynamicRuleID(checks.Deadlock), Severity: checks.Error, Evidence: checks.Dynamic, Kind: checks.Deadlock,
				Message: "all goroutines are blocked",
				Pos:     checks.Position{File: at("bank/transfer.go"), Line: 21, Column: 2},
				Test:    "TestConcurrentTransfers", Package: "example.com/bank", Func: "Transfer", Snippet: "b.mu.Lock()",
				Goroutines: []checks.Goroutine{
					{ID: "g1", State: "blocked on sync.Mutex.Lock", Site: at("bank/transfer.go") + ":21", Stack: []checks.Frame{
						{Func: "example.com/bank.Transfer", File: at("bank/transfer.go"), Line: 21},
						{Func: "example.com/bank.TestConcurrentTransfers.func1", File: at("bank/bank_test.go"), Line: 30},
					}},
					{ID: "g2", State: "blocked on sync.Mutex.Lock", Site: at("bank/transfer.go") + ":21", Stack: []checks.Frame{
						{Func: "example.com/bank.Transfer", File: at("bank/transfer.go"), Line: 21},
					}},
				},
				Schedule:  at("schedules/deadlock.json"),
				Replay:    "interleave replay schedules/deadlock.json",
				Frequency: &checks.Frequency{Failing: 12, Schedules: 340},
				PlainGo:   &checks.PlainGo{Command: "go test -race -run '^TestConcurrentTransfers$'", Runs: 3},
			},
			{
				Rule: checks.DynamicRuleID(checks.Leak), Severity: checks.Error, Evidence: checks.Dynamic, Kind: checks.Leak,
				Message: "goroutine g3 still blocked on chan send after the test returned",
				Test:    "TestFirstReply", Package: "example.com/bank",
				Goroutines: []checks.Goroutine{
					{ID: "g3", State: "blocked on chan send", Stack: []checks.Frame{
						{Func: "runtime.chansend1", File: "/usr/local/go/src/runtime/chan.go", Line: 161},
						{Func: "example.com/bank.fetch.func1", File: at("bank/fetch.go"), Line: 12},
					}},
				},
				Schedule:  at("schedules/missing.json"),
				Replay:    "interleave replay -tries 5 schedules/missing.json",
				Replays:   &checks.ReplayRate{Reproduced: 1, Tries: 2, Otherwise: "passed"},
				Frequency: &checks.Frequency{Failing: 80, Schedules: 80},
				PlainGo:   &checks.PlainGo{Command: "go test -race -run '^TestFirstReply$'", Runs: 1, LeavesSame: true},
				EarlyTimers: &checks.EarlyTimers{Jumps: 1, Searched: true, Moves: []checks.EarlyMove{{
					Ended:  []checks.EndedWait{{G: "g0", Op: "time.Sleep", Site: "fetch_test.go:20", Duration: "10ms", InTest: true}},
					Passed: []checks.PassedG{{G: "g3", Op: "chan send", Site: "fetch.go:12"}},
				}}},
			},
		},
	}
}

var goldenExt = map[string]string{"text": "txt", "json": "json", "sarif": "sarif", "markdown": "md"}

func TestGolden(t *testing.T) {
	cases := []struct {
		name   string
		report func(t *testing.T) *Report
	}{
		{"full", fixture},
		{"empty", func(t *testing.T) *Report { return &Report{Root: "/repo", ToolVersion: "v0.1.0"} }},
	}
	for _, c := range cases {
		for _, format := range Formats {
			t.Run(c.name+"/"+format, func(t *testing.T) {
				w, err := New(format)
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				if err := w.Write(&buf, c.report(t)); err != nil {
					t.Fatalf("write: %v", err)
				}
				golden := filepath.Join("testdata", "golden", c.name+"."+goldenExt[format])
				if *update {
					if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./report -update to create it)", err)
				}
				if got := buf.String(); got != string(want) {
					t.Errorf("output differs from %s (go test ./report -update rewrites it)\ngot:\n%s\nwant:\n%s", golden, got, want)
				}
			})
		}
	}
}

// sarifSchema compiles the official SARIF 2.1.0 schema (errata01), copied
// from go-sarif/v3 pkg/report/v210/sarif/schema.go, which embeds the OASIS
// file https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func TestSARIFValidatesAndSuitsGitHub(t *testing.T) {
	sch := sarifSchema(t)
	nowhere := &Report{Root: "/repo", Findings: []checks.Finding{{
		Rule: checks.DynamicRuleID(checks.Fatal), Severity: checks.Error, Evidence: checks.Dynamic, Kind: checks.Fatal,
		Message: "fatal error: concurrent map writes", Test: "TestMap",
	}}}
	for _, r := range []*Report{fixture(t), {Root: "/repo"}, nowhere} {
		var buf bytes.Buffer
		if err := (SARIF{}).Write(&buf, r); err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Fatalf("sarif does not validate against the 2.1.0 schema: %v\n%s", err, buf.String())
		}
		out := buf.String()
		if strings.Contains(out, "-1") {
			t.Errorf("sarif contains a -1 sentinel:\n%s", out)
		}
		if strings.Contains(out, filepath.ToSlash(r.Root)+"/") && r.Root != "/repo" {
			t.Errorf("sarif contains an absolute path under the root:\n%s", out)
		}
		var log struct {
			Runs []struct {
				Results []struct {
					RuleID              string            `json:"ruleId"`
					PartialFingerprints map[string]string `json:"partialFingerprints"`
					Locations           []struct {
						PhysicalLocation struct {
							Region struct {
								StartLine int `json:"startLine"`
							} `json:"region"`
						} `json:"physicalLocation"`
					} `json:"locations"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
			t.Fatal(err)
		}
		if len(log.Runs) != 1 {
			t.Fatalf("got %d runs, want 1", len(log.Runs))
		}
		if got, want := len(log.Runs[0].Results), len(r.Findings); got != want {
			t.Errorf("got %d results, want %d", got, want)
		}
		for i, res := range log.Runs[0].Results {
			if len(res.Locations) == 0 || res.Locations[0].PhysicalLocation.Region.StartLine < 1 {
				t.Errorf("result %d (%s) has no location with startLine >= 1", i, res.RuleID)
			}
			if res.PartialFingerprints["primaryLocationLineHash"] == "" {
				t.Errorf("result %d (%s) has no primaryLocationLineHash", i, res.RuleID)
			}
		}
	}
}

func TestNewUnknownFormat(t *testing.T) {
	_, err := New("xml")
	if err == nil || !strings.Contains(err.Error(), "valid values are text, json, sarif, markdown") {
		t.Errorf("got error %v, want one listing the valid formats", err)
	}
}

func TestRelFile(t *testing.T) {
	tests := []struct {
		name, root, file, want string
	}{
		{"inside", "/repo", "/repo/a/b.go", "a/b.go"},
		{"outside", "/repo", "/usr/local/go/src/x.go", "/usr/local/go/src/x.go"},
		{"sibling prefix", "/repo", "/repo2/x.go", "/repo2/x.go"},
		{"already relative", "/repo", "a/b.go", "a/b.go"},
		{"no root", "", "/repo/a.go", "/repo/a.go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := relFile(tt.root, tt.file); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestSARIFSchemaRejects makes sure the schema check above can fail: the
// README's WithLevel("high") is invalid SARIF.
func TestSARIFSchemaRejects(t *testing.T) {
	bad := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"level":"high","message":{"text":"m"}}]}]}`
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	if err := sarifSchema(t).Validate(inst); err == nil {
		t.Error("a result with level \"high\" validated, want a schema error")
	}
}
