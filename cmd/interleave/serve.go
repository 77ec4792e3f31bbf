package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/interleave-dev/interleave/app"
	"github.com/interleave-dev/interleave/internal/prjob"
)

func init() {
	register(&command{
		name:  "serve",
		short: "Run interleave as a GitHub App: receive webhooks, queue and run jobs",
		usage: "-app-id ID -private-key FILE -webhook-secret-file FILE [flags]",
		run: func(ctx context.Context, env *cliEnv, args []string) int {
			opts, code, ok := parseServeFlags(env, args, os.Getenv)
			if !ok {
				return code
			}
			return runServe(ctx, env, opts, nil)
		},
	})
}

// serveOptions is the command line of interleave serve, with the key and
// secret already read.
type serveOptions struct {
	Addr  string
	Grace time.Duration
	app.Config
}

func parseServeFlags(env *cliEnv, args []string, getenv func(string) string) (opts *serveOptions, code int, ok bool) {
	opts = &serveOptions{}
	fs := newFlagSet(env, commands["serve"])
	fs.StringVar(&opts.Addr, "addr", ":8080", "Listen on `address` for POST /webhook and GET /healthz")
	fs.Int64Var(&opts.AppID, "app-id", 0, "The GitHub App's `id` (required)")
	keyFile := fs.String("private-key", "", "The App's private key, a PEM `file` (required)")
	secretFile := fs.String("webhook-secret-file", "", "Read the webhook secret from `file` (default $INTERLEAVE_WEBHOOK_SECRET)")
	fs.StringVar(&opts.DBPath, "db", "interleave.db", "The job queue's database `file`")
	fs.StringVar(&opts.WorkDir, "workdir", filepath.Join(os.TempDir(), "interleave-serve"), "Clone pull requests and keep job outputs under `dir`")
	fs.DurationVar(&opts.JobTimeout, "job-timeout", 30*time.Minute, "Kill a job (fetch and analysis) that runs longer than this")
	fs.DurationVar(&opts.DefaultBudget, "budget", prjob.DefaultBudget, "Search budget of a job whose trigger names none")
	fs.IntVar(&opts.Count, "count", 0, "Bound each job's searches by `n` schedules per worker and test as well as by the budget, as interleave pr -count (0: the budget alone)")
	fs.IntVar(&opts.Workers, "workers", 1, "Jobs run at once")
	fs.StringVar(&opts.FailOn, "fail-on", prjob.DefaultFailOn, "Fail the check run on a finding of at least this `severity`: note, warning, error")
	fs.DurationVar(&opts.Grace, "grace", time.Minute, "On SIGINT/SIGTERM, let running jobs finish for this long before re-queueing them")
	apiDefault := getenv("GITHUB_API_URL")
	if apiDefault == "" {
		apiDefault = "https://api.github.com/"
	}
	gitDefault := getenv("GITHUB_SERVER_URL")
	if gitDefault == "" {
		gitDefault = "https://github.com"
	}
	fs.BoolVar(&opts.Sandbox.Insecure, "insecure-no-sandbox", false, "DANGEROUS: run pull requests' code without the bubblewrap sandbox, as the server's user, with its network; only for installations whose every pull request is trusted")
	fs.IntVar(&opts.Sandbox.UID, "sandbox-uid", 65534, "When the server runs as root, run jobs as this `uid` (it should own nothing)")
	fs.IntVar(&opts.Sandbox.GID, "sandbox-gid", 65534, "When the server runs as root, run jobs with this `gid`")
	fs.Uint64Var(&opts.Sandbox.NProc, "sandbox-nproc", 1024, "Processes and threads a job may have at once (RLIMIT_NPROC)")
	fs.Uint64Var(&opts.Sandbox.FileSize, "sandbox-file-size", 1<<30, "Largest file a job may write, in `bytes` (RLIMIT_FSIZE)")
	fs.Uint64Var(&opts.Sandbox.TmpSize, "sandbox-tmp-size", 1<<30, "Size of a job's /tmp, in `bytes`")
	opts.Sandbox.Memory = 4 << 30
	fs.Var((*byteSize)(&opts.Sandbox.Memory), "sandbox-memory", "Memory (and swap) a job may use, through a cgroup made for it or else the server's watchdog, as `bytes` or 512MiB, 4GiB; 0 = no limit")
	fs.StringVar(&opts.Sandbox.Cgroup, "sandbox-cgroup", "", "Make the jobs' cgroups in this cgroup `dir` (default the server's own memory cgroup, else the watchdog); none: the watchdog enforces -sandbox-memory")
	opts.Sandbox.Disk = 10 << 30
	fs.Var((*byteSize)(&opts.Sandbox.Disk), "sandbox-disk", "Space a job's clone and build cache may take, enforced by the server's watchdog, as `bytes` or 512MiB, 10GiB; 0 = no quota")
	fs.Var(&allowHosts{&opts.Sandbox.AllowHosts}, "sandbox-allow-host", "A `host:port` jobs may reach through the server's proxy; repeat for more. Giving any replaces the default (the hosts of go env GOPROXY and GOSUMDB, -api-url and -git-url), which \"default\" adds back; \"none\": no network at all")
	fs.StringVar(&opts.Sandbox.GoCacheSeed, "gocache-seed", "", "Build cache the server fills with the standard library and jobs read through hard links (default WORKDIR/gocache-seed)")
	fs.BoolVar(&opts.ForksNeedApproval, "require-approval", true, "Hold pull requests from forks or from authors without write access until someone with write access comments /retest-concurrency or adds -approve-label; =false for private installations")
	fs.StringVar(&opts.ApproveLabel, "approve-label", app.DefaultApproveLabel, "The `label` that approves a held pull request")
	fs.BoolVar(&opts.KeepJobDirs, "keep-job-dirs", false, "Keep each job's directory (clone, logs, outputs) under -workdir after it ends, for debugging")
	fs.StringVar(&opts.APIURL, "api-url", apiDefault, "REST API `url` (GitHub Enterprise: https://HOST/api/v3)")
	fs.StringVar(&opts.GitURL, "git-url", gitDefault, "Clone from `url`/OWNER/REPO; a local directory works too")
	if code, ok := parseFlags(fs, args); !ok {
		return nil, code, false
	}
	bad := func(format string, a ...any) (*serveOptions, int, bool) {
		fmt.Fprintf(env.stderr, "interleave serve: "+format+"\n", a...)
		return nil, exitError, false
	}
	if fs.NArg() > 0 {
		return bad("unexpected arguments %q", fs.Args())
	}
	if opts.AppID <= 0 {
		return bad("-app-id is required: the App's numeric id from its settings page")
	}
	if *keyFile == "" {
		return bad("-private-key is required: the PEM file generated on the App's settings page")
	}
	key, err := os.ReadFile(*keyFile)
	if err != nil {
		return bad("reading the private key: %v", err)
	}
	opts.PrivateKey = key
	secret := getenv("INTERLEAVE_WEBHOOK_SECRET")
	if *secretFile != "" {
		data, err := os.ReadFile(*secretFile)
		if err != nil {
			return bad("reading the webhook secret: %v", err)
		}
		secret = strings.TrimRight(string(data), "\r\n")
	}
	if secret == "" {
		return bad("no webhook secret: use -webhook-secret-file FILE or set INTERLEAVE_WEBHOOK_SECRET")
	}
	opts.WebhookSecret = []byte(secret)
	switch {
	case opts.Workers < 1:
		return bad("-workers must be at least 1, got %d", opts.Workers)
	case opts.JobTimeout <= 0:
		return bad("-job-timeout must be positive, got %v", opts.JobTimeout)
	case opts.DefaultBudget <= 0:
		return bad("-budget must be positive, got %v", opts.DefaultBudget)
	case opts.DefaultBudget >= opts.JobTimeout:
		return bad("-budget %v leaves no time for fetching and building within -job-timeout %v", opts.DefaultBudget, opts.JobTimeout)
	case opts.Count < 0:
		return bad("-count must not be negative, got %d", opts.Count)
	case opts.Grace < 0:
		return bad("-grace must not be negative, got %v", opts.Grace)
	case opts.Sandbox.UID <= 0 || opts.Sandbox.GID <= 0:
		return bad("-sandbox-uid and -sandbox-gid must be positive (not root), got %d:%d", opts.Sandbox.UID, opts.Sandbox.GID)
	case opts.Sandbox.NProc < 64:
		return bad("-sandbox-nproc must be at least 64 (go build needs threads), got %d", opts.Sandbox.NProc)
	case opts.Sandbox.Memory > 0 && opts.Sandbox.Memory < 64<<20:
		return bad("-sandbox-memory must be 0 (no limit) or at least 64MiB (go build needs it), got %d bytes", opts.Sandbox.Memory)
	case opts.Sandbox.Disk > 0 && opts.Sandbox.Disk < 64<<20:
		return bad("-sandbox-disk must be 0 (no quota) or at least 64MiB (a build cache needs it), got %d bytes", opts.Sandbox.Disk)
	}
	switch opts.FailOn {
	case "note", "warning", "error":
	default:
		return bad("-fail-on must be note, warning or error, got %q", opts.FailOn)
	}
	if opts.Interleave, err = os.Executable(); err != nil {
		return bad("locating the interleave binary: %v", err)
	}
	return opts, 0, true
}

