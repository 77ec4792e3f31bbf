package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/internal/prjob"
	"github.com/interleave-dev/interleave/report/github/cienv"
)

func init() {
	register(&command{
		name:  "pr",
		short: "Run the pull-request job on the changes between two commits",
		usage: "[-base REF] [-head REF] [flags]",
		run: func(ctx context.Context, env *cliEnv, args []string) int {
			opts, code, ok := parsePRFlags(env, args, os.Getenv)
			if !ok {
				return code
			}
			return runPR(ctx, env, opts)
		},
	})
}

// parsePRFlags parses args; getenv supplies GITHUB_EVENT_PATH and
// GITHUB_EVENT_NAME. ok is false when the command should return code.
func parsePRFlags(env *cliEnv, args []string, getenv func(string) string) (opts *prjob.Options, code int, ok bool) {
	opts = &prjob.Options{Config: prjob.DefaultConfig()}
	fs := newFlagSet(env, commands["pr"])
	flags := opts.Config.Register(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return nil, code, false
	}
	raceDefault(env, fs, &opts.Race)
	bad := func(format string, a ...any) (*prjob.Options, int, bool) {
		fmt.Fprintf(env.stderr, "interleave pr: "+format+"\n", a...)
		fs.Usage()
		return nil, exitError, false
	}
	if fs.NArg() > 0 {
		return bad("unexpected arguments %q: the change is chosen with -base and -head", fs.Args())
	}
	if err := flags.Check(); err != nil {
		return bad("%v", err)
	}
	if err := prChange(opts, getenv); err != nil {
		if errors.Is(err, errNoBase) {
			return bad("%v", err)
		}
		fmt.Fprintf(env.stderr, "interleave pr: %v\n", err)
		return nil, exitError, false
	}
	src, err := prApplyFile(env, opts, prjob.FlagGiven(fs))
	if err != nil {
		configError(env, "pr", err)
		return nil, exitError, false
	}
	if opts.Verbose {
		prjob.PrintSettings(env.stderr, &opts.Config, src)
	}
	return opts, 0, true
}

// prApplyFile puts the settings of the base's .interleave.yaml under those
// given explicitly.
func prApplyFile(env *cliEnv, opts *prjob.Options, given func(string) string) (prjob.Sources, error) {
	file, note, err := prjob.LoadFile(env.dir, opts.Base)
	if err != nil {
		return nil, err
	}
	if note != "" {
		opts.Notes = append(opts.Notes, note)
	}
	if file != nil {
		opts.Notes = append(opts.Notes, "settings from "+file.Name+" (interleave config shows them)")
	}
	return prjob.ApplyFile(&opts.Config, file, given), nil
}

// errNoBase is prChange's error outside a pull request's workflow.
var errNoBase = errors.New("-base is required outside a GitHub pull_request or issue_comment workflow")

// prChange completes the change to analyze: without a base, base and head
// come from the workflow's event; the head defaults to HEAD.
func prChange(opts *prjob.Options, getenv func(string) string) error {
	if opts.Base == "" {
		event, err := cienv.ReadEvent(getenv)
		if err != nil {
			return err
		}
		if event == nil {
			return errNoBase
		}
		ev, err := prEventRefs(event)
		if err != nil {
			return err
		}
		opts.Base = ev.Base
		if opts.Head == "" {
			opts.Head = ev.Head
		}
		opts.Notes = append(opts.Notes, ev.Note)
	}
	if opts.Head == "" {
		opts.Head = "HEAD"
	}
	return nil
}

// eventRefs is what an event says about the change.
type eventRefs struct {
	Base, Head string
	Note       string
}

// prEventRefs reads base and head from the workflow's event. Without
// $GITHUB_EVENT_NAME the event is recognized by shape.
func prEventRefs(ev *cienv.Event) (*eventRefs, error) {
	path, name := ev.Path, ev.Name
	if name == "" {
		switch {
		case ev.PullRequest != nil:
			name = "pull_request"
		case ev.Issue != nil && ev.Comment != nil:
			name = "issue_comment"
		}
	}
	switch name {
	case "pull_request", "pull_request_target", "pull_request_review", "pull_request_review_comment":
		pr := ev.PullRequest
		if pr == nil {
			return nil, fmt.Errorf("GitHub event payload %s is a %s event without a pull_request object", path, name)
		}
		if !isSHA(pr.Base.SHA) || !isSHA(pr.Head.SHA) {
			return nil, fmt.Errorf("GitHub event payload %s: pull_request.base.sha %q and pull_request.head.sha %q must be commit hashes", path, pr.Base.SHA, pr.Head.SHA)
		}
		return &eventRefs{Base: pr.Base.SHA, Head: pr.Head.SHA,
			Note: fmt.Sprintf("pull request #%d: base %.12s, head %.12s (from %s)", pr.Number, pr.Base.SHA, pr.Head.SHA, name)}, nil
	case "issue_comment":
		if ev.Issue == nil {
			return nil, fmt.Errorf("GitHub event payload %s is an issue_comment event without an issue object", path)
		}
		if ev.Issue.PullRequest == nil || string(*ev.Issue.PullRequest) == "null" {
			return nil, fmt.Errorf("the comment is on issue #%d, not on a pull request: nothing to analyze", ev.Issue.Number)
		}
		// The payload names the pull request but not its commits: the
		// workflow checks out the head; the base is the default branch.
		if ev.Repository == nil || ev.Repository.DefaultBranch == "" {
			return nil, fmt.Errorf("GitHub event payload %s: issue_comment without repository.default_branch; pass -base", path)
		}
		base := "origin/" + ev.Repository.DefaultBranch
		return &eventRefs{Base: base, Head: "HEAD",
			Note: fmt.Sprintf("pull request #%d (from a comment): base %s, head the checked-out commit; pass -base if the pull request targets another branch", ev.Issue.Number, base)}, nil
	case "":
		return nil, fmt.Errorf("GitHub event payload %s is neither a pull_request nor an issue_comment event: pass -base", path)
	}
	return nil, fmt.Errorf("-base is required: the %s event is not about a pull request", name)
}

func isSHA(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// runPR runs the job and maps its outcome to the exit code.
func runPR(ctx context.Context, env *cliEnv, opts *prjob.Options) int {
	_, code := runPRJob(ctx, env, opts)
	return code
}

// runPRJob runs the job and returns what it reported (nil when it could
// not run) with the exit code.
func runPRJob(ctx context.Context, env *cliEnv, opts *prjob.Options) (*prjob.Result, int) {
	o := *opts
	o.Dir, o.ToolVersion, o.VetTool = env.dir, toolVersion(), checkVetTool()
	res, err := prjob.Run(ctx, o, env.stdout, env.stderr)
	switch {
	case err != nil:
		return nil, exitError // already on stderr
	case res.Incomplete != nil:
		return res, exitError // the report holds what was found
	case opts.Shards > 0:
		return res, exitOK // the merge step decides
	}
	return res, prExitCode(res.Report.Findings, opts.FailOn)
}

// prExitCode is exitFindings when a finding reaches failOn.
func prExitCode(fs []checks.Finding, failOn checks.Severity) int {
	if prjob.Fails(fs, failOn) {
		return exitFindings
	}
	return exitOK
}
