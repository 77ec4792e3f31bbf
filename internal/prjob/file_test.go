package prjob

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// exampleFile is docs/config.md's example; TestConfigDocExample keeps
// them equal.
const exampleFile = `# .interleave.yaml: settings of interleave for this module.
exclude:
  - ./contrib/...        # broken at this release; CI leaves it out too
rules:
  enable: [all]
  disable: [IL5003]
budget: 5m
gen-budget: auto
tests:
  run: ^Test
  skip: ^TestSlow
tags: [integration]
ignore:
  - rule: IL9003
    test: TestOppositeTransfers
    reason: known deadlock, tracked in issue 12
  - path: internal/legacy
    reason: frozen code, replaced next release
`

func TestParseFileExample(t *testing.T) {
	f, err := ParseFile(FileName, []byte(exampleFile))
	if err != nil {
		t.Fatal(err)
	}
	if f.Budget == nil || *f.Budget != 5*time.Minute || f.GenBudget != "auto" || f.Run != "^Test" || f.Skip != "^TestSlow" {
		t.Errorf("parsed %+v", f)
	}
	if strings.Join(f.Exclude, " ") != "./contrib/..." || strings.Join(f.Enable, " ") != "all" || strings.Join(f.Disable, " ") != "IL5003" || strings.Join(f.Tags, " ") != "integration" {
		t.Errorf("parsed %+v", f)
	}
	if len(f.Ignore) != 2 || f.Ignore[0].Rule != "IL9003" || f.Ignore[0].Where != ".interleave.yaml:14" || f.Ignore[1].Path != "internal/legacy" {
		t.Errorf("ignore %+v", f.Ignore)
	}
	if f.Lines["budget"] != 7 || f.Lines["tests.skip"] != 11 || f.Lines["rules.disable"] != 6 {
		t.Errorf("lines %v", f.Lines)
	}
}

func TestParseFileErrors(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"unknown key", "budget: 1m\nbudgte: 2m\n", ".interleave.yaml:2:1: unknown key \"budgte\": valid keys are budget, exclude, gen-budget, ignore, max-steps, rules, tags, tests"},
		{"max-steps not a number", "max-steps: many\n", ".interleave.yaml:1:12: max-steps: want a positive number of scheduling steps, such as 500000"},
		{"max-steps zero", "max-steps: 0\n", ".interleave.yaml:1:12: max-steps: want a positive number of scheduling steps, such as 500000"},
		{"max-steps fraction", "max-steps: 1.5\n", ".interleave.yaml:1:12: max-steps: want a positive number of scheduling steps, such as 500000"},
		{"unknown nested key", "rules:\n  enable: [all]\n  disabel: [IL5003]\n", ".interleave.yaml:3:3: unknown key \"disabel\" in rules: valid keys are disable, enable"},
		{"unknown key in ignore", "ignore:\n  - rule: IL9003\n    reason: x\n    file: a.go\n", ".interleave.yaml:4:5: unknown key \"file\" in ignore.0"},
		{"wrong type", "budget: 1m\ntags: integration\n", ".interleave.yaml:2:7: tags: want array, got string"},
		{"wrong type in list", "rules:\n  disable: [IL5003, 12]\n", ".interleave.yaml:2:21: rules.disable.1: want string, got number"},
		{"bad duration", "budget: five minutes\n", ".interleave.yaml:1:9: budget: want a duration such as 5m, 90s or 0"},
		{"no reason", "ignore:\n  - rule: IL9003\n", ".interleave.yaml:2:5: ignore.0: missing reason: every ignore entry says why"},
		{"only a reason", "ignore:\n  - reason: because\n", ".interleave.yaml:2:5: ignore.0: an ignore entry needs a reason and at least one of rule, test or path"},
		{"unknown rule", "rules:\n  enable: [IL0000]\n", ".interleave.yaml:2:12: rules.enable: unknown static rule \"IL0000\""},
		{"bad regexp", "tests:\n  skip: '(('\n", ".interleave.yaml:2:9: tests.skip: element 0 of"},
		{"bad subtest element", "tests:\n  run: 'TestA/(('\n", `.interleave.yaml:2:8: tests.run: element 1 of "TestA/(("`},
		{"pattern outside", "exclude: [./a/../..]\n", ".interleave.yaml:1:11: exclude:"},
		{"not a pattern", "exclude: [contrib]\n", ".interleave.yaml:1:11: exclude.0: want a package pattern"},
		{"duplicate key", "budget: 1m\nbudget: 2m\n", ".interleave.yaml:2:1: key \"budget\" given twice"},
		{"not yaml", "budget: [1m\n", ".interleave.yaml: "},
		{"not a mapping", "- budget\n", ".interleave.yaml:1:1: want object, got array"},
		{"alias", "tags: &t [a]\nrules:\n  enable: *t\n", ".interleave.yaml:1:7: YAML anchors and aliases are not supported"},
		{"too large", "# " + strings.Repeat("x", MaxFileSize) + "\n", "bytes, more than the 65536 a config file may have"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseFile(FileName, []byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseFile(%.200q) = %.500v, want %q", tc.data, err, tc.want)
			}
		})
	}
}

