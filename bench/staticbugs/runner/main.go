// Command runner measures the recall of `interleave check` on real
// concurrency bugs fixed upstream (bugs.tsv): for each bug it downloads the
// pre-fix release from the module proxy, checks that the listed line still
// reads as recorded, runs `interleave check` on the package holding the bug
// with the default rules and with every rule, and prints whether a finding
// is at or names a buggy line. See docs/staticbugs.md.
//
// Run it from bench/staticbugs (run.sh does): go run ./runner [flags].
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// bug is one row of bugs.tsv.
type bug struct {
	ID      string
	Module  string
	Version string
	Fix     string // pull request or issue URL
	Commit  string // the upstream fix commit
	Locs    []loc  // the buggy accesses in the pre-fix version
	Anchor  string // text on the first buggy line, to catch a wrong line or version
	Kind    string
	Summary string
	line    int // line in bugs.tsv, for messages
}

// loc is a file of the module (slash-separated, relative to its root) and
// lines in it.
type loc struct {
	File  string
	Lines []int
}

func (l loc) String() string {
	s := make([]string, len(l.Lines))
	for i, n := range l.Lines {
		s[i] = strconv.Itoa(n)
	}
	return l.File + ":" + strings.Join(s, ",")
}

var kinds = map[string]bool{
	"unguarded-field":   true, // read or written without the lock that guards it elsewhere
	"write-under-rlock": true,
	"missing-unlock":    true,
	"lock-order":        true,
	"mixed-atomic":      true,
	"check-then-act":    true,
}

var idRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// parseBugs reads bugs.tsv: tab-separated, '#' starts a comment line.
func parseBugs(r io.Reader) ([]bug, error) {
	var bugs []bug
	var errs []string
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) != 9 {
			errs = append(errs, fmt.Sprintf("line %d: %d tab-separated fields, want 9 (id module version fix commit location anchor kind summary)", n, len(f)))
			continue
		}
		b := bug{ID: f[0], Module: f[1], Version: f[2], Fix: f[3], Commit: f[4], Anchor: f[6], Kind: f[7], Summary: f[8], line: n}
		bad := func(format string, a ...any) {
			errs = append(errs, fmt.Sprintf("line %d (%s): ", n, b.ID)+fmt.Sprintf(format, a...))
		}
		if !idRE.MatchString(b.ID) {
			bad("id %q: want lower-case letters, digits and dashes", b.ID)
		} else if prev, ok := seen[b.ID]; ok {
			bad("id %q already used on line %d", b.ID, prev)
		}
		seen[b.ID] = n
		if b.Module == "" || strings.ContainsAny(b.Module, " @") {
			bad("module %q is not a module path", b.Module)
		}
		if !regexp.MustCompile(`^v\d+\.\d+\.\d+`).MatchString(b.Version) {
			bad("version %q is not a semantic version", b.Version)
		}
		if !strings.HasPrefix(b.Fix, "https://") {
			bad("fix %q is not a URL", b.Fix)
		}
		if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(b.Commit) {
			bad("commit %q is not a full commit hash", b.Commit)
		}
		locs, err := parseLocs(f[5])
		if err != nil {
			bad("%v", err)
		}
		b.Locs = locs
		if strings.TrimSpace(b.Anchor) == "" {
			bad("empty anchor")
		}
		if !kinds[b.Kind] {
			bad("kind %q is not one of %s", b.Kind, strings.Join(sortedKeys(kinds), ", "))
		}
		if strings.TrimSpace(b.Summary) == "" {
			bad("empty summary")
		}
		bugs = append(bugs, b)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "\n"))
	}
	if len(bugs) == 0 {
		return nil, errors.New("no bugs listed")
	}
	return bugs, nil
}

// parseLocs parses "dir/f.go:12,14;other.go:3".
func parseLocs(s string) ([]loc, error) {
	var locs []loc
	for _, part := range strings.Split(s, ";") {
		file, lines, ok := strings.Cut(part, ":")
		if !ok || !strings.HasSuffix(file, ".go") || strings.HasPrefix(file, "/") || strings.Contains(file, "..") {
			return nil, fmt.Errorf("location %q: want path/file.go:LINE[,LINE...][;...] relative to the module root", part)
		}
		l := loc{File: file}
		for _, ls := range strings.Split(lines, ",") {
			v, err := strconv.Atoi(ls)
			if err != nil || v < 1 {
				return nil, fmt.Errorf("location %q: bad line %q", part, ls)
			}
			l.Lines = append(l.Lines, v)
		}
		locs = append(locs, l)
	}
	return locs, nil
}

func sortedKeys(m map[string]bool) []string {
	var k []string
	for s := range m {
		k = append(k, s)
	}
	sort.Strings(k)
	return k
}

