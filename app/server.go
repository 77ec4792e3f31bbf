// Package app is interleave's GitHub App mode: an HTTP server that receives
// webhooks, checks who asked, keeps a job queue in a bbolt file, and runs
// interleave pr on the pinned head commit of a pull request, then
// interleave post with an installation token.
//
// A delivery is answered at once (verify, dedupe, store, 202); a triage loop
// does the API calls a command needs (permission, reaction, head SHA) and
// queues jobs; workers run the jobs.
package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/bradleyfalzon/ghinstallation/v2"
	gh "github.com/google/go-github/v60/github"

	"github.com/interleave-dev/interleave/internal/prjob"
	ghreport "github.com/interleave-dev/interleave/report/github"
)

// Config is what the server needs; New fills defaults for zero fields where
// it says so.
type Config struct {
	AppID         int64
	PrivateKey    []byte // the App's PEM private key
	WebhookSecret []byte
	DBPath        string // bbolt file holding the queue
	WorkDir       string // clones and job outputs live under it
	APIURL        string // REST API root, such as https://api.github.com/
	GitURL        string // clone source root: <GitURL>/<owner>/<repo>; a URL or a local directory
	Interleave    string // the interleave binary run for pr and post
	Workers       int    // jobs run at once; 0 runs none (triage only)
	JobTimeout    time.Duration
	PostTimeout   time.Duration // default 5m
	DefaultBudget time.Duration // search budget when the trigger names none
	Count         int           // pr's -count for every job (schedules per worker and test); 0: the budget alone
	FailOn        string        // -fail-on for interleave post; default prjob.DefaultFailOn
	MaxBody       int64         // largest webhook body; default ghreport.MaxWebhookBody
	Transport     http.RoundTripper
	Logger        *slog.Logger
	Sandbox       Sandbox // how jobs are confined; New refuses to start without it unless Sandbox.Insecure
	// ForksNeedApproval holds a pull request from a fork, or by an author
	// without write access, until someone with write access comments
	// /retest-concurrency or adds ApproveLabel.
	ForksNeedApproval bool
	ApproveLabel      string // default DefaultApproveLabel
	KeepJobDirs       bool   // keep a job's directory after it ends, for debugging

	// crashAfterPost, set by tests, runs after interleave post succeeded
	// and before the job is recorded as posted; true abandons the job
	// there, as a crash would.
	crashAfterPost func(*Job) bool
}

// Server is a running App: handler, triage loop and workers over one store.
type Server struct {
	cfg     Config
	log     *slog.Logger
	store   *store
	apiBase *url.URL

	triageWake chan struct{}
	jobWake    chan struct{}

	// loops stop claiming work when stop is cancelled; running jobs are
	// killed and re-queued when kill is cancelled.
	stopCtx  context.Context
	stop     context.CancelFunc
	killCtx  context.Context
	kill     context.CancelFunc
	loops    sync.WaitGroup
	started  bool
	closeMu  sync.Mutex
	closed   bool
	runProbe sync.Once
	prRun    bool     // interleave pr takes -run
	sbx      *sandbox // nil with Sandbox.Insecure

	mu         sync.Mutex
	transports map[int64]*ghinstallation.Transport
}