func TestParseFileEmpty(t *testing.T) {
	for _, data := range []string{"", "# nothing yet\n"} {
		f, err := ParseFile(FileName, []byte(data))
		if err != nil || len(f.Lines) != 0 {
			t.Errorf("ParseFile(%q) = %+v, %v", data, f, err)
		}
	}
}

// TestSchemaPublished keeps docs/interleave.schema.json equal to the
// embedded schema.
func TestSchemaPublished(t *testing.T) {
	docs, err := os.ReadFile(filepath.Join("..", "..", "docs", "interleave.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(docs, SchemaJSON) {
		t.Error("docs/interleave.schema.json differs from internal/prjob/interleave.schema.json: copy it")
	}
}

// TestConfigDocExample keeps docs/config.md's example valid.
func TestConfigDocExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "config.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```yaml\n"+exampleFile+"```") {
		t.Error("docs/config.md does not hold the example file of file_test.go")
	}
	for _, s := range FileSettings {
		if !strings.Contains(string(doc), "`"+s+"`") {
			t.Errorf("docs/config.md does not describe %s", s)
		}
	}
}

// TestPrecedence: defaults < file < flags.
func TestPrecedence(t *testing.T) {
	f, err := ParseFile(FileName, []byte(exampleFile))
	if err != nil {
		t.Fatal(err)
	}
	c := DefaultConfig()
	fs := flag.NewFlagSet("pr", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	flags := c.Register(fs)
	if err := fs.Parse([]string{"-budget", "30s", "-disable", "IL2001", "-skip", "^TestX$"}); err != nil {
		t.Fatal(err)
	}
	if err := flags.Check(); err != nil {
		t.Fatal(err)
	}
	src := ApplyFile(&c, f, FlagGiven(fs))
	if c.Budget != 30*time.Second || strings.Join(c.Disable, ",") != "IL2001" || c.Skip.String() != "^TestX$" {
		t.Errorf("flags did not win: budget %v, disable %v, skip %v", c.Budget, c.Disable, c.Skip)
	}
	if c.Run.String() != "^Test" || strings.Join(c.Tags, ",") != "integration" || strings.Join(c.Enable, ",") != "all" || len(c.Ignore) != 2 || strings.Join(c.Exclude, ",") != "./contrib/..." {
		t.Errorf("file did not apply: %+v", c)
	}
	want := Sources{"budget": "flag -budget", "rules.disable": "flag -disable", "tests.skip": "flag -skip",
		"tests.run": ".interleave.yaml:10", "tags": ".interleave.yaml:12", "ignore": ".interleave.yaml:13",
		"exclude": ".interleave.yaml:2", "rules.enable": ".interleave.yaml:5", "gen-budget": ".interleave.yaml:8"}
	for k, v := range want {
		if src[k] != v {
			t.Errorf("source of %s = %q, want %q", k, src[k], v)
		}
	}
	// No file: defaults.
	d := DefaultConfig()
	src = ApplyFile(&d, nil, func(string) string { return "" })
	if d.Budget != DefaultBudget || src["budget"] != "default" {
		t.Errorf("no file: budget %v from %q", d.Budget, src["budget"])
	}
	var b strings.Builder
	PrintSettings(&b, &c, ApplyFile(&c, f, FlagGiven(fs)))
	for _, line := range []string{"budget         30s", "flag -budget", "tests.run      ^Test", ".interleave.yaml:10", "ignore rule IL9003, test TestOppositeTransfers: known deadlock, tracked in issue 12 (.interleave.yaml:14)"} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("settings lack %q:\n%s", line, b.String())
		}
	}
}

