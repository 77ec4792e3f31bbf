//go:build !unix

package app

import (
	"os"
	"os/exec"
)

// setProcessGroup has no process groups to use here: cancellation kills the
// command itself, not what it started.
func setProcessGroup(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) {}

func setCredential(cmd *exec.Cmd, uid, gid int) {}

// fileUsage counts a file's size where there is no stat to read blocks from.
func fileUsage(info os.FileInfo) (usage, bool) {
	return usage{bytes: uint64(info.Size()), uid: -1}, true
}
