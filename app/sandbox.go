package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/interleave-dev/interleave/checks/static"
	"github.com/interleave-dev/interleave/report"
	ghreport "github.com/interleave-dev/interleave/report/github"
)

// ReportFD is the descriptor on which interleave serve-job sends its
// JobResult: a pipe only the trusted serve-job process holds.
const ReportFD = 3

// MaxScheduleBytes is the largest schedule file a job may send along.
const MaxScheduleBytes = 8 << 10

// maxResultBytes bounds what the server reads from the report pipe.
const maxResultBytes = ghreport.MaxReportBytes + 1<<20

// JobResult is what interleave serve-job sends on ReportFD once interleave
// pr has returned: its exit code, its JSON report (exit 0 or 1) and the
// schedule files the report names, keyed by their path in the clone.
type JobResult struct {
	Exit      int               `json:"exit"`
	Report    json.RawMessage   `json:"report,omitempty"`
	Schedules map[string]string `json:"schedules,omitempty"`
}

// Sandbox configures how a job's untrusted processes are confined.
type Sandbox struct {
	// Insecure runs jobs without a sandbox, as the server's own user with
	// its network: only for a private installation whose pull requests are
	// all trusted (interleave serve -insecure-no-sandbox).
	Insecure bool
	Bwrap    string // bubblewrap binary; default "bwrap" on PATH
	// UID and GID run the job when the server is root; default 65534. A
	// server that is not root runs bwrap as itself (the job is then only
	// confined by namespaces).
	UID, GID int
	NProc    uint64 // RLIMIT_NPROC (processes and threads); default 1024
	FileSize uint64 // RLIMIT_FSIZE; default 1 GiB
	TmpSize  uint64 // size of the job's /tmp and /dev/shm tmpfs, each; default 1 GiB
	// GoCacheSeed is a build cache only the server writes: each job's own
	// cache starts as hard links to its outputs (read-only to the job) and
	// copies of its action entries, so it should hold only what jobs
	// need. Default WorkDir/gocache-seed, filled by the server with go
	// build std and go build -race std before the first job.
	GoCacheSeed string
	// Memory is the memory (and swap) a job may use, through a cgroup
	// made for it or, where none can be made, the server's watchdog; 0 =
	// no limit.
	Memory uint64
	// Cgroup is the cgroup directory the jobs' cgroups are made in;
	// default the server's own memory cgroup, falling back to the
	// watchdog when it cannot make one there; CgroupNone: the watchdog.
	Cgroup string
	// Disk is the space a job's clone and build cache may take, enforced
	// by the watchdog; 0 = no quota.
	Disk uint64
	// AllowHosts is what a job may reach (host:port) through the server's
	// proxy: nil means AllowDefault; an empty, non-nil list no network at all.
	AllowHosts []string
}

// CgroupNone as Sandbox.Cgroup makes no cgroups: the watchdog enforces
// the memory limit.
const CgroupNone = "none"

// sandbox is a Sandbox resolved at startup.
type sandbox struct {
	Sandbox
	workDir  string
	bin      string // the interleave binary the job runs, readable by it
	goroot   string
	modCache string     // filled by the trusted go mod download, read-only to jobs
	drop     bool       // the server is root: run the job as UID:GID
	cg       *cgroups   // nil when no cgroup limits the memory
	cgErr    error      // why none could be made, when the watchdog does
	net      *netPolicy // nil: the job has no network at all
	warm     sync.Once
}

// The sandbox's view of the job.
const (
	sbxSrc   = "/job/src"
	sbxCache = "/job/cache"
	sbxMod   = "/job/gomod"
	sbxBin   = "/job/bin/interleave"
)

