//go:build linux

package app

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// held keeps hold's memory reachable.
var held [][]byte

// hold touches mib MiB, says so on stdout and keeps it until killed.
func hold(mib int) {
	for range mib {
		b := make([]byte, 1<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		held = append(held, b)
	}
	fmt.Println("holding", len(held), "MiB")
	for {
		time.Sleep(time.Hour)
	}
}

// startHolder starts sh, which starts the test binary holding mib MiB, in
// a process group of its own, and returns once the memory is held.
func startHolder(t *testing.T, mib int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sh", "-c", `"$0" & wait`, os.Args[0])
	cmd.Env = append(os.Environ(), fmt.Sprintf("INTERLEAVE_TEST_HOLD=%d", mib))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if !strings.HasPrefix(line, "holding") {
		t.Fatalf("the holder said %q (%v)", line, err)
	}
	return cmd
}

// The watchdog counts the memory of the job's descendants, not only of
// the process it started, and stops the job over the limit; under it,
// it does not.
func TestWatchdogStopsJobOverMemory(t *testing.T) {
	cmd := startHolder(t, 256)
	_, own, err := readStat(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	rss, err := treeRSS(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if rss < 256<<20 || own*uint64(os.Getpagesize()) > 64<<20 {
		t.Fatalf("tree RSS %d, sh's own %d pages: want the child's 256 MiB counted under sh", rss, own)
	}
	if rss > 1<<30 {
		t.Fatalf("tree RSS %d: a watchdog with a 1 GiB limit would stop this job", rss)
	}

	w := &watchdog{memory: 128 << 20, memEvery: time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopped := make(chan *limitExceeded, 1)
	go w.run(ctx, cmd.Process.Pid, func(e *limitExceeded) {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		stopped <- e
	})
	e := <-stopped
	if e.what != "memory" || e.limit != 128<<20 || e.used < 256<<20 {
		t.Errorf("stopped with %+v, want memory over 128 MiB with at least 256 MiB used", e)
	}
	if err := cmd.Wait(); err == nil {
		t.Errorf("sh was not killed")
	}
	want := "its processes used "
	if s := e.summary("abc123"); !strings.Contains(s, want) || !strings.Contains(s, "memory limit of 128 MiB") || !strings.Contains(s, "killed all its processes") {
		t.Errorf("summary %q", s)
	}
}

// Disk use counts allocated blocks of the job's files once per inode,
// each file at least minFileBytes, only the job's uid's when one is given,
// and a job over its quota is stopped.
func TestWatchdogDiskQuota(t *testing.T) {
	dir := t.TempDir()
	src, cache := filepath.Join(dir, "src"), filepath.Join(dir, "cache")
	os.MkdirAll(filepath.Join(src, "a", "b"), 0o755)
	os.MkdirAll(cache, 0o755)
	data := make([]byte, 1<<20)
	for i := range data {
		data[i] = byte(i)
	}
	for _, f := range []string{filepath.Join(src, "a", "b", "one"), filepath.Join(cache, "two")} {
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A hard link is counted once; a sparse file by what it takes.
	if err := os.Link(filepath.Join(cache, "two"), filepath.Join(src, "two-again")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "sparse"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(src, "sparse"), 1<<30); err != nil {
		t.Fatal(err)
	}
	used, err := diskUsage([]string{src, cache, filepath.Join(dir, "missing")}, -1)
	if err != nil {
		t.Fatal(err)
	}
	if used < 2<<20 || used > 2<<20+64<<10 {
		t.Errorf("disk use %d, want 2 MiB and a few blocks (two files, a link, a sparse file, three directories)", used)
	}

	if os.Geteuid() == 0 {
		// Only the job's uid's files count: a root server's seed links
		// are its own.
		if err := os.Chown(filepath.Join(src, "a", "b", "one"), 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if used, err := diskUsage([]string{src, cache}, 65534); err != nil || used != 1<<20 {
			t.Errorf("disk use of uid 65534: %d %v, want 1 MiB", used, err)
		}
	} else {
		// A directory the job made unreadable is made readable again.
		os.Chmod(filepath.Join(src, "a"), 0)
		if used2, err := diskUsage([]string{src, cache}, -1); err != nil || used2 != used {
			t.Errorf("disk use with an unreadable directory: %d %v, want %d", used2, err, used)
		}
	}

	w := &watchdog{disk: 1 << 20, dirs: []string{src, cache}, uid: -1, memEvery: time.Millisecond, diskEvery: time.Millisecond}
	stopped := make(chan *limitExceeded, 1)
	w.run(context.Background(), os.Getpid(), func(e *limitExceeded) { stopped <- e })
	e := <-stopped
	if e.what != "disk" || e.err != nil || e.used < 2<<20 {
		t.Errorf("stopped with %+v, want disk over 1 MiB", e)
	}
	if s := e.summary("abc123"); !strings.Contains(s, "over the job's disk quota of 1 MiB") {
		t.Errorf("summary %q", s)
	}
}

// A cgroup directory the operator named must work; without one the
// watchdog takes the memory limit.
func TestSandboxMemoryMechanism(t *testing.T) {
	work := t.TempDir()
	_, err := newSandbox(Sandbox{Memory: 1 << 30, Cgroup: filepath.Join(work, "no-such-cgroup")}, work, os.Args[0])
	if err == nil || !strings.Contains(err.Error(), "-sandbox-cgroup none") {
		t.Errorf("a -sandbox-cgroup that is not a cgroup: %v, want an error naming -sandbox-cgroup none", err)
	}
	s := &sandbox{Sandbox: Sandbox{Memory: 1 << 30, Disk: 0, UID: 65534}, drop: true}
	if !s.watched() || s.watchdog(work).memory != 1<<30 || s.watchdog(work).uid != 65534 {
		t.Errorf("no cgroup: watched %v, watchdog %+v; want the watchdog to enforce 1 GiB on uid 65534's files", s.watched(), s.watchdog(work))
	}
	s.cg = &cgroups{limit: 1 << 30}
	if s.watched() || s.watchdog(work).memory != 0 {
		t.Errorf("with a cgroup and no disk quota: watched %v, watchdog %+v; want no watchdog", s.watched(), s.watchdog(work))
	}
}
