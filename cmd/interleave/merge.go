package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/internal/flagvalue"
	"github.com/interleave-dev/interleave/internal/prjob"
	"github.com/interleave-dev/interleave/report"
)

func init() {
	register(&command{
		name:  "merge",
		short: "Combine the JSON reports of interleave pr -shard runs into one report",
		usage: "[flags] FILE...",
		run:   parsed(parseMergeFlags, runMerge),
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
	format := &flagvalue.Choice{Value: "text", Allowed: report.Formats}
	fs.Var(format, "format", "Output `format`: "+strings.Join(report.Formats, ", "))
	fs.StringVar(&opts.Output, "o", "", "Write the report to `file` instead of standard output")
	fs.StringVar(&opts.SARIF, "sarif", "", "Also write a SARIF 2.1.0 report to `file`")
	fs.StringVar(&opts.Summary, "summary", "", "Also write the markdown summary to `file`")
	failOn := &flagvalue.Choice{Value: "warning", Allowed: []string{"note", "warning", "error"}}
	fs.Var(failOn, "fail-on", "Exit 1 when a finding has at least this `severity`: note, warning, error")
	if code, ok := parseFlags(fs, args); !ok {
		return nil, code, false
	}
	opts.Files = fs.Args()
	opts.Format = format.Value
	if len(opts.Files) == 0 {
		fmt.Fprintln(env.stderr, "interleave merge: no shard reports given")
		fs.Usage()
		return nil, exitError, false
	}
	sev, err := checks.ParseSeverity(failOn.Value)
	if err != nil {
		fmt.Fprintln(env.stderr, "interleave merge:", err)
		return nil, exitError, false
	}
	opts.FailOn = sev
	return opts, 0, true
}

// runMerge reads the shard reports, dedupes them and writes one report.
func runMerge(ctx context.Context, env *cliEnv, opts *mergeOptions) int {
	names := make([]string, len(opts.Files))
	for i, name := range opts.Files {
		names[i] = prjob.AbsIn(env.dir, name)
	}
	rep, n, err := prjob.MergeShards(names, env.dir, toolVersion())
	if err != nil {
		fmt.Fprintf(env.stderr, "interleave merge: %v\n", err)
		return exitError
	}
	fmt.Fprintf(env.stderr, "interleave merge: %d shard reports, %d findings, %d after dedupe\n", len(opts.Files), n, len(rep.Findings))
	out := prjob.Outputs{Dir: env.dir, Stdout: env.stdout, Format: opts.Format, Output: opts.Output, SARIF: opts.SARIF, Summary: opts.Summary}
	if err := prjob.WriteOutputs(rep, out); err != nil {
		fmt.Fprintf(env.stderr, "interleave merge: %v\n", err)
		return exitError
	}
	return prExitCode(rep.Findings, opts.FailOn)
}
