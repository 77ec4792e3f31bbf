package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	ghreport "github.com/interleave-dev/interleave/report/github"
)

// watchdog enforces a job's memory limit (when no cgroup does) and its
// disk quota from outside the sandbox: it samples the resident memory of
// the job's process tree from /proc and the size of the job's directories,
// and stops the job, through its context, once one is over its limit. It
// samples, so a job can go over by what it allocates or writes between
// two samples.
type watchdog struct {
	memory uint64   // bytes of resident memory; 0 = not watched
	disk   uint64   // bytes in dirs; 0 = not watched
	dirs   []string // the job's writable directories
	uid    int      // count only files of this uid; -1 = all
	// Sampling periods; the disk's grows with the time a walk takes.
	memEvery, diskEvery time.Duration
	// peaks seen, for the log
	peakMem, peakDisk uint64
}

// limitExceeded is a job the watchdog stopped.
type limitExceeded struct {
	what  string // "memory" or "disk"
	limit uint64
	used  uint64
	err   error // set when the disk could not be measured
	log   string
}

func (e *limitExceeded) Error() string {
	if e.err != nil {
		return fmt.Sprintf("the job's disk use could not be measured against its quota (%s): %v", formatBytes(e.limit), e.err)
	}
	if e.what == "memory" {
		return fmt.Sprintf("the job's processes used %s of memory, over its memory limit (%s)", formatSize(e.used), formatBytes(e.limit))
	}
	return fmt.Sprintf("the job's files took %s, over its disk quota (%s)", formatSize(e.used), formatBytes(e.limit))
}

// title and summary are the check run's.
func (e *limitExceeded) title() string {
	if e.what == "memory" {
		return "interleave ran out of memory"
	}
	return "interleave ran out of disk space"
}

func (e *limitExceeded) summary(sha string) string {
	var why, help string
	switch {
	case e.err != nil:
		why = fmt.Sprintf("the server could not measure its files (%s) against the job's disk quota of %s", oneLine(e.err.Error()), formatBytes(e.limit))
		help = "Files and directories the job's own user can read help."
	case e.what == "memory":
		why = fmt.Sprintf("its processes used %s of memory, over the job's memory limit of %s", formatSize(e.used), formatBytes(e.limit))
		help = "Tests that use less memory, or a larger `-sandbox-memory` on the server, help."
	default:
		why = fmt.Sprintf("its files (the clone and its build cache) took %s, over the job's disk quota of %s", formatSize(e.used), formatBytes(e.limit))
		help = "Tests that write less, or a larger `-sandbox-disk` on the server, help."
	}
	fence := ghreport.CodeFence(e.log)
	return fmt.Sprintf("The analysis of %s was stopped: %s, so the server killed all its processes and there are no results. %s\n\n%s\n%s\n%s\n", sha, why, help, fence, e.log, fence)
}

// run samples the process tree under root until ctx ends, and calls stop
// once with a *limitExceeded when the job goes over a limit.
func (w *watchdog) run(ctx context.Context, root int, stop func(*limitExceeded)) {
	memEvery, diskEvery := w.memEvery, w.diskEvery
	if memEvery == 0 {
		memEvery = 200 * time.Millisecond
	}
	if diskEvery == 0 {
		diskEvery = time.Second
	}
	nextDisk := time.Now()
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if w.memory > 0 {
			// An error means the tree is gone: the job has ended.
			if rss, err := treeRSS(root); err == nil {
				w.peakMem = max(w.peakMem, rss)
				if rss > w.memory {
					stop(&limitExceeded{what: "memory", limit: w.memory, used: rss})
					return
				}
			}
		}
		if w.disk > 0 && !time.Now().Before(nextDisk) {
			start := time.Now()
			used, err := diskUsage(w.dirs, w.uid)
			if ctx.Err() != nil {
				return // the job ended during the walk
			}
			w.peakDisk = max(w.peakDisk, used)
			if err != nil || used > w.disk {
				stop(&limitExceeded{what: "disk", limit: w.disk, used: used, err: err})
				return
			}
			// Walking costs at most about 5% of a core, or a third of it
			// for a tree so large that a walk takes over 1.5 s (then
			// samples are 30 s apart).
			walk := time.Since(start)
			nextDisk = time.Now().Add(max(diskEvery, min(20*walk, max(30*time.Second, 2*walk))))
		}
		t.Reset(memEvery)
	}
}

// treeRSS is the resident memory of process root and of all its
// descendants, from /proc/*/stat (readable for every process, undumpable
// ones too). Memory that processes share is counted once per process.
func treeRSS(root int) (uint64, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	children := map[int][]int{}
	rss := map[int]uint64{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ppid, pages, err := readStat(pid)
		if err != nil {
			continue // exited meanwhile
		}
		children[ppid] = append(children[ppid], pid)
		rss[pid] = pages
	}
	if _, ok := rss[root]; !ok {
		return 0, fmt.Errorf("process %d is gone", root)
	}
	page := uint64(os.Getpagesize())
	var total uint64
	seen := map[int]bool{}
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		total += rss[pid] * page
		queue = append(queue, children[pid]...)
	}
	return total, nil
}

// readStat returns a process's parent and resident pages from
// /proc/PID/stat. The command name, in parentheses, may hold anything.
func readStat(pid int) (ppid int, rss uint64, err error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, errors.New("malformed stat")
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state): ppid is field 4, rss field 24.
	if len(f) < 22 {
		return 0, 0, errors.New("short stat")
	}
	if ppid, err = strconv.Atoi(f[1]); err != nil {
		return 0, 0, err
	}
	rss, err = strconv.ParseUint(f[21], 10, 64)
	return ppid, rss, err
}

// minFileBytes is what every file and directory counts for at least: the
// inode and a block, so that many empty files are not free.
const minFileBytes = 4096

// diskUsage is the space the files under dirs take (their allocated
// blocks; a hard link once), counting only files of uid unless it is -1.
// A directory the walk cannot read is made readable by its owner, which
// the server is when it is not root; one it still cannot read is an error,
// since the job could hide its files there.
func diskUsage(dirs []string, uid int) (uint64, error) {
	var total uint64
	seen := map[[2]uint64]bool{}
	var walk func(dir string) error
	walk = func(dir string) error {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrPermission) && os.Chmod(dir, 0o700) == nil {
			entries, err = os.ReadDir(dir)
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			info, err := os.Lstat(p)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return err
			}
			u, ok := fileUsage(info)
			if ok && (uid < 0 || u.uid == uid) && !seen[[2]uint64{u.dev, u.ino}] {
				if u.nlink > 1 {
					seen[[2]uint64{u.dev, u.ino}] = true
				}
				total += max(u.bytes, minFileBytes)
			}
			if info.IsDir() {
				if err := walk(p); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, d := range dirs {
		if err := walk(d); err != nil {
			return total, err
		}
	}
	return total, nil
}

// usage is what diskUsage needs of a file's stat.
type usage struct {
	bytes    uint64 // allocated
	uid      int
	dev, ino uint64
	nlink    uint64
}

// formatSize writes a measured size: 1.30 GiB, 812 MiB.
func formatSize(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}
