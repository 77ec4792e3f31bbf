//go:build unix

package app

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup starts cmd in a new process group, killed as a whole when
// cmd's context is cancelled.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// killGroup kills whatever is left of cmd's process group after it exited:
// test binaries or servers the pull request's code started.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// setCredential runs cmd as uid:gid with no supplementary groups.
func setCredential(cmd *exec.Cmd, uid, gid int) {
	cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}
}

// fileUsage reads what the disk quota counts from a file's stat.
func fileUsage(info os.FileInfo) (usage, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return usage{}, false
	}
	return usage{bytes: uint64(st.Blocks) * 512, uid: int(st.Uid), dev: uint64(st.Dev), ino: uint64(st.Ino), nlink: uint64(st.Nlink)}, true
}
