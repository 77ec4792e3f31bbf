//go:build !unix

package app

import "os/exec"

// setProcessGroup has no process groups to use here: cancellation kills the
// command itself, not what it started.
func setProcessGroup(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) {}

func setCredential(cmd *exec.Cmd, uid, gid int) {}