// New validates cfg, opens the store and re-queues jobs a previous server
// left running.
func New(cfg Config) (*Server, error) {
	switch {
	case cfg.AppID <= 0:
		return nil, errors.New("app id must be a positive number")
	case len(cfg.PrivateKey) == 0:
		return nil, errors.New("no App private key")
	case len(cfg.WebhookSecret) == 0:
		return nil, errors.New("no webhook secret")
	case cfg.DBPath == "":
		return nil, errors.New("no database path")
	case cfg.WorkDir == "":
		return nil, errors.New("no work directory")
	case cfg.APIURL == "":
		return nil, errors.New("no API URL")
	case cfg.GitURL == "":
		return nil, errors.New("no git URL")
	case cfg.Interleave == "":
		return nil, errors.New("no interleave binary")
	case cfg.Workers < 0:
		return nil, fmt.Errorf("workers must not be negative, got %d", cfg.Workers)
	case cfg.JobTimeout <= 0:
		return nil, fmt.Errorf("job timeout must be positive, got %v", cfg.JobTimeout)
	case cfg.DefaultBudget <= 0:
		return nil, fmt.Errorf("default budget must be positive, got %v", cfg.DefaultBudget)
	case cfg.Count < 0:
		return nil, fmt.Errorf("count must not be negative, got %d", cfg.Count)
	}
	// Fail now on a bad key rather than on the first delivery.
	if _, err := ghinstallation.New(http.DefaultTransport, cfg.AppID, 1, cfg.PrivateKey); err != nil {
		return nil, fmt.Errorf("the App private key: %w", err)
	}
	base, err := url.Parse(strings.TrimRight(cfg.APIURL, "/") + "/")
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") {
		return nil, fmt.Errorf("API URL %q is not an http(s) URL", cfg.APIURL)
	}
	if cfg.PostTimeout <= 0 {
		cfg.PostTimeout = 5 * time.Minute
	}
	if cfg.FailOn == "" {
		cfg.FailOn = prjob.DefaultFailOn
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = ghreport.MaxWebhookBody
	}
	if cfg.Transport == nil {
		cfg.Transport = http.DefaultTransport
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.ApproveLabel == "" {
		cfg.ApproveLabel = DefaultApproveLabel
	}
	var sbx *sandbox
	if cfg.Sandbox.Insecure {
		cfg.Logger.Warn("INSECURE: jobs run without a sandbox, as the server's user, with its network; the code of every pull request can read the App's key")
	} else {
		var err error
		if sbx, err = newSandbox(cfg.Sandbox, cfg.WorkDir, cfg.Interleave); err != nil {
			return nil, fmt.Errorf("the job sandbox is unavailable: %w\nInstall bubblewrap (Debian: apt-get install bubblewrap) and allow user namespaces, or, only when every pull request is trusted, pass -insecure-no-sandbox", err)
		}
		switch {
		case sbx.Memory == 0:
			cfg.Logger.Warn("jobs have no memory limit (-sandbox-memory 0): one job can use all the memory and get the server or other jobs killed")
		case sbx.cg == nil && sbx.cgErr != nil:
			cfg.Logger.Info("the server's watchdog enforces the jobs' memory limit: no cgroup can be made", "reason", sbx.cgErr.Error())
		}
		if sbx.Disk == 0 {
			cfg.Logger.Warn("jobs have no disk quota (-sandbox-disk 0): one job can fill the disk")
		}
		if sbx.net, err = newNetPolicy(cfg.Sandbox.AllowHosts, cfg.APIURL, cfg.GitURL); err != nil {
			return nil, fmt.Errorf("the jobs' network policy: %w", err)
		}
		if sbx.net == nil {
			cfg.Logger.Info("jobs have no network at all (-sandbox-allow-host none)")
		} else {
			cfg.Logger.Info("jobs reach only these hosts, through the server's proxy", "allow", sbx.net.allow)
		}
	}
	st, err := openStore(cfg.DBPath)
	if err != nil {
		return nil, err
	}
	n, err := st.resume()
	if err == nil {
		err = st.prune(time.Now())
	}
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("resume jobs: %w", err)
	}
	s := &Server{
		cfg: cfg, log: cfg.Logger, store: st, apiBase: base, sbx: sbx,
		triageWake: make(chan struct{}, 1), jobWake: make(chan struct{}, 1),
		transports: map[int64]*ghinstallation.Transport{},
	}
	s.stopCtx, s.stop = context.WithCancel(context.Background())
	s.killCtx, s.kill = context.WithCancel(context.Background())
	if n > 0 {
		s.log.Info("re-queued jobs left running by the previous server", "jobs", n)
	}
	return s, nil
}

// Start runs the triage loop and the workers in the background.
func (s *Server) Start() {
	s.closeMu.Lock()
	defer s.closeMu.Unlock()
	if s.started || s.closed {
		return
	}
	s.started = true
	s.loops.Add(1)
	go func() {
		defer s.loops.Done()
		s.triageLoop()
	}()
	for i := 0; i < s.cfg.Workers; i++ {
		s.loops.Add(1)
		go func() {
			defer s.loops.Done()
			s.workerLoop()
		}()
	}
	s.notify(s.triageWake)
	s.notify(s.jobWake)
}