// newSandbox checks that bwrap works with the options jobs use, and
// prepares the directories it binds.
func newSandbox(cfg Sandbox, workDir, interleave string) (*sandbox, error) {
	if cfg.Bwrap == "" {
		cfg.Bwrap = "bwrap"
	}
	if cfg.UID == 0 {
		cfg.UID = 65534
	}
	if cfg.GID == 0 {
		cfg.GID = 65534
	}
	if cfg.NProc == 0 {
		cfg.NProc = 1024
	}
	if cfg.FileSize == 0 {
		cfg.FileSize = 1 << 30
	}
	if cfg.TmpSize == 0 {
		cfg.TmpSize = 1 << 30
	}
	if cfg.GoCacheSeed == "" {
		cfg.GoCacheSeed = filepath.Join(workDir, "gocache-seed")
	}
	s := &sandbox{Sandbox: cfg, workDir: workDir, drop: os.Geteuid() == 0,
		modCache: filepath.Join(workDir, "gomod"), bin: filepath.Join(workDir, "bin", "interleave")}
	if cfg.Memory > 0 && cfg.Cgroup != CgroupNone {
		cg, err := newCgroups(cfg.Cgroup, cfg.Memory, cfg.NProc)
		switch {
		case err == nil:
			s.cg = cg
		case cfg.Cgroup != "":
			return nil, fmt.Errorf("cannot limit the jobs' memory to %s with a cgroup in %s: %w\n(name a writable, delegated cgroup, or pass -sandbox-cgroup %s to have the server's watchdog enforce the limit)", formatBytes(cfg.Memory), cfg.Cgroup, err, CgroupNone)
		default:
			s.cgErr = err
		}
	}
	if s.watched() {
		// The watchdog reads every process's /proc/PID/stat.
		if rss, err := treeRSS(os.Getpid()); err != nil || rss == 0 {
			return nil, fmt.Errorf("the watchdog that enforces -sandbox-memory and -sandbox-disk cannot read /proc: %v", err)
		}
	}
	path, err := exec.LookPath(cfg.Bwrap)
	if err != nil {
		return nil, fmt.Errorf("bubblewrap (%s) is not installed: %w", cfg.Bwrap, err)
	}
	s.Bwrap = path
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %w (the jobs need a Go toolchain on PATH)", err)
	}
	s.goroot = strings.TrimSpace(string(out))
	// The job's uid must reach what bwrap binds: the work directory is
	// traversable, nothing in it is listable.
	for _, d := range []string{workDir, filepath.Join(workDir, "jobs"), filepath.Dir(s.bin), s.modCache, cfg.GoCacheSeed} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	for _, d := range []string{workDir, filepath.Join(workDir, "jobs"), filepath.Dir(s.bin), s.modCache} {
		if err := os.Chmod(d, 0o711); err != nil {
			return nil, err
		}
	}
	if err := copyFile(interleave, s.bin, 0o755); err != nil {
		return nil, fmt.Errorf("copying the interleave binary for the jobs: %w", err)
	}
	// Probe: the job's own command, confined as a job is, prints its
	// version.
	probe := filepath.Join(workDir, "jobs", "probe")
	os.RemoveAll(probe)
	defer os.RemoveAll(probe)
	if err := s.prepare(probe); err != nil {
		return nil, err
	}
	if err := s.chown(filepath.Join(probe, "src")); err != nil {
		return nil, err
	}
	cmd := s.command(context.Background(), probe, nil, "version")
	var buf strings.Builder
	cmd.Stdout, cmd.Stderr = &buf, &buf
	start := (*exec.Cmd).Start
	if s.cg != nil {
		cg, err := s.cg.create("probe")
		if err != nil {
			return nil, err
		}
		defer cg.remove()
		start = cg.start
	}
	err = start(cmd)
	if err == nil {
		err = cmd.Wait()
	}
	if err != nil {
		return nil, fmt.Errorf("bubblewrap cannot start a job (%v): %s\n(the job needs user namespaces; uid %d must be able to traverse %s and read %s)",
			err, strings.TrimSpace(buf.String()), s.jobUID(), workDir, s.goroot)
	}
	return s, nil
}

// watched says whether a job needs the watchdog: a memory limit no cgroup
// enforces, or a disk quota.
func (s *sandbox) watched() bool {
	return (s.Memory > 0 && s.cg == nil) || s.Disk > 0
}

// watchdog returns the watchdog of the job in jobDir: it counts the files
// of the job's uid in its clone and build cache (a root server's seed links
// are not the job's).
func (s *sandbox) watchdog(jobDir string) *watchdog {
	w := &watchdog{disk: s.Disk, uid: -1,
		dirs: []string{filepath.Join(jobDir, "src"), filepath.Join(jobDir, "cache")}}
	if s.cg == nil {
		w.memory = s.Memory
	}
	if s.drop {
		w.uid = s.UID
	}
	return w
}

func (s *sandbox) jobUID() int {
	if s.drop {
		return s.UID
	}
	return os.Geteuid()
}

// prepare makes the job directory's src, the server's until its fetch is
// done, and cache, the job's.
func (s *sandbox) prepare(jobDir string) error {
	for _, d := range []string{jobDir, filepath.Join(jobDir, "src"), filepath.Join(jobDir, "cache")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	if err := os.Chmod(jobDir, 0o711); err != nil {
		return err
	}
	if s.net != nil {
		// The job's uid connects to the proxy's socket in it.
		if err := os.Mkdir(proxyDir(jobDir), 0o711); err != nil {
			return err
		}
		if err := os.Chmod(proxyDir(jobDir), 0o711); err != nil {
			return err
		}
	}
	return s.chown(filepath.Join(jobDir, "cache"))
}

// chown gives a tree to the job's uid.
func (s *sandbox) chown(dir string) error {
	if !s.drop {
		return nil
	}
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, s.UID, s.GID)
	})
}

