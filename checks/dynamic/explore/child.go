package explore

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// childGrace is how long past its deadline a child may run before the
// watchdog kills it: enough for the schedule in flight to finish and for a
// race-instrumented process to exit, short enough that the budget holds.
const childGrace = 3 * time.Second

// maxCrashText bounds the standard error kept for one crashed schedule.
const maxCrashText = 256 << 10

// child is one run of an instrumented test binary.
type child struct {
	bin     string // test binary
	dir     string // package directory: a copy of it is the process's working directory (privateDir)
	workDir string // where config and result files go
	cfg     rt.Config
	// onResult is called for each Result as it is read (from the goroutine
	// that tails the results file).
	onResult func(rt.Result)
	// exitGrace, when set, is how long a process that runs one schedule
	// may take to exit after that schedule ended before it is stopped
	// (exitStopped): its result stands.
	exitGrace time.Duration
	// onStart, when set, is called once the process started.
	onStart func()
	// fresh, when set, is told what the process took outside its
	// schedules (starting and exiting), when it ran to its end.
	fresh *freshCosts
	// scheduleLimit, when set, stops the process when one schedule has
	// run that long (a slow test in a batch: the process is killed in
	// that schedule, which is open when it ends).
	scheduleLimit time.Duration
	// lastLimit, when set, is scheduleLimit for the schedule of index
	// lastIndex: the last test of a batch, which no test waits behind in
	// its process, runs on as long as a run alone would give it.
	lastLimit time.Duration
	lastIndex int
}

// childOutcome is what one child process did.
type childOutcome struct {
	results []rt.Result
	// maxSteps is the step bound its schedules ran under (the child's
	// rt.Config.MaxSteps): a failure's schedule records it for its replay.
	maxSteps int
	races    []raceReport
	// crashed is the index of the schedule that was running when the process
	// died, or -1.
	crashed   int
	crashText string // standard error since that schedule's start marker
	killed    bool   // the driver killed it at its hard stop
	// exitStopped says the driver stopped it exitGrace after its one
	// schedule ended, still not exited.
	exitStopped bool
	// limitStopped says the driver stopped it in a schedule that ran
	// longer than child.scheduleLimit (it is killed, that one open).
	limitStopped bool
	// openFor is, for a process that ended in a schedule (stopped,
	// crashed), the time from that schedule's start to the process's end.
	openFor time.Duration
	// quiet is, for a killed process, how long it had written nothing (no
	// output, no result) when it was killed: what tells a process that
	// hung from one the end of its share stopped while it worked or exited.
	quiet   time.Duration
	exitErr error
	stdout  string // tail of standard output, for diagnostics
	stderr  string // tail of standard error, for diagnostics
	started int    // start markers seen
	lastRun int    // index of the last schedule started, or -1
	// leftovers is the index of the schedule the process did not start
	// because goroutines of earlier ones were still alive, or -1.
	leftovers int
	// rerun is the index of the schedule the process did not start
	// because its test cannot run twice in one process (rt.MarkerRerun),
	// or -1.
	rerun int
	// logs holds, per schedule index, the entries the test logged
	// (t.Logf, t.Errorf and friends, each with its continuation lines),
	// in order: the words of a test failure are among them. logSubs
	// names the top-level subtest each entry was logged in ("" for the
	// test's own): go test -v writes entries as they are logged, so the
	// first failing one is the failure that came first.
	logs    map[int][]string
	logSubs map[int][]string
}

