// Command peakrss runs a command and reports the peak memory of its whole
// process tree: go vet runs its vet tool as child processes, so the
// command's own maximum RSS says little.
//
//	peakrss [-o FILE] [-interval 50ms] -- CMD [ARG...]
//
// It samples /proc every interval while CMD runs and prints (to stderr, or
// to FILE) one line:
//
//	tree_peak_kb=N proc_peak_kb=N proc_peak_cmd=NAME samples=N
//
// tree_peak_kb is the largest sum of the resident set sizes of CMD and
// all its descendants seen at one sample; proc_peak_kb is the largest
// peak RSS (VmHWM) of any one process of the tree, and proc_peak_cmd its
// command name. A process shorter than the interval can be missed by both,
// so the figures are lower bounds; the vet tool's large packages run for
// seconds. Exits with CMD's exit status. Linux only.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	out := flag.String("o", "", "write the figures to `file` instead of stderr")
	interval := flag.Duration("interval", 50*time.Millisecond, "sampling interval")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: peakrss [-o file] [-interval d] -- cmd [arg...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		fmt.Fprintln(os.Stderr, "peakrss: needs Linux /proc:", err)
		os.Exit(2)
	}
	cmd := exec.Command(flag.Arg(0), flag.Args()[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "peakrss:", err)
		os.Exit(2)
	}
	signal.Ignore(syscall.SIGINT) // the child gets it from the terminal

	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var p peaks
	tick := time.NewTicker(*interval)
	defer tick.Stop()
	var werr error
loop:
	for {
		p.sample(cmd.Process.Pid)
		select {
		case werr = <-done:
			break loop
		case <-tick.C:
		}
	}
	// The children's largest maximum RSS, from the kernel: exact for the
	// processes the command waited for.
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > p.proc {
		p.proc, p.procCmd = ru.Maxrss, flag.Arg(0)+" (rusage)"
	}
	line := fmt.Sprintf("tree_peak_kb=%d proc_peak_kb=%d proc_peak_cmd=%s samples=%d\n", p.tree, p.proc, p.procCmd, p.n)
	if *out != "" {
		if err := os.WriteFile(*out, []byte(line), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "peakrss:", err)
			os.Exit(2)
		}
	} else {
		fmt.Fprint(os.Stderr, line)
	}
	if werr != nil {
		if ee, ok := werr.(*exec.ExitError); ok {
			os.Exit(ee.ExitCode())
		}
		fmt.Fprintln(os.Stderr, "peakrss:", werr)
		os.Exit(2)
	}
}

type peaks struct {
	tree, proc int64
	procCmd    string
	n          int
}

// sample adds one reading of the tree rooted at root.
func (p *peaks) sample(root int) {
	p.n++
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	parent := map[int]int{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, ok := ppid(pid); ok {
			parent[pid] = pp
		}
	}
	in := func(pid int) bool {
		for i := 0; pid > 1 && i < 64; i++ {
			if pid == root {
				return true
			}
			pid = parent[pid]
		}
		return false
	}
	var sum int64
	for pid := range parent {
		if !in(pid) {
			continue
		}
		rss, hwm, name := status(pid)
		sum += rss
		if hwm > p.proc {
			p.proc, p.procCmd = hwm, name
		}
	}
	p.tree = max(p.tree, sum)
}

// ppid reads the parent of pid from /proc/pid/stat.
func ppid(pid int) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// pid (comm) state ppid ...; comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0, false
	}
	pp, err := strconv.Atoi(f[1])
	return pp, err == nil
}

// status reads VmRSS and VmHWM (kB) and the command name of pid.
func status(pid int) (rss, hwm int64, name string) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, 0, ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB"))
		switch k {
		case "Name":
			name = v
		case "VmRSS":
			rss, _ = strconv.ParseInt(v, 10, 64)
		case "VmHWM":
			hwm, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	return rss, hwm, name
}
