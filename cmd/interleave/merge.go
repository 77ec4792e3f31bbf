package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/report"
)

func init() {
	register(&command{
		name:  "merge",
		short: "Combine the JSON reports of interleave pr -shard runs into one report",
		usage: "[flags] FILE...",
		run: func(ctx context.Context, env *cliEnv, args []string) int {
			opts, code, ok := parseMergeFlags(env, args)
			if !ok {
				return code
			}
			return runMerge(ctx, env, opts)
		},
	})
}

// mergeOptions is everything interleave merge takes from its command line.
type mergeOptions struct {
	Files   []string
	Format  string
	Output  string // "" means stdout
	SARIF   string
	Summary string
	FailOn  checks.Severity
}

func parseMergeFlags(env *cliEnv, args []string) (opts *mergeOptions, code int, ok bool) {
	opts = &mergeOptions{}
	fs := newFlagSet(env, commands["merge"])
	format := &enumFlag{value: "text", allowed: report.Formats}
	fs.Var(format, "format", "Output `format`: "+strings.Join(report.Formats, ", "))
	fs.StringVar(&opts.Output, "o", "", "Write the report to `file` instead of standard output")
	fs.StringVar(&opts.SARIF, "sarif", "", "Also write a SARIF 2.1.0 report to `file`")
	fs.StringVar(&opts.Summary, "summary", "", "Also write the markdown summary to `file`")
	failOn := &enumFlag{value: "warning", allowed: []string{"note", "warning", "error"}}
	fs.Var(failOn, "fail-on", "Exit 1 when a finding has at least this `severity`: note, warning, error")
	if code, ok := parseFlags(fs, args); !ok {
		return nil, code, false
	}
	opts.Files = fs.Args()
	opts.Format = format.value
	if len(opts.Files) == 0 {
		fmt.Fprintln(env.stderr, "interleave merge: no shard reports given")
		fs.Usage()
		return nil, exitError, false
	}
	sev, err := checks.ParseSeverity(failOn.value)
	if err != nil {
		fmt.Fprintln(env.stderr, "interleave merge:", err)
		return nil, exitError, false
	}
	opts.FailOn = sev
	return opts, 0, true
}

// runMerge reads the shard reports, dedupes them and writes one report.
func runMerge(ctx context.Context, env *cliEnv, opts *mergeOptions) int {
	var all, pre, plain []checks.Finding
	var tests []report.TestRun
	for _, name := range opts.Files {
		sh, err := mergeReadShard(prAbs(env.dir, name))
		if err != nil {
			fmt.Fprintf(env.stderr, "interleave merge: %v\n", err)
			return exitError
		}
		all = append(all, sh.findings...)
		pre = append(pre, sh.preExisting...)
		plain = append(plain, sh.plain...)
		tests = append(tests, sh.tests...)
	}
	merged := prDedupe(all)
	fmt.Fprintf(env.stderr, "interleave merge: %d shard reports, %d findings, %d after dedupe\n", len(opts.Files), len(all), len(merged))
	rep := &report.Report{Findings: merged, Root: env.dir, ToolVersion: toolVersion(),
		PreExisting: prDedupe(pre), WithoutInterleave: prDedupe(plain), Tests: tests}
	if err := prWriteOutputs(env, rep, opts.Format, opts.Output, opts.SARIF, opts.Summary, ""); err != nil {
		fmt.Fprintf(env.stderr, "interleave merge: %v\n", err)
		return exitError
	}
	return prExitCode(merged, opts.FailOn)
}

// mergeShard is what one shard reported.
type mergeShard struct {
	findings, preExisting, plain []checks.Finding
	tests                        []report.TestRun
}