// finding is the part of interleave's JSON report that scoring reads.
type finding struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
	Pos     pos    `json:"pos"`
	Related []pos  `json:"related"`
}

type pos struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	EndLine int    `json:"endLine"`
}

type report struct {
	Findings []finding `json:"findings"`
}

// matches reports whether p is at one of l's lines: the same file and a
// buggy line inside p's line span.
func (l loc) matches(p pos) bool {
	if filepath.ToSlash(p.File) != l.File {
		return false
	}
	end := p.EndLine
	if end < p.Line {
		end = p.Line
	}
	for _, n := range l.Lines {
		if n >= p.Line && n <= end {
			return true
		}
	}
	return false
}

// found returns the rules of the findings that are at a buggy line or name
// one among their related positions, sorted and without duplicates.
func found(b bug, fs []finding) []string {
	set := map[string]bool{}
	for _, f := range fs {
		hit := false
		for _, l := range b.Locs {
			if l.matches(f.Pos) {
				hit = true
			}
			for _, r := range f.Related {
				if l.matches(r) {
					hit = true
				}
			}
		}
		if hit {
			set[f.Rule] = true
		}
	}
	return sortedKeys(set)
}

// outcome is what one bug's runs gave.
type outcome struct {
	Bug          bug        `json:"-"`
	ID           string     `json:"id"`
	Module       string     `json:"module"`
	Version      string     `json:"version"`
	Kind         string     `json:"kind"`
	Package      string     `json:"package"`
	DefaultRules []string   `json:"defaultRules"` // rules whose findings hit, default rules
	AllRules     []string   `json:"allRules"`     // the same with -enable all
	DefaultCount int        `json:"defaultFindings"`
	AllCount     int        `json:"allFindings"`
	Err          string     `json:"error,omitempty"`
	Note         string     `json:"note,omitempty"`
	Seconds      float64    `json:"seconds"`
	PR           *prVerdict `json:"pr,omitempty"` // -confirm
}

func main() {
	tsv := flag.String("bugs", "bugs.tsv", "the bug list")
	run := flag.String("run", "", "only the bugs whose id matches this regular expression")
	jsonOut := flag.String("json", "", "also write the outcomes as JSON to this file")
	work := flag.String("work", "", "directory for the module copies and reports (default: a temporary one, removed at the end)")
	flag.StringVar(&only, "only", "", "rule IDs (IL1008,IL1009): one check per bug with only these rules (-disable all -enable IDS), counted as the every-rule run; the default run is skipped")
	flag.BoolVar(&confirmMode, "confirm", false, "also run interleave pr on a change that touches the buggy lines and score what it posts (a confirmed candidate, a static finding, a dynamic one)")
	flag.DurationVar(&prBudget, "budget", 2*time.Minute, "with -confirm: pr's -budget per bug")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: run.sh [-bugs FILE] [-run REGEXP] [-json FILE] [-work DIR] [-only IDS] [-confirm [-budget D]]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if confirmMode && prBudget <= 0 {
		fmt.Fprintln(os.Stderr, "staticbugs: -budget must be positive with -confirm (pr's search confirms the candidates)")
		os.Exit(2)
	}
	if err := mainErr(*tsv, *run, *jsonOut, *work); err != nil {
		fmt.Fprintln(os.Stderr, "staticbugs:", err)
		var e exitError
		if errors.As(err, &e) {
			os.Exit(int(e))
		}
		os.Exit(2)
	}
}

// confirmMode and prBudget are -confirm and -budget.
var (
	confirmMode bool
	prBudget    time.Duration
)

// only, when set, names the rules of the one check per bug (-only).
var only string

// exitError carries an exit code: 1 when a bug could not be measured.
type exitError int

func (e exitError) Error() string { return "exit " + strconv.Itoa(int(e)) }

