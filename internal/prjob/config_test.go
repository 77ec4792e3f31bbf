package prjob

import (
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// parseConfig parses args as interleave pr does.
func parseConfig(t *testing.T, args []string) Config {
	t.Helper()
	c := DefaultConfig()
	fs := flag.NewFlagSet("pr", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := c.Register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("parse %q: %v", args, err)
	}
	if err := f.Check(); err != nil {
		t.Fatalf("check %q: %v", args, err)
	}
	return c
}

// Args gives back every field of a Config, and every flag Register
// defines is one Args writes: the Action and the App build their job with
// Args.
func TestConfigArgsRoundTrip(t *testing.T) {
	full := Config{
		Base: "origin/main", Head: "feature", Scope: ScopeAll, Budget: 90 * time.Second,
		GenBudget: time.Minute, GenAuto: false, FailOn: checks.Note, Format: "sarif",
		Output: "r.sarif", SARIF: "r2.sarif", Summary: "s.md", Verbose: true, Race: !DefaultRace,
		Seed: 42, Schedules: "sched", Workers: 3, Count: 7, MaxSteps: 500000, Strategy: explore.Strategies[len(explore.Strategies)-1],
		Tags: []string{"integration", "linux"}, Run: rt.MustParseRun(`^TestA$`),
		Enable: []string{"all"}, Disable: []string{"IL1001"}, Packages: []string{"./a/...", "."},
		Exclude: []string{"./contrib/..."}, Skip: rt.MustParseRun(`Slow`),
	}
	sharded := Config{Scope: DefaultScope, Budget: DefaultBudget, GenAuto: true, FailOn: checks.Error, Format: "json",
		Shard: 2, Shards: 4, Race: DefaultRace}
	def := DefaultConfig()

	// Between them, the two set every field away from its default.
	for i := 0; i < reflect.TypeFor[Config]().NumField(); i++ {
		name := reflect.TypeFor[Config]().Field(i).Name
		if name == "Ignore" {
			continue // only .interleave.yaml sets it, and the job reads that file itself
		}
		d := reflect.ValueOf(def).Field(i).Interface()
		if reflect.DeepEqual(reflect.ValueOf(full).Field(i).Interface(), d) && reflect.DeepEqual(reflect.ValueOf(sharded).Field(i).Interface(), d) {
			t.Errorf("the test sets no value other than the default for Config.%s", name)
		}
	}

	used := map[string]bool{}
	for _, c := range []Config{full, sharded, def} {
		args := c.Args()
		for _, a := range args {
			if name, ok := strings.CutPrefix(a, "-"); ok {
				name, _, _ = strings.Cut(name, "=")
				used[name] = true
			}
		}
		got := parseConfig(t, args)
		if got.Run != nil && c.Run != nil && got.Run.String() == c.Run.String() {
			got.Run = c.Run
		}
		if got.Skip != nil && c.Skip != nil && got.Skip.String() == c.Skip.String() {
			got.Skip = c.Skip
		}
		if !reflect.DeepEqual(got, c) {
			t.Errorf("Args %q parses to\n %+v\nwant\n %+v", args, got, c)
		}
	}
	fs := flag.NewFlagSet("pr", flag.ContinueOnError)
	c := DefaultConfig()
	c.Register(fs)
	fs.VisitAll(func(f *flag.Flag) {
		if !used[f.Name] {
			t.Errorf("flag -%s is never written by Args", f.Name)
		}
	})
	if len(def.Args()) != 0 {
		t.Errorf("DefaultConfig().Args() = %q, want none", def.Args())
	}
}

// ./... among the patterns selects everything; a pattern leaving the
// working directory is refused.
func TestConfigPackages(t *testing.T) {
	if c := parseConfig(t, []string{"-packages", "./a,./..."}); c.Packages != nil {
		t.Errorf("-packages ./a,./...: Packages %q, want nil (all)", c.Packages)
	}
	c := DefaultConfig()
	fs := flag.NewFlagSet("pr", flag.ContinueOnError)
	f := c.Register(fs)
	if err := fs.Parse([]string{"-packages", "../x"}); err != nil {
		t.Fatal(err)
	}
	if err := f.Check(); err == nil || !strings.Contains(err.Error(), "not a relative package pattern") {
		t.Errorf("-packages ../x: %v", err)
	}
}

func TestFilterPackages(t *testing.T) {
	fs := []checks.Finding{
		{Rule: "IL1001", Pos: checks.Position{File: "mod/a/x/a.go", Line: 9}},
		{Rule: "IL2001", Pos: checks.Position{File: "mod/b/b.go", Line: 5}},
		{Rule: "IL9001"},
	}
	kept, note := FilterPackages(fs, "/ws/mod", "/ws", []string{"./a/..."})
	if len(kept) != 2 || kept[0].Rule != "IL1001" || kept[1].Rule != "IL9001" || note != "1 finding outside the packages input (./a/...) not reported" {
		t.Errorf("kept %v, note %q", kept, note)
	}
	if kept, note := FilterPackages(fs, "/ws/mod", "/ws", nil); len(kept) != 3 || note != "" {
		t.Errorf("no patterns: kept %d, note %q", len(kept), note)
	}
}

func TestMatchPackages(t *testing.T) {
	dir := "/ws/mod"
	for _, tt := range []struct {
		pats []string
		file string
		want bool
	}{
		{[]string{"."}, "/ws/mod/a.go", true},
		{[]string{"."}, "/ws/mod/a/a.go", false},
		{[]string{"./a"}, "/ws/mod/a/a.go", true},
		{[]string{"./a"}, "/ws/mod/a/b/b.go", false},
		{[]string{"./a/..."}, "/ws/mod/a/b/b.go", true},
		{[]string{"./a/..."}, "/ws/mod/ab/b.go", false},
		{[]string{"./b", "./a/..."}, "/ws/mod/a/a.go", true},
		{[]string{"./a/..."}, "/ws/other/a/a.go", false},
	} {
		if got := matchPackages(dir, tt.pats, tt.file); got != tt.want {
			t.Errorf("matchPackages(%q, %q) = %v, want %v", tt.pats, tt.file, got, tt.want)
		}
	}
}

// Validate refuses what the flags refuse, for front ends that build a
// Config without flags.
func TestConfigValidate(t *testing.T) {
	for _, tt := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Budget = -time.Second }, "-budget must not be negative"},
		{func(c *Config) { c.Workers = -1 }, "-workers must not be negative"},
		{func(c *Config) { c.Count = -1 }, "-count must not be negative"},
		{func(c *Config) { c.Strategy = "nope" }, "unknown -strategy"},
		{func(c *Config) { c.Packages = []string{"../x"} }, "not a relative package pattern"},
		{func(c *Config) { c.Shard, c.Shards, c.Format = 3, 2, "json" }, "want i/n"},
		{func(c *Config) { c.Shard, c.Shards, c.Format, c.Summary = 1, 2, "json", "s.md" }, "written by interleave merge"},
		{func(c *Config) { c.Shard, c.Shards = 1, 2 }, "-shard writes JSON"},
	} {
		c := DefaultConfig()
		tt.edit(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: Validate() = %v, want %q", c, err, tt.want)
		}
	}
	c := DefaultConfig()
	if err := c.Validate(); err != nil {
		t.Errorf("DefaultConfig: %v", err)
	}
}