// seedCache fills the job's build cache from the seed: outputs as hard
// links, which stay the server's files that the job's uid cannot write,
// action entries as the job's own copies (the go command rewrites them
// in place); the directories are the job's, so it adds entries of its
// own. Its trim.txt says the cache was just trimmed: the job's go command
// would otherwise delete the links to outputs the seed has not used for
// days.
// Without a separate uid the job could write the shared files, so nothing
// is linked.
func (s *sandbox) seedCache(cache string) error {
	if !s.drop {
		return nil
	}
	err := filepath.WalkDir(s.GoCacheSeed, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(s.GoCacheSeed, p)
		dst := filepath.Join(cache, rel)
		switch {
		case rel == ".":
			return nil
		case d.IsDir():
			if err := os.Mkdir(dst, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return err
			}
			return os.Lchown(dst, s.UID, s.GID)
		case d.Type().IsRegular() && rel != "trim.txt":
			// Only entries the job's uid can read and not write: an
			// unreadable one would fail its build instead of being
			// rebuilt.
			if info, err := d.Info(); err != nil || info.Mode().Perm()&0o004 == 0 || info.Mode().Perm()&0o002 != 0 {
				return nil
			}
			if !strings.HasSuffix(rel, "-d") {
				return s.copyForJob(p, dst)
			}
			// Outputs are named by their hash and never rewritten.
			if err := os.Link(p, dst); err != nil && !errors.Is(err, fs.ErrExist) {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	trim := filepath.Join(cache, "trim.txt")
	if err := os.WriteFile(trim, []byte(strconv.FormatInt(time.Now().Unix(), 10)), 0o644); err != nil {
		return err
	}
	return os.Lchown(trim, s.UID, s.GID)
}

// copyForJob copies a small file of the seed into the job's fresh cache as
// a file of the job's uid.
func (s *sandbox) copyForJob(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Chown(s.UID, s.GID)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// warmSeed fills the seed cache once, as the server (trusted code only):
// the standard library built with and without -race, and the go vet facts
// of the standard packages every job's static stage needs.
func (s *sandbox) warmSeed(ctx context.Context, run func(dir string, env []string, name string, args ...string) error) {
	if !s.drop {
		return
	}
	s.warm.Do(func() {
		env := append(scrubbedEnv(), "GOCACHE="+s.GoCacheSeed, "GOFLAGS=", "GOWORK=off")
		// A failure only makes jobs slower.
		for _, args := range [][]string{{"build", "std"}, {"build", "-race", "std"}} {
			run(s.workDir, env, "go", args...)
		}
		if dir, err := s.writeWarmModule(); err == nil {
			run(dir, env, "go", append(static.VetArgs(s.bin, nil), ".")...)
		}
	})
}

// writeWarmModule writes WorkDir/warm, a module whose package imports
// testing. A job's static stage runs go vet over test packages, so over
// testing and the standard packages it imports (73 packages in Go 1.26), whose
// facts go vet computes unless its cache holds them under the same key:
// the vet tool's hash (s.bin is the file the job runs as
// /job/bin/interleave) and its flags (static.VetArgs). The server's go
// vet of this package puts them in the seed.
func (s *sandbox) writeWarmModule() (string, error) {
	dir := filepath.Join(s.workDir, "warm")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module interleave.warm\n\ngo 1.21\n"), 0o600); err != nil {
		return "", err
	}
	src := "// Written by interleave serve: go vet of this package fills the jobs' seed cache.\npackage warm\n\nimport _ \"testing\"\n"
	return dir, os.WriteFile(filepath.Join(dir, "warm.go"), []byte(src), 0o600)
}

// downloadEnv is the environment of the trusted go mod download that fills
// the module cache before the job, the only step with network access.
func (s *sandbox) downloadEnv() []string {
	return append(scrubbedEnv(), "GOMODCACHE="+s.modCache, "GOFLAGS=-mod=mod", "GOWORK=off")
}

// command returns bwrap running the interleave binary with args in the
// job's sandbox. The job sees only its clone (read-write), its build cache,
// the module cache and the system's programs (read-only), a private /tmp
// and /proc, and no network but, with a policy, the proxy's socket.
func (s *sandbox) command(ctx context.Context, jobDir string, extra []*os.File, args ...string) *exec.Cmd {
	b := []string{
		"--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session",
		"--cap-drop", "ALL", "--hostname", "interleave-job",
		"--ro-bind", "/usr", "/usr",
	}
	for _, d := range []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"} {
		if t, err := os.Readlink(d); err == nil {
			b = append(b, "--symlink", t, d)
		} else if st, err := os.Stat(d); err == nil && st.IsDir() {
			b = append(b, "--ro-bind", d, d)
		}
	}
	for _, f := range []string{"/etc/ld.so.cache", "/etc/alternatives", "/etc/passwd", "/etc/group"} {
		b = append(b, "--ro-bind-try", f, f)
	}
	if !strings.HasPrefix(s.goroot, "/usr/") {
		b = append(b, "--ro-bind", s.goroot, s.goroot)
	}
	b = append(b,
		// /dev is a tmpfs as large as half the memory: read-only, with a
		// /dev/shm as small as /tmp.
		"--dev", "/dev", "--size", strconv.FormatUint(s.TmpSize, 10), "--tmpfs", "/dev/shm", "--remount-ro", "/dev",
		"--proc", "/proc",
		"--size", strconv.FormatUint(s.TmpSize, 10), "--tmpfs", "/tmp", "--dir", "/tmp/home",
		"--ro-bind", s.bin, sbxBin,
		"--ro-bind", s.modCache, sbxMod,
		"--bind", filepath.Join(jobDir, "src"), sbxSrc,
		"--bind", filepath.Join(jobDir, "cache"), sbxCache)
	if s.net != nil {
		b = append(b, "--ro-bind", proxyDir(jobDir), sbxNetDir)
	}
	b = append(b, "--chdir", sbxSrc, "--clearenv")
	goflags := strings.TrimSpace(os.Getenv("GOFLAGS") + " -mod=mod")
	env := [][2]string{
		{"PATH", filepath.Join(s.goroot, "bin") + ":/usr/local/bin:/usr/bin:/bin"},
		{"HOME", "/tmp/home"}, {"TMPDIR", "/tmp"}, {"GOPATH", "/tmp/home/go"},
		{"GOCACHE", sbxCache}, {"GOMODCACHE", sbxMod}, {"GOFLAGS", goflags},
		// The checksum database stays on: its answers, cached by the
		// server's download, verify a go line's toolchain offline.
		{"GOPROXY", "off"}, {"GOWORK", "off"}, {"GOTELEMETRY", "off"},
	}
	if v := os.Getenv("GOTOOLCHAIN"); v != "" {
		env = append(env, [2]string{"GOTOOLCHAIN", v})
	}
	for _, kv := range env {
		b = append(b, "--setenv", kv[0], kv[1])
	}
	b = append(b, "--", sbxBin)
	b = append(b, args...)
	cmd := exec.CommandContext(ctx, s.Bwrap, b...)
	// bwrap's own environment is visible in the sandbox (/proc/1/environ).
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.ExtraFiles = extra
	setProcessGroup(cmd)
	if s.drop {
		setCredential(cmd, s.UID, s.GID)
	}
	return cmd
}

// jobArgs are serve-job's own flags.
func (s *sandbox) jobArgs() []string {
	a := []string{"serve-job", "-nproc", strconv.FormatUint(s.NProc, 10), "-fsize", strconv.FormatUint(s.FileSize, 10)}
	if s.net != nil {
		a = append(a, "-net", sbxNetSock)
	}
	return append(a, "--")
}

func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := dst + ".tmp"
	out, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

// readResult reads a JobResult from the report pipe, bounded.
func readResult(r io.Reader) (*JobResult, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxResultBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxResultBytes {
		return nil, fmt.Errorf("the job sent more than %d bytes", maxResultBytes)
	}
	if len(b) == 0 {
		return nil, errors.New("the job sent no result")
	}
	var res JobResult
	if err := json.Unmarshal(b, &res); err != nil {
		return nil, fmt.Errorf("the job's result is malformed: %v", err)
	}
	return &res, nil
}

// checkResult validates a job's report and returns it parsed; schedules
// that are not small JSON files at local paths are dropped.
func checkResult(res *JobResult) (*report.JSONReport, error) {
	var r report.JSONReport
	if err := json.Unmarshal(res.Report, &r); err != nil {
		return nil, fmt.Errorf("the job's report is not interleave's JSON: %v", err)
	}
	if err := ghreport.CheckReport(&r); err != nil {
		return nil, fmt.Errorf("the job's report: %w", err)
	}
	for name, text := range res.Schedules {
		if !filepath.IsLocal(filepath.FromSlash(name)) || len(text) > MaxScheduleBytes || !json.Valid([]byte(text)) {
			delete(res.Schedules, name)
		}
	}
	return &r, nil
}

// addNote appends a note of the server's to a checked report, in its JSON
// as in its parsed form.
func addNote(res *JobResult, rep *report.JSONReport, note string) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(res.Report, &m); err != nil {
		return err
	}
	rep.Notes = append(rep.Notes, note)
	b, err := json.Marshal(rep.Notes)
	if err != nil {
		return err
	}
	m["notes"] = b
	if res.Report, err = json.Marshal(m); err != nil {
		return err
	}
	return nil
}

// formatBytes writes a limit as people read it: 256 MiB, 4 GiB.
func formatBytes(n uint64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
