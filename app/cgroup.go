//go:build linux

package app

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// cgroups makes each job a memory cgroup under parent: cgroup v2 (memory.max,
// memory.swap.max, pids.max) or v1 (memory.limit_in_bytes,
// memory.memsw.limit_in_bytes).
type cgroups struct {
	v2     bool
	parent string // directory the jobs' cgroups are made in
	limit  uint64 // bytes of memory (and swap) a job may use
	pids   uint64 // v2 pids.max; 0 = not set
}

// cgroupPrefix names the jobs' cgroups; leftovers of a crashed server are
// removed at startup.
const cgroupPrefix = "interleave-"

// newCgroups finds the server's own memory cgroup (or uses parent, a
// cgroup directory) and checks that a job's cgroup can be made there.
func newCgroups(parent string, limit, pids uint64) (*cgroups, error) {
	cg := &cgroups{parent: parent, limit: limit, pids: pids}
	if parent == "" {
		own, v2, err := ownMemoryCgroup()
		if err != nil {
			return nil, err
		}
		cg.parent, cg.v2 = own, v2
	} else {
		cg.v2 = exists(filepath.Join(parent, "cgroup.controllers"))
		if !cg.v2 && !exists(filepath.Join(parent, "memory.limit_in_bytes")) {
			return nil, fmt.Errorf("%s is not a memory cgroup (no cgroup.controllers, no memory.limit_in_bytes)", parent)
		}
	}
	if cg.v2 {
		if err := cg.enableV2(parent == ""); err != nil {
			return nil, err
		}
	}
	// Empty leftovers of an earlier server (a busy one may be another
	// server's), then a probe.
	old, _ := filepath.Glob(filepath.Join(cg.parent, cgroupPrefix+"*"))
	for _, d := range old {
		syscall.Rmdir(d)
	}
	probe, err := cg.create("probe")
	if err != nil {
		return nil, err
	}
	return cg, probe.remove()
}

// ownMemoryCgroup returns the directory of this process's cgroup that has
// the memory controller: the v2 one if its hierarchy has memory, else v1's.
func ownMemoryCgroup() (dir string, v2 bool, err error) {
	paths := map[string]string{} // controller ("" for v2) → path
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			paths[""] = parts[2]
		}
		for _, c := range strings.Split(parts[1], ",") {
			paths[c] = parts[2]
		}
	}
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", false, err
	}
	var v1 string
	for _, line := range strings.Split(string(mounts), "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		f, g := strings.Fields(pre), strings.Fields(post)
		if !ok || len(f) < 5 || len(g) < 3 {
			continue
		}
		root, point := f[3], f[4]
		switch {
		case g[0] == "cgroup2" && paths[""] != "":
			d := filepath.Join(point, strings.TrimPrefix(paths[""], root))
			if c, err := os.ReadFile(filepath.Join(d, "cgroup.controllers")); err == nil && hasWord(string(c), "memory") {
				return d, true, nil
			}
		case g[0] == "cgroup" && hasWord(strings.ReplaceAll(g[2], ",", " "), "memory") && paths["memory"] != "":
			v1 = filepath.Join(point, strings.TrimPrefix(paths["memory"], root))
		}
	}
	if v1 == "" {
		return "", false, errors.New("no mounted cgroup hierarchy has the memory controller")
	}
	return v1, false, nil
}

func hasWord(s, w string) bool {
	for _, f := range strings.Fields(s) {
		if f == w {
			return true
		}
	}
	return false
}

// enableV2 turns memory (and pids) on for the parent's children. A cgroup
// with processes cannot: when the parent is the server's own, the server
// moves into a leaf of it first.
func (cg *cgroups) enableV2(own bool) error {
	ctl, err := os.ReadFile(filepath.Join(cg.parent, "cgroup.controllers"))
	if err != nil {
		return err
	}
	want := "+memory"
	if cg.pids > 0 && hasWord(string(ctl), "pids") {
		want += " +pids"
	}
	sub := filepath.Join(cg.parent, "cgroup.subtree_control")
	err = os.WriteFile(sub, []byte(want), 0)
	if err != nil && own && errors.Is(err, syscall.EBUSY) {
		leaf := filepath.Join(cg.parent, "interleave-server")
		if err := os.Mkdir(leaf, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return err
		}
		if err := os.WriteFile(filepath.Join(leaf, "cgroup.procs"), []byte(strconv.Itoa(os.Getpid())), 0); err != nil {
			return fmt.Errorf("moving the server into %s: %w", leaf, err)
		}
		err = os.WriteFile(sub, []byte(want), 0)
	}
	if err != nil {
		return fmt.Errorf("enabling the memory controller in %s: %w", sub, err)
	}
	return nil
}

// jobCgroup is one job's cgroup.
type jobCgroup struct {
	cg  *cgroups
	dir string
}