// Close stops taking work, lets running jobs finish until ctx is done, then
// kills them (they go back to pending for the next server) and closes the
// database. Stop the HTTP server first.
func (s *Server) Close(ctx context.Context) error {
	s.closeMu.Lock()
	if s.closed {
		s.closeMu.Unlock()
		return nil
	}
	s.closed = true
	s.closeMu.Unlock()
	s.stop()
	done := make(chan struct{})
	go func() {
		s.loops.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		s.log.Warn("shutdown grace period over: stopping running jobs, they will be resumed on the next start")
		s.kill()
		<-done
	}
	s.kill()
	return s.store.Close()
}

// Jobs returns every job the store holds, oldest first.
func (s *Server) Jobs() ([]Job, error) { return s.store.jobs() }

func (s *Server) notify(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Handler serves POST /webhook and GET /healthz.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /webhook", s.serveWebhook)
	mux.HandleFunc("GET /healthz", s.serveHealth)
	return mux
}

func (s *Server) serveWebhook(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	log := s.log.With("delivery", r.Header.Get(gh.DeliveryIDHeader), "event", r.Header.Get(gh.EventTypeHeader))
	d, err := ghreport.VerifyWebhook(r, s.cfg.WebhookSecret, s.cfg.MaxBody)
	if err != nil {
		var we *ghreport.WebhookError
		status := http.StatusBadRequest
		if errors.As(err, &we) {
			status = we.Status
		}
		log.Warn("delivery refused", "status", status, "reason", err.Error(), "remote", r.RemoteAddr)
		http.Error(w, err.Error(), status)
		return
	}
	t, ignored, err := ghreport.ParseTrigger(d.Event, d.Payload)
	if err != nil {
		log.Warn("malformed payload", "error", err.Error())
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if t == nil {
		log.Info("delivery ignored", "reason", ignored)
		writeJSON(w, http.StatusOK, map[string]string{"status": "ignored", "reason": ignored})
		return
	}
	dup, err := s.store.addDelivery(d.ID, t, time.Now())
	if err != nil {
		log.Error("storing delivery", "error", err.Error())
		http.Error(w, "could not store the delivery", http.StatusInternalServerError)
		return
	}
	if dup {
		log.Info("duplicate delivery ignored", "dedupe_key", t.DedupeKey)
		writeJSON(w, http.StatusOK, map[string]string{"status": "duplicate"})
		return
	}
	log.Info("delivery queued", "kind", string(t.Kind), "action", t.Action, "repo", t.Owner+"/"+t.Repo, "pr", t.PR, "sender", t.Sender, "ms", time.Since(start).Milliseconds())
	s.notify(s.triageWake)
	writeJSON(w, http.StatusAccepted, map[string]string{"status": "queued"})
}

func (s *Server) serveHealth(w http.ResponseWriter, r *http.Request) {
	pending, running, deliveries, err := s.store.depth()
	if err != nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "error", "error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"status": "ok", "queue_depth": pending + running + deliveries,
		"pending": pending, "running": running, "deliveries": deliveries, "workers": s.cfg.Workers,
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// installation returns the cached token transport of an installation.
func (s *Server) installation(id int64) (*ghinstallation.Transport, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tr, ok := s.transports[id]; ok {
		return tr, nil
	}
	tr, err := ghinstallation.New(s.cfg.Transport, s.cfg.AppID, id, s.cfg.PrivateKey)
	if err != nil {
		return nil, err
	}
	tr.BaseURL = strings.TrimRight(s.apiBase.String(), "/")
	s.transports[id] = tr
	return tr, nil
}

// client returns an API client acting as an installation.
func (s *Server) client(id int64) (*gh.Client, error) {
	tr, err := s.installation(id)
	if err != nil {
		return nil, err
	}
	c := gh.NewClient(&http.Client{Transport: tr, Timeout: 30 * time.Second})
	base := *s.apiBase
	c.BaseURL = &base
	return c, nil
}
