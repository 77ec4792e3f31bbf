package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/internal/defaults"
	"github.com/interleave-dev/interleave/internal/prjob"
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
	opts = &prjob.Options{}
	fs := newFlagSet(env, commands["pr"])
	fs.StringVar(&opts.Base, "base", "", "Base `ref` of the change; required unless $GITHUB_EVENT_PATH holds a pull_request or issue_comment event; "+affected.Empty+" treats every file of the module as new")
	fs.StringVar(&opts.Head, "head", "", "Head `ref` of the change (default HEAD, or the pull request's head commit); "+affected.WorkTree+" for uncommitted changes")
	scope := &enumFlag{value: defaults.Scope, allowed: []string{prjob.ScopeChanged, prjob.ScopePackage, prjob.ScopeAll}}
	fs.Var(scope, "scope", "Report the findings in this `scope`: changed (on changed lines, or related to one), package (all in the changed packages), all (all in the module)")
	fs.DurationVar(&opts.Budget, "budget", defaults.Budget, "Wall time of the dynamic search over the affected tests; 0 skips it")
	genBudget := &genBudgetFlag{auto: true}
	fs.Var(genBudget, "gen-budget", "Wall time of the generated concurrent tests (as interleave gen) for the changed types documented as safe for concurrent use: auto (a quarter of -budget, only when such a type changed), a `duration` added to -budget, or 0 to skip them")
	failOn := &enumFlag{value: defaults.FailOn, allowed: []string{"note", "warning", "error"}}
	fs.Var(failOn, "fail-on", "Exit 1 when a reported finding has at least this `severity`: note, warning, error")
	format := &enumFlag{value: "text", allowed: []string{"text", "json", "sarif"}}
	fs.Var(format, "format", "Output `format`: text, json, sarif")
	fs.StringVar(&opts.Output, "o", "", "Write the report to `file` instead of standard output")
	fs.StringVar(&opts.SARIF, "sarif", "", "Also write a SARIF 2.1.0 report to `file`")
	fs.StringVar(&opts.Summary, "summary", "", "Also write the markdown summary (the pull request's job summary) to `file`")
	shard := fs.String("shard", "", "Run shard `i/n` of the dynamic search and write JSON for interleave merge, which applies -fail-on (a shard exits 0 on findings)")
	fs.BoolVar(&opts.Verbose, "v", false, "Print the change in detail and the time of each stage")
	fs.BoolVar(&opts.Race, "race", defaults.Race, "Build the tests with the race detector")
	fs.Int64Var(&opts.Seed, "seed", 0, "Seed of the first schedule (default derived from the head commit)")
	fs.StringVar(&opts.Schedules, "schedules", "", "Write schedule files to `dir` (default .interleave/schedules in the module)")
	fs.IntVar(&opts.Workers, "workers", 0, "Worker processes per test (default GOMAXPROCS)")
	fs.StringVar(&opts.Strategy, "strategy", "", "Scheduling `strategy`: "+strings.Join(explore.Strategies, ", ")+", or a comma-separated list of them to rotate (default "+explore.Strategies[0]+")")
	var tags prList
	fs.Var(&tags, "tags", "Build `tags`, comma-separated, as for go build")
	run := fs.String("run", "", "Search only the affected tests whose name matches `regexp`")
	var enable, disable prList
	fs.Var(&enable, "enable", "Static `rules` to report without confirmation (opt-in ones, and default ones below the posting bar), comma-separated IDs or slugs, or all")
	fs.Var(&disable, "disable", "Static `rules` to remove, comma-separated IDs or slugs; all starts from none")
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
	opts.Scope, opts.Format, opts.Tags = scope.value, format.value, tags
	opts.Enable, opts.Disable = enable, disable
	sev, err := checks.ParseSeverity(failOn.value)
	if err != nil {
		return bad("%v", err)
	}
	opts.FailOn = sev
	if *run != "" {
		if opts.Run, err = regexp.Compile(*run); err != nil {
			return bad("-run: %v", err)
		}
	}
	opts.GenBudget, opts.GenAuto = genBudget.d, genBudget.auto
	if opts.Budget < 0 {
		return bad("-budget must not be negative, got %v", opts.Budget)
	}
	if opts.Workers < 0 {
		return bad("-workers must not be negative, got %d", opts.Workers)
	}
	if !rt.ValidStrategy(opts.Strategy) {
		return bad("unknown -strategy %q: valid values are %s, or a comma-separated list of them", opts.Strategy, strings.Join(explore.Strategies, ", "))
	}
	if *shard != "" {
		if opts.Shard, opts.Shards, err = parseShard(*shard); err != nil {
			return bad("%v", err)
		}
		formatSet := false
		fs.Visit(func(f *flag.Flag) { formatSet = formatSet || f.Name == "format" })
		if formatSet && opts.Format != "json" {
			return bad("-shard writes JSON for interleave merge; -format %s is not possible", opts.Format)
		}
		if opts.SARIF != "" || opts.Summary != "" {
			return bad("-sarif and -summary are written by interleave merge, not by a shard")
		}
		opts.Format = "json"
	}
	if opts.Base == "" {
		path := getenv("GITHUB_EVENT_PATH")
		if path == "" {
			return bad("-base is required outside a GitHub pull_request or issue_comment workflow")
		}
		ev, err := readGitHubEvent(path, getenv("GITHUB_EVENT_NAME"))
		if err != nil {
			fmt.Fprintf(env.stderr, "interleave pr: %v\n", err)
			return nil, exitError, false
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
	return opts, 0, true
}

// prList is a comma-separated list flag; repeating the flag appends.
type prList []string

func (l *prList) String() string { return strings.Join(*l, ",") }
func (l *prList) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l = append(*l, v)
		}
	}
	return nil
}