// run starts the child and waits for it; the watchdog kills it at hardStop.
func (c *child) run(ctx context.Context, hardStop time.Time, name string) (*childOutcome, error) {
	name = strings.ReplaceAll(name, "/", "_") // a subtest searched alone
	results := filepath.Join(c.workDir, name+".results.jsonl")
	_ = os.Remove(results)
	if err := os.WriteFile(results, nil, 0o644); err != nil {
		return nil, err
	}
	c.cfg.Results = results
	cfgPath := filepath.Join(c.workDir, name+".config.json")
	b, err := json.Marshal(c.cfg)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(cfgPath, b, 0o644); err != nil {
		return nil, err
	}
	cctx, cancel := context.WithDeadline(ctx, hardStop)
	defer cancel()
	dir, removeDir, err := privateDir(c.workDir, c.dir)
	if err != nil {
		return nil, fmt.Errorf("a copy of %s to run the tests in: %w", c.dir, err)
	}
	defer removeDir()
	tmpEnv, removeTemp, err := privateTemp()
	if err != nil {
		return nil, fmt.Errorf("a temporary directory to run the tests with: %w", err)
	}
	defer removeTemp()
	cmd := exec.CommandContext(cctx, c.bin, "-test.run=^"+rt.DriverTest+"$", "-test.v", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), rt.EnvConfig+"="+cfgPath, "GORACE="+gorace(os.Getenv("GORACE")), tmpEnv)
	cmd.WaitDelay = time.Second
	seen := &activity{}
	seen.mark()
	stdout := &stdoutParser{cur: -1, logs: map[int][]string{}, subs: map[int][]string{}, indent: -1, seen: seen}
	stdout.tail.max = 64 << 10
	cmd.Stdout = stdout
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", filepath.Base(c.bin), err)
	}
	if c.onStart != nil {
		c.onStart()
	}
	out := &childOutcome{crashed: -1, leftovers: -1, rerun: -1, lastRun: -1, maxSteps: c.cfg.MaxSteps}
	var wg sync.WaitGroup
	wg.Add(1)
	sp := stderrParser{seen: seen}
	var exitStop sync.Once
	var exitStopped atomic.Bool
	if c.exitGrace > 0 && c.cfg.Schedules == 1 {
		sp.onEnd = func() {
			exitStop.Do(func() {
				t := time.AfterFunc(c.exitGrace, func() { exitStopped.Store(true); cancel() })
				go func() { <-cctx.Done(); t.Stop() }()
			})
		}
	}
	var limitStopped atomic.Bool
	if c.scheduleLimit > 0 {
		// A timer per schedule, started at its start marker.
		var mu sync.Mutex
		var timer *time.Timer
		stopTimer := func() {
			mu.Lock()
			if timer != nil {
				timer.Stop()
			}
			mu.Unlock()
		}
		sp.onStart = func() {
			mu.Lock()
			if timer != nil {
				timer.Stop()
			}
			limit := c.scheduleLimit
			if c.lastLimit > 0 && sp.cur == c.lastIndex {
				limit = c.lastLimit
			}
			timer = time.AfterFunc(limit, func() { limitStopped.Store(true); cancel() })
			mu.Unlock()
		}
		prevEnd := sp.onEnd
		sp.onEnd = func() {
			stopTimer()
			if prevEnd != nil {
				prevEnd()
			}
		}
		defer stopTimer()
	}
	go func() {
		defer wg.Done()
		sp.parse(errPipe)
	}()

	// Tail the results file while the child runs, for live progress.
	tail := &resultsTail{path: results}
	stopTail := make(chan struct{})
	tailDone := make(chan struct{})
	go func() {
		defer close(tailDone)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stopTail:
				return
			case <-t.C:
				for _, r := range tail.read(false) {
					seen.mark()
					out.results = append(out.results, r)
					if c.onResult != nil {
						c.onResult(r)
					}
				}
			}
		}
	}()
	wg.Wait()
	werr := cmd.Wait()
	close(stopTail)
	<-tailDone
	for _, r := range tail.read(true) {
		out.results = append(out.results, r)
		if c.onResult != nil {
			c.onResult(r)
		}
	}
	if dl, ok := cctx.Deadline(); ok && errors.Is(cctx.Err(), context.DeadlineExceeded) {
		// Stopped at its deadline: what that took until now is what a
		// process stopped then takes past it (replays end that much
		// before the hard stop: stopBy).
		c.fresh.addStop(time.Since(dl))
	}
	out.exitErr = werr
	out.exitStopped = exitStopped.Load()
	out.limitStopped = limitStopped.Load()
	out.killed = cctx.Err() != nil && ctx.Err() == nil && !out.exitStopped
	if cctx.Err() == nil && !sp.open && !sp.firstStart.IsZero() && !sp.lastEnd.IsZero() {
		c.fresh.add(sp.firstStart.Sub(begin) + time.Since(sp.lastEnd))
	}
	if out.killed {
		out.quiet = max(hardStop.Sub(seen.last()), 0)
	}
	out.races = sp.races
	out.started = sp.started
	out.lastRun = sp.last
	out.leftovers, out.rerun = sp.leftovers, sp.rerun
	out.stdout = stdout.tail.String()
	out.logs, out.logSubs = stdout.logs, stdout.subs
	out.stderr = sp.tail.String()
	if sp.open {
		out.crashed = sp.cur
		out.crashText = sp.sinceStart.String()
		out.openFor = time.Since(sp.curStart)
	}
	return out, nil
}