func mainErr(tsv, run, jsonOut, work string) error {
	f, err := os.Open(tsv)
	if err != nil {
		return err
	}
	bugs, err := parseBugs(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s:\n%v", tsv, err)
	}
	if run != "" {
		re, err := regexp.Compile(run)
		if err != nil {
			return fmt.Errorf("-run: %v", err)
		}
		var keep []bug
		for _, b := range bugs {
			if re.MatchString(b.ID) {
				keep = append(keep, b)
			}
		}
		if len(keep) == 0 {
			return fmt.Errorf("-run %q matches no bug", run)
		}
		bugs = keep
	}
	if work == "" {
		work, err = os.MkdirTemp("", "staticbugs-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(work)
	} else if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	work, err = filepath.Abs(work)
	if err != nil {
		return err
	}

	bin := filepath.Join(work, "interleave")
	repo, err := filepath.Abs("../..")
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "building interleave from %s\n", repo)
	build := exec.Command("go", "build", "-o", bin, "./cmd/interleave")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/interleave: %v\n%s", err, out)
	}

	var outs []outcome
	measured := true
	for _, b := range bugs {
		start := time.Now()
		o := measure(b, bin, work)
		o.Seconds = time.Since(start).Round(time.Second).Seconds()
		if o.Err != "" {
			measured = false
			fmt.Fprintf(os.Stderr, "%s: %s\n", b.ID, o.Err)
		} else {
			fmt.Fprintf(os.Stderr, "%s: done in %.0fs\n", b.ID, o.Seconds)
		}
		outs = append(outs, o)
	}
	if confirmMode {
		printConfirmTable(os.Stdout, outs)
	} else {
		printTable(os.Stdout, outs)
	}
	if jsonOut != "" {
		data, err := json.MarshalIndent(outs, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(jsonOut, append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	if !measured {
		return fmt.Errorf("some bugs could not be measured (see the error column): %w", exitError(1))
	}
	return nil
}

// measure downloads b's module version, checks the anchor and runs check
// twice on the package holding the first buggy location.
func measure(b bug, bin, work string) outcome {
	o := outcome{Bug: b, ID: b.ID, Module: b.Module, Version: b.Version, Kind: b.Kind}
	fail := func(format string, a ...any) outcome {
		o.Err = fmt.Sprintf(format, a...)
		return o
	}
	dir, err := download(b.Module + "@" + b.Version)
	if err != nil {
		return fail("%v", err)
	}
	for i, l := range b.Locs {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(l.File)))
		if err != nil {
			return fail("%s@%s has no %s", b.Module, b.Version, l.File)
		}
		lines := strings.Split(string(data), "\n")
		for _, n := range l.Lines {
			if n > len(lines) {
				return fail("%s has %d lines, the bug names line %d", l.File, len(lines), n)
			}
		}
		if i == 0 && !strings.Contains(lines[l.Lines[0]-1], b.Anchor) {
			return fail("%s:%d reads %q, not the anchor %q: wrong line or version", l.File, l.Lines[0], strings.TrimSpace(lines[l.Lines[0]-1]), b.Anchor)
		}
	}
	// A writable copy: go vet may need to complete go.sum.
	mod := filepath.Join(work, "src", b.ID)
	if err := os.RemoveAll(mod); err != nil {
		return fail("%v", err)
	}
	if err := copyTree(dir, mod); err != nil {
		return fail("copying %s: %v", dir, err)
	}
	if _, err := os.Stat(filepath.Join(mod, "go.mod")); errors.Is(err, fs.ErrNotExist) {
		// A release from before modules: name the module and let the go
		// command pick its dependencies (their newest served versions).
		if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module "+b.Module+"\n\ngo 1.16\n"), 0o644); err != nil {
			return fail("%v", err)
		}
		tidy := exec.Command("go", "mod", "tidy", "-e")
		tidy.Dir = mod
		tidy.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := tidy.CombinedOutput(); err != nil {
			return fail("no go.mod; go mod tidy: %v: %s", err, lastLines(string(out), 4))
		}
		o.Note = "no go.mod in this release: one was written and its dependencies resolved by go mod tidy"
	}
	if dropped, err := dropLocalReplaces(mod); err != nil {
		return fail("%v", err)
	} else if len(dropped) > 0 {
		// A module of a multi-module repository points at its siblings
		// by path; the copy stands alone, so take them from the proxy at
		// the versions go.mod requires.
		o.Note = fmt.Sprintf("go.mod replaced %d modules (%s, ...) by directories of the repository: those replaces were dropped", len(dropped), dropped[0])
	}
	pkg := "./" + filepath.ToSlash(filepath.Dir(b.Locs[0].File))
	if pkg == "./." {
		pkg = "."
	}
	o.Package = pkg
	for _, all := range []bool{false, true} {
		args := []string{"check", "-format", "json"}
		name := "default"
		if all && only != "" {
			args = append(args, "-disable", "all", "-enable", only)
			name = "only"
		} else if all {
			args = append(args, "-enable", "all")
			name = "all"
		} else if only != "" {
			continue
		}
		rep := filepath.Join(work, b.ID+"-"+name+".json")
		args = append(args, "-o", rep, pkg)
		cmd := exec.Command(bin, args...)
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
			return fail("interleave %s: %v: %s", strings.Join(args, " "), err, lastLines(stderr.String(), 6))
		}
		data, err := os.ReadFile(rep)
		if err != nil {
			return fail("reading the report: %v", err)
		}
		var r report
		if err := json.Unmarshal(data, &r); err != nil {
			return fail("decoding %s: %v", rep, err)
		}
		hit := found(b, r.Findings)
		if all {
			o.AllRules, o.AllCount = hit, len(r.Findings)
		} else {
			o.DefaultRules, o.DefaultCount = hit, len(r.Findings)
		}
	}
	if confirmMode {
		if err := makeChange(b, mod); err != nil {
			return fail("%v", err)
		}
		v, err := runPR(b, bin, work, mod, prBudget)
		if err != nil {
			return fail("%v", err)
		}
		o.PR = &v
	}
	return o
}

