package main

import (
	"fmt"
	"syscall"
)

// Linux constants the syscall package lacks.
const (
	prSetDumpable = 4 // PR_SET_DUMPABLE
	rlimitNproc   = 6 // RLIMIT_NPROC
)

// hardenJob makes this process undumpable (its /proc files become root's,
// so same-uid processes cannot open its fds, memory or environment, nor
// ptrace it) and sets the job's resource limits, soft and hard, which every
// process it starts inherits. The report pipe fd becomes close-on-exec.
func hardenJob(fd int, nproc, fsize uint64) error {
	syscall.CloseOnExec(fd)
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetDumpable, 0, 0); errno != 0 {
		return fmt.Errorf("prctl(PR_SET_DUMPABLE, 0): %w", errno)
	}
	limits := []struct {
		res int
		v   uint64
		n   string
	}{{rlimitNproc, nproc, "RLIMIT_NPROC"}, {syscall.RLIMIT_FSIZE, fsize, "RLIMIT_FSIZE"}, {syscall.RLIMIT_CORE, 0, "RLIMIT_CORE"}}
	for _, l := range limits {
		if l.v == 0 && l.res != syscall.RLIMIT_CORE {
			continue
		}
		if err := syscall.Setrlimit(l.res, &syscall.Rlimit{Cur: l.v, Max: l.v}); err != nil {
			return fmt.Errorf("setrlimit %s %d: %w", l.n, l.v, err)
		}
	}
	return nil
}