// parseShard parses "i/n" with 1 <= i <= n.
func parseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("-shard %q: want i/n with 1 <= i <= n, as in 2/4", s)
	}
	return i, n, nil
}

// githubEvent is the part of a GitHub webhook payload interleave pr reads.
type githubEvent struct {
	PullRequest *struct {
		Number int `json:"number"`
		Base   struct {
			SHA string `json:"sha"`
			Ref string `json:"ref"`
		} `json:"base"`
		Head struct {
			SHA string `json:"sha"`
		} `json:"head"`
	} `json:"pull_request"`
	Issue *struct {
		Number      int `json:"number"`
		PullRequest *struct {
			URL string `json:"url"`
		} `json:"pull_request"`
	} `json:"issue"`
	Comment *struct {
		ID int64 `json:"id"`
	} `json:"comment"`
	Repository *struct {
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
}

// eventRefs is what an event says about the change.
type eventRefs struct {
	Base, Head string
	Note       string
}

// readGitHubEvent reads base and head from the event payload at path.
// name is $GITHUB_EVENT_NAME; when empty the event is recognized by shape.
func readGitHubEvent(path, name string) (*eventRefs, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read GitHub event payload: %w", err)
	}
	var ev githubEvent
	if err := json.Unmarshal(b, &ev); err != nil {
		return nil, fmt.Errorf("GitHub event payload %s is malformed: %v", path, err)
	}
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
		if ev.Issue.PullRequest == nil {
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
	o := *opts
	o.Dir, o.ToolVersion, o.VetTool = env.dir, toolVersion(), checkVetTool()
	res, err := prjob.Run(ctx, o, env.stdout, env.stderr)
	switch {
	case err != nil || res.Incomplete != nil:
		return exitError // already on stderr
	case opts.Shards > 0:
		return exitOK // the merge step decides
	}
	return prExitCode(res.Report.Findings, opts.FailOn)
}

// prExitCode is exitFindings when a finding reaches failOn.
func prExitCode(fs []checks.Finding, failOn checks.Severity) int {
	if prjob.Fails(fs, failOn) {
		return exitFindings
	}
	return exitOK
}

// genBudgetFlag is -gen-budget: auto, or a duration that is not negative.
type genBudgetFlag struct {
	auto bool
	d    time.Duration
}

func (g *genBudgetFlag) String() string {
	if g == nil || g.auto {
		return "auto"
	}
	return g.d.String()
}

func (g *genBudgetFlag) Set(s string) error {
	if s == "auto" {
		g.auto, g.d = true, 0
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("want auto, 0 or a duration such as 1m, got %q", s)
	}
	g.auto, g.d = false, d
	return nil
}