// gorace returns the race detector's options for a child: the user's, with
// the second the race runtime sleeps at a normal exit (atexit_sleep_ms,
// there to let other threads report) turned off unless the user set it:
// every worker process exits at the end of each test's slice of the budget,
// and that second would come on top of it.
func gorace(user string) string {
	if strings.Contains(user, "atexit_sleep_ms") {
		return user
	}
	return strings.TrimSpace(user + " atexit_sleep_ms=0")
}

// resultsTail reads complete JSON lines appended to a file.
type resultsTail struct {
	path   string
	offset int64
}

func (t *resultsTail) read(final bool) []rt.Result {
	f, err := os.Open(t.path)
	if err != nil {
		return nil
	}
	defer f.Close()
	if _, err := f.Seek(t.offset, io.SeekStart); err != nil {
		return nil
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil
	}
	end := bytes.LastIndexByte(data, '\n')
	if end < 0 {
		if !final || len(data) == 0 {
			return nil
		}
		end = len(data) - 1
	}
	var out []rt.Result
	for _, line := range bytes.Split(data[:end+1], []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var r rt.Result
		if err := json.Unmarshal(line, &r); err != nil {
			continue // a line cut by a crash
		}
		out = append(out, r)
	}
	t.offset += int64(end + 1)
	return out
}

// stderrParser follows the schedule markers in a child's standard error and
// collects race reports and the text of a schedule that crashes.
type stderrParser struct {
	seen       *activity // marked at every line
	onEnd      func()    // called at every end marker, if set
	onStart    func()    // called at every start marker, if set
	cur, last  int       // schedule index in flight, last one seen
	open       bool      // a start marker without its end marker
	unwinding  bool      // the open schedule's MarkerUnwind was read
	returned   bool      // the open schedule's MarkerReturned was read
	started    int
	leftovers  int // index after MarkerLeftovers, or -1
	rerun      int // index after MarkerRerun, or -1
	races      []raceReport
	sinceStart tailBuffer
	tail       tailBuffer
	// firstStart and lastEnd are when the first start marker and the
	// last end marker were read (zero: none); curStart when the latest
	// start marker was.
	firstStart, lastEnd, curStart time.Time
}

