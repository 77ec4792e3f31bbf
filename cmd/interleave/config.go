// interleave config: the settings of the pull-request job, and where each came from.

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/internal/prjob"
)

func init() {
	register(&command{
		name:  "config",
		short: "Print the settings of interleave pr (or, with test first, of interleave test) from .interleave.yaml and flags, and where each came from",
		usage: "[-base REF] [pr flags] | test [test flags]",
		run: func(ctx context.Context, env *cliEnv, args []string) int {
			if len(args) > 0 && args[0] == "test" {
				return configTest(env, args[1:])
			}
			c := prjob.DefaultConfig()
			fs := newFlagSet(env, commands["config"])
			flags := c.Register(fs)
			if code, ok := parseFlags(fs, args); !ok {
				return code
			}
			if fs.NArg() > 0 {
				fmt.Fprintf(env.stderr, "interleave config: unexpected arguments %q\n", fs.Args())
				return exitError
			}
			if err := flags.Check(); err != nil {
				fmt.Fprintf(env.stderr, "interleave config: %v\n", err)
				return exitError
			}
			file, note, err := prjob.LoadFile(env.dir, c.Base)
			if err != nil {
				configError(env, "config", err)
				return exitError
			}
			src := prjob.ApplyFile(&c, file, prjob.FlagGiven(fs))
			switch {
			case file != nil:
				fmt.Fprintf(env.stdout, "config file: %s\n", file.Name)
			case c.Base != "":
				fmt.Fprintf(env.stdout, "config file: none in %s\n", c.Base)
			default:
				fmt.Fprintf(env.stdout, "config file: none (%s at the module root)\n", prjob.FileName)
			}
			if note != "" {
				fmt.Fprintf(env.stdout, "note: %s\n", note)
			}
			prjob.PrintSettings(env.stdout, &c, src)
			return exitOK
		},
	})
}

// configError prints a bad config file's problems, one a line.
func configError(env *cliEnv, command string, err error) {
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Fprintf(env.stderr, "interleave %s: %s\n", command, line)
	}
	fmt.Fprintf(env.stderr, "interleave %s: see docs/config.md for the keys of %s\n", command, prjob.FileName)
}

// configTest prints the settings interleave test would run under: the
// working tree's file under test's flags.
func configTest(env *cliEnv, args []string) int {
	opts, code, ok := parseTestFlags(env, args)
	if !ok {
		return code
	}
	local := filepath.Join(prjob.ModuleRoot(env.dir), prjob.FileName)
	if _, err := os.Stat(local); err == nil {
		fmt.Fprintf(env.stdout, "config file: %s (interleave test reads the working tree's)\n", local)
	} else {
		fmt.Fprintf(env.stdout, "config file: none (%s at the module root)\n", prjob.FileName)
	}
	for _, n := range opts.notes {
		fmt.Fprintf(env.stdout, "note: %s\n", n)
	}
	c := prjob.Config{Budget: opts.budget, MaxSteps: opts.maxSteps, Exclude: opts.exclude, Ignore: opts.ignore}
	if opts.run != "" {
		c.Run = rt.MustParseRun(opts.run)
	}
	if opts.skip != "" {
		c.Skip = rt.MustParseRun(opts.skip)
	}
	prjob.PrintSome(env.stdout, &c, opts.src, testUses)
	return exitOK
}
