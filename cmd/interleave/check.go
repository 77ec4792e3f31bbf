package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/interleave-dev/interleave/affected"
	"os"
	"path/filepath"
	"strings"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/static"
	"github.com/interleave-dev/interleave/internal/flagvalue"
	"github.com/interleave-dev/interleave/internal/prjob"
	"github.com/interleave-dev/interleave/report"
)

func init() {
	// go vet -vettool runs this binary as its vet tool (see runCheck):
	// serve the unitchecker protocol before the command line is read.
	if isVetToolInvocation(os.Args[1:]) {
		static.VetToolMain() // exits
	}
	register(&command{
		name:  "check",
		short: "Run the static thread-safety passes",
		usage: "[flags] [packages]",
		run:   parsed(parseCheckFlags, runCheck),
	})
}

// checkOptions is everything interleave check takes from its command line.
type checkOptions struct {
	Patterns    []string
	Tests       bool
	Format      string
	Output      string // "" means stdout
	Enable      []string
	Disable     []string
	MinSeverity checks.Severity
	Tags        []string
}

// parseCheckFlags parses args; ok is false when the command should return code.
func parseCheckFlags(env *cliEnv, args []string) (opts *checkOptions, code int, ok bool) {
	opts = &checkOptions{}
	fs := newFlagSet(env, commands["check"])
	fs.BoolVar(&opts.Tests, "tests", true, "Analyze _test.go files too")
	format := &flagvalue.Choice{Value: "text", Allowed: report.Formats}
	fs.Var(format, "format", "Output `format`: "+strings.Join(report.Formats, ", "))
	fs.StringVar(&opts.Output, "o", "", "Write the report to `file` (replaced atomically) instead of standard output")
	var enable, disable, tags flagvalue.List
	fs.Var(&enable, "enable", "Enable `rules` by ID or slug, comma-separated; all adds the opt-in rules")
	fs.Var(&disable, "disable", "Disable `rules` by ID or slug, comma-separated; all starts from none")
	severity := &flagvalue.Choice{Value: "note", Allowed: []string{"note", "warning", "error"}}
	fs.Var(severity, "severity", "Report only findings of at least this `severity`: note, warning, error")
	fs.Var(&tags, "tags", "Build `tags`, comma-separated, as for go build")
	if code, ok := parseFlags(fs, args); !ok {
		return nil, code, false
	}
	opts.Patterns = fs.Args()
	opts.Format = format.Value
	opts.Enable, opts.Disable, opts.Tags = enable, disable, tags
	// .interleave.yaml's rules and tags, under the flags.
	file, _, err := prjob.LoadFile(env.dir, "")
	if err != nil {
		configError(env, "check", err)
		return nil, exitError, false
	}
	c := prjob.Config{Enable: opts.Enable, Disable: opts.Disable, Tags: opts.Tags}
	prjob.ApplyFile(&c, file, prjob.FlagGiven(fs))
	opts.Enable, opts.Disable, opts.Tags = c.Enable, c.Disable, c.Tags
	sev, err := checks.ParseSeverity(severity.Value)
	if err != nil { // flagvalue.Choice already restricts the value
		fmt.Fprintf(env.stderr, "interleave check: %v\n", err)
		return nil, exitError, false
	}
	opts.MinSeverity = sev
	return opts, 0, true
}

// runCheck runs the suite and writes the report; it returns the exit code.
func runCheck(ctx context.Context, env *cliEnv, opts *checkOptions) int {
	fail := func(err error) int {
		fmt.Fprintf(env.stderr, "interleave check: %v\n", err)
		return exitError
	}
	w, err := report.New(opts.Format)
	if err != nil {
		return fail(err)
	}
	sopts := static.Options{
		Dir:         env.dir,
		Patterns:    opts.Patterns,
		Tests:       opts.Tests,
		Enable:      opts.Enable,
		Disable:     opts.Disable,
		MinSeverity: opts.MinSeverity,
		KeepGoing:   true,
	}
	if len(opts.Tags) > 0 {
		sopts.BuildFlags = []string{"-tags=" + strings.Join(opts.Tags, ",")}
	}
	if !env.inProcessCheck {
		sopts.VetTool = checkVetTool()
	}
	res, err := static.Run(ctx, sopts)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fail(errors.New("interrupted"))
		}
		return fail(err)
	}
	notes := brokenNotes(res.Broken)
	for _, n := range notes {
		fmt.Fprintf(env.stderr, "interleave check: %s\n", n)
	}
	if len(res.Packages) == 0 && len(res.Broken) > 0 {
		return fail(fmt.Errorf("no package analyzed: %d %s matched by %s %s not compile (listed above)",
			len(res.Broken), checkPlural(len(res.Broken), "package"), strings.Join(checkPatterns(opts.Patterns), " "), map[bool]string{true: "does", false: "do"}[len(res.Broken) == 1]))
	}
	var buf bytes.Buffer
	rep := &report.Report{Findings: res.Findings, Root: checkRepoRoot(env.dir), ToolVersion: toolVersion(), Notes: notes}
	if err := w.Write(&buf, rep); err != nil {
		return fail(fmt.Errorf("render %s report: %w", opts.Format, err))
	}
	if opts.Output == "" {
		if _, err := env.stdout.Write(buf.Bytes()); err != nil {
			return fail(fmt.Errorf("write report: %w", err))
		}
	} else {
		out := opts.Output
		if !filepath.IsAbs(out) {
			out = filepath.Join(env.dir, out)
		}
		if err := report.WriteFileBytes(out, buf.Bytes()); err != nil {
			return fail(err)
		}
		fmt.Fprintf(env.stderr, "interleave check: %d %s in %d %s, report written to %s\n",
			len(res.Findings), checkPlural(len(res.Findings), "finding"), len(res.Packages), checkPlural(len(res.Packages), "package"), opts.Output)
	}
	if len(res.Findings) > 0 {
		return exitFindings
	}
	return exitOK
}

// checkVetTool is the go vet tool static.Run drives: this binary, which
// serves the protocol from init, so go vet analyzes packages in parallel
// and caches the results. "" (no executable path) runs the passes in
// process instead, as cliEnv.inProcessCheck does.
func checkVetTool() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return exe
}

// isVetToolInvocation reports whether args follow go vet's vet tool
// protocol: "-V=full" (the tool's identity, for caching), "-flags" (its
// flags, as JSON), or flags followed by one *.cfg file naming the package
// to analyze. No interleave subcommand starts that way.
func isVetToolInvocation(args []string) bool {
	if len(args) == 0 {
		return false
	}
	if len(args) == 1 && (args[0] == "-V=full" || args[0] == "-flags") {
		return true
	}
	last := args[len(args)-1]
	if !strings.HasSuffix(last, ".cfg") || strings.HasPrefix(last, "-") {
		return false
	}
	for _, a := range args[:len(args)-1] {
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

func checkPlural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// checkRepoRoot is the directory report paths are relative to: the enclosing git
// work tree, else the module root, else dir itself.
func checkRepoRoot(dir string) string {
	if root, ok := affected.RepoRoot(dir); ok {
		return root
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}