func (p *stderrParser) parse(r io.Reader) {
	p.cur, p.last, p.leftovers, p.rerun = -1, -1, -1, -1
	p.sinceStart.max = maxCrashText
	p.tail.max = 16 << 10
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	var race *strings.Builder
	for sc.Scan() {
		line := sc.Text()
		p.seen.mark()
		if i := strings.Index(line, rt.MarkerStart); i >= 0 {
			if n, err := strconv.Atoi(strings.TrimSpace(line[i+len(rt.MarkerStart):])); err == nil {
				p.cur, p.last, p.open, p.unwinding, p.returned = n, n, true, false, false
				p.started++
				p.curStart = time.Now()
				if p.firstStart.IsZero() {
					p.firstStart = p.curStart
				}
				if p.onStart != nil {
					p.onStart()
				}
				p.sinceStart.Reset()
				continue
			}
		}
		if n, ok := markerIndex(line, rt.MarkerUnwind); ok {
			p.unwinding = p.open && n == p.cur
			continue
		}
		if n, ok := markerIndex(line, rt.MarkerReturned); ok {
			p.returned = p.open && n == p.cur
			continue
		}
		if n, ok := markerIndex(line, rt.MarkerLeftovers); ok {
			p.leftovers = n
			continue
		}
		if n, ok := markerIndex(line, rt.MarkerRerun); ok {
			p.rerun = n
			continue
		}
		if i := strings.Index(line, rt.MarkerEnd); i >= 0 {
			if _, err := strconv.Atoi(strings.TrimSpace(line[i+len(rt.MarkerEnd):])); err == nil {
				p.open = false
				p.lastEnd = time.Now()
				if p.onEnd != nil {
					p.onEnd()
				}
				continue
			}
		}
		p.tail.WriteString(line + "\n")
		if p.open {
			p.sinceStart.WriteString(line + "\n")
		}
		switch {
		case strings.HasPrefix(line, "WARNING: DATA RACE"):
			race = &strings.Builder{}
			race.WriteString(line + "\n")
		case race != nil && strings.HasPrefix(line, "=================="):
			rep := parseRace(race.String())
			rep.Index = p.last
			rep.Unwinding = p.open && p.unwinding
			rep.AfterReturn = p.open && p.returned
			if !p.open {
				rep.Index = -1
				if p.last >= 0 {
					rep.Index = p.last
				}
			}
			p.races = append(p.races, rep)
			race = nil
		case race != nil:
			race.WriteString(line + "\n")
		}
	}
	// Drain anything left so the child never blocks on a full pipe.
	_, _ = io.Copy(io.Discard, r)
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if t.max > 0 && len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) WriteString(s string) { _, _ = t.Write([]byte(s)) }

func (t *tailBuffer) Reset() {
	t.mu.Lock()
	t.buf = t.buf[:0]
	t.mu.Unlock()
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// stdoutParser reads the test binary's -test.v output: it keeps a tail for
// diagnostics and the log entries of each schedule's subtest, which the
// runtime names "schedule-<index>".
type stdoutParser struct {
	mu      sync.Mutex
	partial []byte
	cur     int
	logs    map[int][]string
	subs    map[int][]string // the top-level subtest of each entry of logs
	curSub  string           // the top-level subtest of the lines being read
	size    map[int]int      // bytes kept in logs, per schedule
	tail    tailBuffer
	// indent is the indentation of the log line being continued (its
	// more indented lines are its continuation: testify's and goleak's
	// details), or -1.
	indent int
	seen   *activity // marked at every write
}

// maxLogText bounds the words kept of a schedule's log entries, and
// maxLogEntries their number.
const (
	maxLogText    = 16 << 10
	maxLogEntries = 64
)

var (
	subtestRE = regexp.MustCompile(`^=== (?:RUN|CONT|NAME|PAUSE)\s+` + rt.DriverTest + `/schedule-(\d+)(?:/([^/]+)(?:/.*)?)?$`)
	logLineRE = regexp.MustCompile(`^\s+(\S+\.go:\d+: .*)$`)
)

func (p *stdoutParser) Write(b []byte) (int, error) {
	p.seen.mark()
	p.tail.Write(b)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.partial = append(p.partial, b...)
	for {
		i := bytes.IndexByte(p.partial, '\n')
		if i < 0 {
			break
		}
		line := string(p.partial[:i])
		p.partial = p.partial[i+1:]
		if m := subtestRE.FindStringSubmatch(line); m != nil {
			p.cur, _ = strconv.Atoi(m[1])
			p.curSub = m[2]
			p.indent = -1
			continue
		}
		ind := len(line) - len(strings.TrimLeft(line, " \t"))
		if p.indent >= 0 && ind > p.indent && p.cur >= 0 {
			if es := p.logs[p.cur]; len(es) > 0 && p.size[p.cur] < maxLogText {
				es[len(es)-1] += "\n" + strings.TrimSpace(line)
				p.size[p.cur] += len(line)
			}
			continue
		}
		p.indent = -1
		if m := logLineRE.FindStringSubmatch(line); m != nil && p.cur >= 0 {
			if len(p.logs[p.cur]) < maxLogEntries && p.size[p.cur] < maxLogText {
				if p.size == nil {
					p.size = map[int]int{}
				}
				p.logs[p.cur] = append(p.logs[p.cur], m[1])
				if p.subs != nil {
					p.subs[p.cur] = append(p.subs[p.cur], p.curSub)
				}
				p.size[p.cur] += len(m[1])
				p.indent = ind
			}
		}
	}
	if len(p.partial) > 64<<10 {
		p.partial = p.partial[:0]
	}
	return len(b), nil
}

// activity is when a child last wrote something.
type activity struct {
	mu sync.Mutex
	at time.Time
}

func (a *activity) mark() {
	if a == nil {
		return
	}
	a.mu.Lock()
	a.at = time.Now()
	a.mu.Unlock()
}

func (a *activity) last() time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.at
}

