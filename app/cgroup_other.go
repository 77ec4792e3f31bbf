//go:build !linux

package app

import (
	"errors"
	"os/exec"
)

type cgroups struct{ limit uint64 }

type jobCgroup struct{}

func newCgroups(parent string, limit, pids uint64) (*cgroups, error) {
	return nil, errors.New("cgroups exist only on Linux")
}

func (cg *cgroups) create(name string) (*jobCgroup, error) { return nil, errors.ErrUnsupported }
func (j *jobCgroup) start(cmd *exec.Cmd) error             { return errors.ErrUnsupported }
func (j *jobCgroup) oomKills() int                         { return 0 }
func (j *jobCgroup) remove() error                         { return nil }