// runServe serves until ctx is cancelled or SIGTERM arrives. ready, when not
// nil, is called with the listening address.
func runServe(ctx context.Context, env *cliEnv, opts *serveOptions, ready func(addr string)) int {
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, os.Interrupt)
	defer stop()
	log := slog.New(slog.NewJSONHandler(env.stderr, nil))
	cfg := opts.Config
	cfg.Logger = log
	if !filepath.IsAbs(cfg.DBPath) {
		cfg.DBPath = filepath.Join(env.dir, cfg.DBPath)
	}
	if !filepath.IsAbs(cfg.WorkDir) {
		cfg.WorkDir = filepath.Join(env.dir, cfg.WorkDir)
	}
	if err := os.MkdirAll(cfg.WorkDir, 0o700); err != nil {
		fmt.Fprintf(env.stderr, "interleave serve: %v\n", err)
		return exitError
	}
	srv, err := app.New(cfg)
	if err != nil {
		fmt.Fprintf(env.stderr, "interleave serve: %v\n", err)
		return exitError
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		srv.Close(context.Background())
		fmt.Fprintf(env.stderr, "interleave serve: %v\n", err)
		return exitError
	}
	httpSrv := &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       8 * time.Second, // GitHub gives up after 10 s
		WriteTimeout:      10 * time.Second,
	}
	srv.Start()
	log.Info("serving", "addr", ln.Addr().String(), "app_id", cfg.AppID, "workers", cfg.Workers, "api", cfg.APIURL, "db", cfg.DBPath,
		"sandbox", !cfg.Sandbox.Insecure, "job_memory", cfg.Sandbox.Memory, "job_disk", cfg.Sandbox.Disk, "require_approval", cfg.ForksNeedApproval)
	if ready != nil {
		ready(ln.Addr().String())
	}
	served := make(chan error, 1)
	go func() { served <- httpSrv.Serve(ln) }()

	code := exitOK
	select {
	case <-ctx.Done():
		log.Info("shutting down: no new deliveries; running jobs get the grace period", "grace", opts.Grace.String())
	case err := <-served:
		log.Error("server stopped", "error", err.Error())
		code = exitError
	}
	shutCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	if err := httpSrv.Shutdown(shutCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Warn("closing connections", "error", err.Error())
	}
	cancel()
	graceCtx, cancel := context.WithTimeout(context.Background(), opts.Grace)
	defer cancel()
	if err := srv.Close(graceCtx); err != nil {
		log.Error("closing the queue", "error", err.Error())
		return exitError
	}
	log.Info("stopped")
	return code
}

