// Command interleave finds concurrency bugs in Go code: static thread-safety
// passes, a controlled-concurrency search over tests with replayable
// schedules, and the pull-request job that posts both.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sort"
	"strings"
	"sync"
)

// Exit codes, documented in the README.
const (
	exitOK       = 0 // ran, nothing to report
	exitFindings = 1 // ran, found something (or a replay reproduced)
	exitError    = 2 // could not run: bad flags, bad input, build failure
)

// command is one subcommand. Each lives in its own file and registers itself
// in init, so adding a subcommand touches no other file.
type command struct {
	name  string
	short string // capitalized imperative, no period
	usage string // argument synopsis after the name
	// run parses args with its own FlagSet and runs; it returns the exit code.
	run func(ctx context.Context, env *cliEnv, args []string) int
}

// parsed is the run of a command that parses its flags into options and
// runs with them; parse's ok false ends it with parse's code.
func parsed[O any](parse func(*cliEnv, []string) (O, int, bool), run func(context.Context, *cliEnv, O) int) func(context.Context, *cliEnv, []string) int {
	return func(ctx context.Context, env *cliEnv, args []string) int {
		opts, code, ok := parse(env, args)
		if !ok {
			return code
		}
		return run(ctx, env, opts)
	}
}

// cliEnv is what a command may touch: streams and the working directory.
type cliEnv struct {
	stdout, stderr io.Writer
	dir            string
	// inProcessCheck makes check run its passes in this process, not
	// through go vet (checkVetTool), as when there is no vet tool.
	inProcessCheck bool
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	args, err := chdirFlag(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "interleave:", err)
		os.Exit(exitError)
	}
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "interleave:", err)
		os.Exit(exitError)
	}
	os.Exit(runMain(ctx, &cliEnv{stdout: os.Stdout, stderr: os.Stderr, dir: dir}, args))
}

// chdirFlag handles a leading -C DIR (or -C=DIR), as the go command does:
// interleave changes to DIR before running the command.
func chdirFlag(args []string) ([]string, error) {
	if len(args) == 0 {
		return args, nil
	}
	var dir string
	switch {
	case args[0] == "-C" || args[0] == "--C":
		if len(args) < 2 {
			return nil, errors.New("-C needs a directory, as in: interleave -C DIR command")
		}
		dir, args = args[1], args[2:]
	case strings.HasPrefix(args[0], "-C="):
		dir, args = strings.TrimPrefix(args[0], "-C="), args[1:]
	default:
		return args, nil
	}
	if err := os.Chdir(dir); err != nil {
		return nil, fmt.Errorf("-C %s: %w", dir, err)
	}
	return args, nil
}

func runMain(ctx context.Context, env *cliEnv, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		printUsage(env.stderr)
		if len(args) == 0 {
			return exitError
		}
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(env.stderr, "interleave: unknown command %q\n\n", args[0])
		printUsage(env.stderr)
		return exitError
	}
	return c.run(ctx, env, args[1:])
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "interleave finds concurrency bugs in Go code.")
	fmt.Fprintln(w, "\nUsage:\n\n\tinterleave [-C dir] <command> [flags] [arguments]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "\t%-8s %s\n", n, commands[n].short)
	}
	fmt.Fprintln(w, "\nRun 'interleave <command> -h' for a command's flags.")
	fmt.Fprintln(w, "Exit status: 0 nothing found, 1 findings, 2 could not run.")
}

// newFlagSet returns a FlagSet whose -h prints the command's usage.
func newFlagSet(env *cliEnv, c *command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "%s\n\nUsage: interleave %s %s\n\nFlags:\n", c.short, c.name, c.usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args; ok is false when the command should return code.
func parseFlags(fs *flag.FlagSet, args []string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitError, false
	}
	return 0, true
}

// cgoEnabled reports whether the go command builds with cgo here; the race
// detector needs it, and go turns cgo off where no C compiler is installed.
var cgoEnabled = sync.OnceValue(func() bool {
	out, err := exec.Command("go", "env", "CGO_ENABLED").Output()
	return err == nil && strings.TrimSpace(string(out)) == "1"
})

// raceDefault turns a defaulted -race off, with a note, where the race
// detector cannot build. An explicit -race is kept, to fail with go's own
// message.
func raceDefault(env *cliEnv, fs *flag.FlagSet, race *bool) {
	explicit := false
	fs.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "race" })
	if *race && !explicit && !cgoEnabled() {
		*race = false
		raceOffNote(env, fs.Name())
	}
}

// raceOffNote says that the race detector was turned off for want of cgo.
func raceOffNote(env *cliEnv, command string) {
	fmt.Fprintf(env.stderr, "interleave %s: note: race detector off: it needs cgo, which is disabled here (install a C compiler such as gcc, or set CGO_ENABLED=1); data races are not reported\n", command)
}