func TestFilterIgnored(t *testing.T) {
	f, err := ParseFile(FileName, []byte(exampleFile))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	mod := filepath.Join(root, "mod")
	fs := []checks.Finding{
		{Rule: "IL9003", Test: "TestOppositeTransfers", Pos: checks.Position{File: "mod/bank.go"}},
		{Rule: "IL9003", Test: "TestOther", Pos: checks.Position{File: "mod/bank.go"}},
		{Rule: "IL2001", Pos: checks.Position{File: "mod/internal/legacy/old.go"}},
		{Rule: "IL2001", Pos: checks.Position{File: "mod/internal/legacy2/new.go"}},
	}
	kept, lines := FilterIgnored(fs, f.Ignore, mod, root)
	if len(kept) != 2 || kept[0].Test != "TestOther" || kept[1].Pos.File != "mod/internal/legacy2/new.go" {
		t.Errorf("kept %+v", kept)
	}
	if len(lines) != 2 || !strings.Contains(lines[0], "1 finding kept out as a known failure (.interleave.yaml:14): known deadlock") {
		t.Errorf("notes %q", lines)
	}
	kept, note := FilterExcluded(fs, mod, root, []string{"./internal/legacy"})
	if len(kept) != 3 || !strings.Contains(note, "1 finding in excluded packages") {
		t.Errorf("excluded: kept %d, note %q", len(kept), note)
	}
}

func TestFilterTests(t *testing.T) {
	c := DefaultConfig()
	c.Skip = rt.MustParseRun(`Slow`)
	c.Exclude = []string{"./contrib/..."}
	tests := []affected.Test{
		{Package: "example.com/m", Name: "TestA"},
		{Package: "example.com/m", Name: "TestSlowA"},
		{Package: "example.com/m/contrib/grpc", Name: "TestB"},
		{Package: "example.com/m/contribx", Name: "TestC"},
	}
	kept, dropped := FilterTests(tests, &c, "/ws/m", "example.com/m")
	if dropped != 2 || len(kept) != 2 || kept[0].Name != "TestA" || kept[1].Name != "TestC" {
		t.Errorf("kept %+v, dropped %d", kept, dropped)
	}
}

// TestRunSkipSubtests: pr's -run and -skip take go test's syntax: a pattern
// with subtest elements selects its test among the affected ones and
// goes to the search, which applies it to the subtests; -skip of a subtest
// keeps its test.
func TestRunSkipSubtests(t *testing.T) {
	tests := []affected.Test{
		{Package: "example.com/m", Name: "TestX"},
		{Package: "example.com/m", Name: "TestY"},
	}
	run := rt.MustParseRun("TestX/sub a")
	if kept := selectedTests(tests, run); len(kept) != 1 || kept[0].Name != "TestX" {
		t.Errorf("-run %q selected %+v, want TestX", run, kept)
	}
	if got := subtestPattern(run); got != "TestX/sub a" {
		t.Errorf("subtestPattern(%q) = %q, want it whole", run, got)
	}
	if got := subtestPattern(rt.MustParseRun("TestX|TestY")); got != "" {
		t.Errorf("subtestPattern of top-level names = %q, want none", got)
	}
	c := DefaultConfig()
	c.Skip = rt.MustParseRun("TestX/sub|TestY")
	kept, dropped := FilterTests(tests, &c, "/ws/m", "example.com/m")
	if dropped != 1 || len(kept) != 1 || kept[0].Name != "TestX" {
		t.Errorf("-skip %q kept %+v, dropped %d; want TestX kept, TestY dropped", c.Skip, kept, dropped)
	}
}

// max-steps in the file sets Config.MaxSteps, which a flag overrides, and
// Args carries it to the job the Action and the App run.
func TestMaxStepsSetting(t *testing.T) {
	f, err := ParseFile(FileName, []byte("max-steps: 500000\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := DefaultConfig()
	src := ApplyFile(&c, f, func(string) string { return "" })
	if c.MaxSteps != 500000 || src["max-steps"] != FileName+":1" {
		t.Errorf("MaxSteps %d from %q, want 500000 from %s:1", c.MaxSteps, src["max-steps"], FileName)
	}
	if !strings.Contains(strings.Join(c.Args(), " "), "-max-steps 500000") {
		t.Errorf("args %q lack -max-steps 500000", c.Args())
	}
	c = DefaultConfig()
	c.MaxSteps = 7
	if src := ApplyFile(&c, f, func(s string) string {
		if s == "max-steps" {
			return "flag -max-steps"
		}
		return ""
	}); c.MaxSteps != 7 || src["max-steps"] != "flag -max-steps" {
		t.Errorf("MaxSteps %d from %q, want the flag's 7", c.MaxSteps, src["max-steps"])
	}
	c.MaxSteps = -1
	if err := c.Validate(); err == nil || err.Error() != "-max-steps must not be negative, got -1" {
		t.Errorf("Validate: %v", err)
	}
}