// create makes a job's cgroup with its limits. Its name has the server's
// pid: servers may share a parent.
func (cg *cgroups) create(name string) (*jobCgroup, error) {
	dir := filepath.Join(cg.parent, cgroupPrefix+strconv.Itoa(os.Getpid())+"-"+name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating a cgroup: %w", err)
	}
	j := &jobCgroup{cg: cg, dir: dir}
	limit := strconv.FormatUint(cg.limit, 10)
	var files [][2]string
	if cg.v2 {
		files = [][2]string{{"memory.max", limit}, {"memory.swap.max", "0"}}
		if cg.pids > 0 {
			files = append(files, [2]string{"pids.max", strconv.FormatUint(cg.pids, 10)})
		}
	} else {
		// memsw (memory and swap) must not be below the memory limit.
		files = [][2]string{{"memory.limit_in_bytes", limit}, {"memory.memsw.limit_in_bytes", limit}}
	}
	for i, f := range files {
		path := filepath.Join(dir, f[0])
		if i > 0 && !exists(path) {
			continue // no swap accounting, no pids controller
		}
		if err := os.WriteFile(path, []byte(f[1]), 0); err != nil {
			j.remove()
			return nil, fmt.Errorf("setting %s: %w", path, err)
		}
	}
	return j, nil
}

// start starts cmd inside the cgroup, so that nothing it forks is outside.
func (j *jobCgroup) start(cmd *exec.Cmd) error {
	if j.cg.v2 {
		return startInCgroupV2(cmd, j.dir)
	}
	return startInCgroupV1(cmd, filepath.Join(j.dir, "tasks"))
}

// oomKills is how many of the job's processes the kernel killed for
// going over the limit.
func (j *jobCgroup) oomKills() int {
	name := "memory.oom_control"
	if j.cg.v2 {
		name = "memory.events"
	}
	data, _ := os.ReadFile(filepath.Join(j.dir, name))
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "oom_kill "); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
}

// remove kills what is left in the cgroup and removes it.
func (j *jobCgroup) remove() error {
	var err error
	for range 100 {
		if err = syscall.Rmdir(j.dir); err == nil || errors.Is(err, syscall.ENOENT) {
			return nil
		}
		if j.cg.v2 && os.WriteFile(filepath.Join(j.dir, "cgroup.kill"), []byte("1"), 0) == nil {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		procs, _ := os.ReadFile(filepath.Join(j.dir, "cgroup.procs"))
		for _, p := range strings.Fields(string(procs)) {
			if pid, e := strconv.Atoi(p); e == nil && pid > 0 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("removing the cgroup %s: %w", j.dir, err)
}

// startInCgroupV2 has the kernel clone cmd straight into the cgroup.
func startInCgroupV2(cmd *exec.Cmd, dir string) error {
	fd, err := syscall.Open(dir, syscall.O_DIRECTORY|syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, fd
	return cmd.Start()
}

// startInCgroupV1 moves a thread of its own into the cgroup (v1 groups
// threads) and forks cmd from it, so cmd starts inside. The thread is never
// unlocked: it ends with its goroutine instead of serving the server. It
// must not be the main thread, whose cgroup the process's memory is
// charged to.
func startInCgroupV1(cmd *exec.Cmd, tasks string) error {
	errMain := errors.New("on the main thread")
	own, _, err := ownMemoryCgroup()
	if err != nil {
		return err
	}
	home := filepath.Join(own, "tasks")
	// Our own thread runs no other goroutine meanwhile: the one below
	// goes to another thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// A goroutine that landed on the main thread keeps it (locked, parked)
	// until we return, so the next try runs on another thread: an idle main
	// thread would otherwise take every try.
	release := make(chan struct{})
	defer close(release)
	for range 100 {
		done := make(chan error, 1)
		go func() {
			runtime.LockOSThread()
			tid := syscall.Gettid()
			if tid == os.Getpid() {
				done <- errMain
				<-release
				runtime.UnlockOSThread()
				return
			}
			if err := os.WriteFile(tasks, []byte(strconv.Itoa(tid)), 0); err != nil {
				done <- fmt.Errorf("entering the cgroup: %w", err)
				return
			}
			if err := cmd.Start(); err != nil {
				done <- err
				return
			}
			// Back to the server's own cgroup: a thread of the server left
			// in the job's would make the server a candidate of the job's
			// out-of-memory kill.
			if err := os.WriteFile(home, []byte(strconv.Itoa(tid)), 0); err != nil {
				cmd.Process.Kill()
				cmd.Wait()
				done <- fmt.Errorf("leaving the job's cgroup: %w", err)
				return
			}
			done <- nil
			// This thread is bwrap's parent: its --die-with-parent kills
			// bwrap when the thread that started it ends (the parent death
			// signal is per thread), and a locked goroutine's thread ends
			// with it. So it stays until bwrap exits, without reaping it.
			waitExitNoReap(cmd.Process.Pid)
		}()
		if err := <-done; err != errMain {
			return err
		}
	}
	return errors.New("entering the cgroup: no thread but the main one")
}

// waitExitNoReap blocks until process pid exits (or is reaped by another
// waiter), leaving it for exec.Cmd.Wait to reap: waitid with WNOWAIT.
func waitExitNoReap(pid int) {
	const (
		pPID    = 1         // P_PID
		wExited = 4         // WEXITED
		wNoWait = 0x1000000 // WNOWAIT
	)
	var info [128]byte // siginfo_t
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid), uintptr(unsafe.Pointer(&info[0])), wExited|wNoWait, 0, 0)
		if errno != syscall.EINTR {
			return
		}
	}
}