// dropLocalReplaces removes the replace directives of dir's go.mod whose
// target is a directory, and returns the module paths they replaced.
func dropLocalReplaces(dir string) ([]string, error) {
	cmd := exec.Command("go", "mod", "edit", "-json")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go mod edit -json: %v", err)
	}
	var gomod struct {
		Replace []struct {
			Old, New struct{ Path, Version string }
		}
	}
	if err := json.Unmarshal(out, &gomod); err != nil {
		return nil, fmt.Errorf("go mod edit -json: %v", err)
	}
	var dropped []string
	for _, r := range gomod.Replace {
		if r.New.Version != "" || !(strings.HasPrefix(r.New.Path, ".") || filepath.IsAbs(r.New.Path)) {
			continue
		}
		old := r.Old.Path
		if r.Old.Version != "" {
			old += "@" + r.Old.Version
		}
		edit := exec.Command("go", "mod", "edit", "-dropreplace="+old)
		edit.Dir = dir
		edit.Env = append(os.Environ(), "GOWORK=off")
		if out, err := edit.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go mod edit -dropreplace=%s: %v: %s", old, err, out)
		}
		dropped = append(dropped, r.Old.Path)
	}
	return dropped, nil
}

// download returns the module cache directory of mod@version, fetching it
// through the module proxy.
func download(modVer string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", modVer)
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var info struct {
		Dir   string
		Error string
	}
	if jerr := json.Unmarshal(stdout.Bytes(), &info); jerr == nil && info.Error != "" {
		return "", fmt.Errorf("go mod download %s: %s", modVer, info.Error)
	}
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %v: %s", modVer, err, lastLines(stderr.String(), 4))
	}
	if info.Dir == "" {
		return "", fmt.Errorf("go mod download %s: no directory in its output", modVer)
	}
	return info.Dir, nil
}

// copyTree copies the regular files under src to dst, writable.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func yesNo(rules []string, errText string) string {
	switch {
	case errText != "":
		return "error"
	case len(rules) > 0:
		return "yes"
	}
	return "no"
}

func printTable(w io.Writer, outs []outcome) {
	fmt.Fprintln(w, "| bug | module@version | kind | buggy lines | default | every rule | rules that found it | findings (default/all) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	var n, def, all int
	byKind := map[string][3]int{}
	for _, o := range outs {
		var locs []string
		for _, l := range o.Bug.Locs {
			locs = append(locs, l.String())
		}
		rules := "-"
		if u := union(o.DefaultRules, o.AllRules); len(u) > 0 {
			rules = strings.Join(u, ", ")
		}
		counts := fmt.Sprintf("%d/%d", o.DefaultCount, o.AllCount)
		if o.Err != "" {
			rules, counts = "-", "-"
		}
		fmt.Fprintf(w, "| %s | %s@%s | %s | %s | %s | %s | %s | %s |\n", o.ID, o.Module, o.Version, o.Kind,
			strings.Join(locs, "; "), yesNo(o.DefaultRules, o.Err), yesNo(o.AllRules, o.Err), rules, counts)
		k := byKind[o.Kind]
		k[0]++
		n++
		if o.Err == "" && len(o.DefaultRules) > 0 {
			def++
			k[1]++
		}
		if o.Err == "" && len(o.AllRules) > 0 {
			all++
			k[2]++
		}
		byKind[o.Kind] = k
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "recall, default rules: %d of %d\n", def, n)
	fmt.Fprintf(w, "recall, every rule:    %d of %d\n", all, n)
	for _, k := range sortedKeys(kindSet(byKind)) {
		c := byKind[k]
		fmt.Fprintf(w, "  %-18s default %d of %d, every rule %d of %d\n", k, c[1], c[0], c[2], c[0])
	}
	for _, o := range outs {
		if o.Note != "" {
			fmt.Fprintf(w, "note: %s: %s\n", o.ID, o.Note)
		}
		if o.Err != "" {
			fmt.Fprintf(w, "error: %s: %s\n", o.ID, o.Err)
		}
	}
}

func kindSet(m map[string][3]int) map[string]bool {
	s := map[string]bool{}
	for k := range m {
		s[k] = true
	}
	return s
}

func union(a, b []string) []string {
	s := map[string]bool{}
	for _, x := range a {
		s[x] = true
	}
	for _, x := range b {
		s[x] = true
	}
	return sortedKeys(s)
}