// mergeReadShard reads the JSON report a shard wrote.
func mergeReadShard(name string) (*mergeShard, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("read shard report: %w", err)
	}
	var r report.JSONReport
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("shard report %s is not an interleave JSON report: %v", name, err)
	}
	if r.Version != report.JSONVersion || r.Tool.Name != "interleave" {
		return nil, fmt.Errorf("shard report %s: got tool %q version %d, want interleave JSON version %d", name, r.Tool.Name, r.Version, report.JSONVersion)
	}
	list := func(fs []report.JSONFinding) []checks.Finding {
		out := make([]checks.Finding, len(fs))
		for i, f := range fs {
			out[i] = f.Finding
		}
		return out
	}
	return &mergeShard{findings: list(r.Findings), preExisting: list(r.PreExisting), plain: list(r.FailsWithoutInterleave), tests: r.Tests}, nil
}

// prEvidenceRank orders evidence for dedupe: a confirmed finding replaces its
// static twin (they share a fingerprint).
func prEvidenceRank(e checks.Evidence) int {
	switch e {
	case checks.Confirmed:
		return 2
	case checks.Dynamic:
		return 1
	}
	return 0
}

// prDedupe keeps one finding per fingerprint, the one with the
// strongest evidence (the first of equals), and sorts them.
func prDedupe(fs []checks.Finding) []checks.Finding {
	idx := map[string]int{}
	var out []checks.Finding
	for _, f := range fs {
		fp := f.Fingerprint()
		if i, ok := idx[fp]; ok {
			if prEvidenceRank(f.Evidence) > prEvidenceRank(out[i].Evidence) {
				out[i] = f
			}
			continue
		}
		idx[fp] = len(out)
		out = append(out, f)
	}
	checks.Sort(out)
	return out
}

// prConfirms reports whether a dynamic failure of kind can confirm a static
// finding of rule: a deadlock prConfirms lock-order and blocking rules, a race
// the data-access rules; a panic or a failing test any of them.
func prConfirms(kind checks.FailureKind, rule string) bool {
	family := ""
	if len(rule) >= 3 && strings.HasPrefix(rule, "IL") {
		family = rule[:3]
	}
	switch kind {
	case checks.Deadlock, checks.Leak:
		return family == "IL2" || family == "IL6"
	case checks.DataRace, checks.Fatal:
		return family == "IL1" || rule == "IL2001" || family == "IL3" || family == "IL4" || family == "IL5"
	case checks.Panic, checks.TestFailure:
		return family >= "IL1" && family <= "IL6"
	}
	return false
}

// raceFailure is how the testing package fails a test in which the race
// detector reported a race (testing.go, tRunner).
const raceFailure = "race detected during execution of test"

// prConfirm merges static and dynamic findings: a static finding that
// shares a site with a compatible dynamic one is reported once, as
// confirmed, carrying the schedule; the dynamic finding is then dropped, as
// is the test failure the race detector causes in a test that raced.
// Relative file names are taken relative to dir.
func prConfirm(static, dynamic []checks.Finding, dir string) []checks.Finding {
	out := append([]checks.Finding(nil), static...)
	var rest []checks.Finding
	raced := map[string]bool{} // package.test with a data race
	for _, d := range dynamic {
		if d.Kind == checks.DataRace {
			raced[d.Package+"."+d.Test] = true
		}
	}
	for _, d := range dynamic {
		// Under -race the testing package also fails the test that raced;
		// that failure is the race again, reported once.
		if d.Kind == checks.TestFailure && raced[d.Package+"."+d.Test] && strings.Contains(d.Message, raceFailure) {
			continue
		}
		dsites := prSites(&d, dir, true)
		used := false
		for i := range out {
			s := &out[i]
			if s.Evidence == checks.Dynamic || !prConfirms(d.Kind, s.Rule) {
				continue
			}
			if !prIntersects(prSites(s, dir, false), dsites) {
				continue
			}
			used = true
			if s.Evidence == checks.Confirmed {
				continue // already confirmed by another schedule
			}
			s.Evidence = checks.Confirmed
			s.Schedule, s.Replay, s.Test, s.Goroutines = d.Schedule, d.Replay, d.Test, d.Goroutines
			s.ReplayToken, s.Interleaving = d.ReplayToken, d.Interleaving
			s.Severity = max(s.Severity, d.Severity)
			s.Message += fmt.Sprintf(" (confirmed: %s in %s)", d.Kind, d.Test)
		}
		if !used {
			rest = append(rest, d)
		}
	}
	return append(out, rest...)
}