// allowHosts is -sandbox-allow-host: host:port, "default", or "none" alone.
type allowHosts struct{ hosts *[]string }

func (a *allowHosts) String() string {
	if a == nil || a.hosts == nil || *a.hosts == nil {
		return ""
	}
	if len(*a.hosts) == 0 {
		return "none"
	}
	return strings.Join(*a.hosts, ",")
}

func (a *allowHosts) Set(v string) error {
	none := *a.hosts != nil && len(*a.hosts) == 0
	switch {
	case v == "none" && *a.hosts == nil:
		*a.hosts = []string{}
		return nil
	case v == "none" || none:
		return errors.New(`"none" cannot be combined with hosts`)
	case v != app.AllowDefault:
		host, port, err := net.SplitHostPort(v)
		if n, perr := strconv.Atoi(port); err != nil || host == "" || perr != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%q is not host:port (such as proxy.golang.org:443), default or none", v)
		}
	}
	*a.hosts = append(*a.hosts, v)
	return nil
}

// byteSize is a flag of bytes, with an optional KiB, MiB or GiB suffix.
type byteSize uint64

var byteUnits = []struct {
	suffix string
	mul    uint64
}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}}

func (b *byteSize) String() string {
	if b == nil || *b == 0 {
		return "0"
	}
	for _, u := range byteUnits {
		if uint64(*b)%u.mul == 0 {
			return strconv.FormatUint(uint64(*b)/u.mul, 10) + u.suffix
		}
	}
	return strconv.FormatUint(uint64(*b), 10)
}

func (b *byteSize) Set(s string) error {
	num, mul := s, uint64(1)
	for _, u := range byteUnits {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			num, mul = n, u.mul
			break
		}
	}
	n, err := strconv.ParseUint(num, 10, 64)
	if err != nil || n > math.MaxUint64/mul {
		return fmt.Errorf("%q is not a size: want bytes or a number with KiB, MiB or GiB", s)
	}
	*b = byteSize(n * mul)
	return nil
}
