//go:build unix

package app

import (
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