// killedBetween is the note of test's process out, killed by the driver
// outside any schedule (after at least one started), with tail its last
// output. Only a process that had written nothing for the watchdog's
// time (stepTimeout) was seen hanging; any other was stopped by the end
// of its share of the budget while it went on to its next schedule or
// exited, which is no hang. A failure of its schedules counts either way.
func (o *childOutcome) killedBetween(test string, stepTimeout time.Duration, tail string) string {
	if o.quiet >= stepTimeout {
		return fmt.Sprintf("%s: the test process hung outside any schedule: it had written nothing for %v (the watchdog's limit is %v) when it was killed at the end of its share of the budget; its last output:\n%s",
			test, o.quiet.Round(100*time.Millisecond), stepTimeout, tail)
	}
	where := "between schedules"
	if last := strings.TrimSpace(lastLine(o.stdout)); last == "PASS" || last == "FAIL" {
		where = "while exiting after its last schedule (it had printed " + last + ")"
	}
	return fmt.Sprintf("%s: the test process was stopped at the end of its share of the budget %s, %v after its last output: not seen hanging (the watchdog's limit is %v); its last output:\n%s",
		test, where, o.quiet.Round(100*time.Millisecond), stepTimeout, tail)
}

// killedBeforeStart is the note of a process out, killed by the driver
// before its first schedule, with tail its last output. As in
// killedBetween, only a process that had written nothing for the
// watchdog's time (stepTimeout) was seen hanging.
func (o *childOutcome) killedBeforeStart(stepTimeout time.Duration, tail string) string {
	if o.quiet >= stepTimeout {
		return fmt.Sprintf("the test process hung before its first schedule (in TestMain or a package's initialization?): it had written nothing for %v (the watchdog's limit is %v) when it was killed; its last output:\n%s",
			o.quiet.Round(100*time.Millisecond), stepTimeout, tail)
	}
	return fmt.Sprintf("the test process was stopped at the end of its share of the budget before its first schedule, %v after its last output: not seen hanging (the watchdog's limit is %v); a larger budget gives it time to start; its last output:\n%s",
		o.quiet.Round(100*time.Millisecond), stepTimeout, tail)
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// markerIndex is the schedule index that follows marker in line, as in
// rt.MarkerLeftovers and rt.MarkerRerun ("<marker><index> <count>").
func markerIndex(line, marker string) (int, bool) {
	i := strings.Index(line, marker)
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(line[i+len(marker):])
	if len(f) == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(f[0])
	return n, err == nil
}