// prSites returns "abs-file:line" for a finding's position, its
// related positions and, for dynamic findings, the sites the goroutines
// were blocked at.
func prSites(f *checks.Finding, dir string, goroutines bool) map[string]bool {
	out := map[string]bool{}
	add := func(file string, line int) {
		if file != "" && line > 0 {
			out[fmt.Sprintf("%s:%d", prAbs(dir, file), line)] = true
		}
	}
	add(f.Pos.File, f.Pos.Line)
	for _, r := range f.Related {
		add(r.File, r.Line)
	}
	if goroutines {
		for _, g := range f.Goroutines {
			if file, line, ok := prSplitSite(g.Site); ok {
				add(file, line)
			}
		}
	}
	return out
}

func prIntersects(a, b map[string]bool) bool {
	for k := range a {
		if b[k] {
			return true
		}
	}
	return false
}

// prSplitSite splits "file:line" (or "file:line:col").
func prSplitSite(site string) (string, int, bool) {
	i := strings.LastIndexByte(site, ':')
	if i < 0 {
		return "", 0, false
	}
	if n, err := strconv.Atoi(site[i+1:]); err == nil {
		if j := strings.LastIndexByte(site[:i], ':'); j >= 0 {
			if line, err := strconv.Atoi(site[j+1 : i]); err == nil {
				return site[:j], line, true // file:line:col
			}
		}
		return site[:i], n, true
	}
	return "", 0, false
}

// prAbs makes name absolute relative to dir.
func prAbs(dir, name string) string {
	if name == "" || filepath.IsAbs(name) {
		return filepath.Clean(name)
	}
	return filepath.Join(dir, filepath.FromSlash(name))
}

// prExitCode is exitFindings when a finding reaches failOn.
func prExitCode(fs []checks.Finding, failOn checks.Severity) int {
	for _, f := range fs {
		if f.Severity >= failOn {
			return exitFindings
		}
	}
	return exitOK
}

// prWriteOutputs renders rep in format to output (stdout when empty) and, when
// named, SARIF to sarifFile and markdown to summaryFile with extra markdown
// appended.
func prWriteOutputs(env *cliEnv, rep *report.Report, format, output, sarifFile, summaryFile, extra string) error {
	w, err := report.New(format)
	if err != nil {
		return err
	}
	if output == "" {
		if err := w.Write(env.stdout, rep); err != nil {
			return fmt.Errorf("write %s report: %w", format, err)
		}
	} else if err := prRenderTo(prAbs(env.dir, output), w, rep, ""); err != nil {
		return err
	}
	if sarifFile != "" {
		if err := prRenderTo(prAbs(env.dir, sarifFile), report.SARIF{}, rep, ""); err != nil {
			return err
		}
	}
	if summaryFile != "" {
		if err := prRenderTo(prAbs(env.dir, summaryFile), report.Markdown{}, rep, extra); err != nil {
			return err
		}
	}
	return nil
}

// prRenderTo writes rep (plus extra text) to a temporary file next to name and
// renames it into place, so a reader never sees half a report.
func prRenderTo(name string, w report.Writer, rep *report.Report, extra string) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), ".interleave-report-*")
	if err != nil {
		return fmt.Errorf("write report %s: %w", name, err)
	}
	defer os.Remove(tmp.Name())
	err = w.Write(tmp, rep)
	if err == nil && extra != "" {
		_, err = tmp.WriteString(extra)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		return fmt.Errorf("write report %s: %w", name, err)
	}
	return nil
}
