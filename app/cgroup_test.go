//go:build linux

package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// needCgroups returns the jobs' cgroups with a limit, or skips saying why
// there are none.
func needCgroups(t *testing.T, limit uint64) *cgroups {
	t.Helper()
	cg, err := newCgroups("", limit, 256)
	if err != nil {
		t.Skipf("no memory cgroup can be made here, so the jobs' memory limit cannot be tested: %v", err)
	}
	return cg
}

// A process started in a job's cgroup, and what it forks, is killed at the
// limit, and the kill is counted; the cgroup is then removed.
func TestJobCgroupKillsAtLimit(t *testing.T) {
	cg := needCgroups(t, 64<<20)
	run := func(name string, mib int) (*jobCgroup, string, error) {
		j, err := cg.create(name)
		if err != nil {
			t.Fatal(err)
		}
		// sh forks the test binary: the child must be inside too.
		cmd := exec.Command("sh", "-c", `cat /proc/self/cgroup; "$0"`, os.Args[0])
		cmd.Env = append(os.Environ(), "INTERLEAVE_TEST_HOG="+strconv.Itoa(mib))
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := j.start(cmd); err != nil {
			j.remove()
			t.Fatal(err)
		}
		err = cmd.Wait()
		return j, out.String(), err
	}
	j, out, err := run("test-hog", 1024)
	if err == nil || j.oomKills() == 0 {
		t.Errorf("a process that allocates 1 GiB under a 64 MiB limit: %v, %d OOM kills, want killed:\n%s", err, j.oomKills(), out)
	}
	if !strings.Contains(out, "/"+filepath.Base(j.dir)+"\n") {
		t.Errorf("the process is not in the job's cgroup:\n%s", out)
	}
	if err := j.remove(); err != nil || exists(j.dir) {
		t.Errorf("remove: %v", err)
	}
	j, out, err = run("test-ok", 8)
	if err != nil || j.oomKills() != 0 {
		t.Errorf("a small process: %v, %d OOM kills, want it to pass:\n%s", err, j.oomKills(), out)
	}
	j.remove()
}

// A process started in a job's cgroup with a parent death signal (bwrap's
// --die-with-parent) lives until it ends: the parent is the thread that
// started it, which must outlive it.
func TestJobCgroupKeepsParentThread(t *testing.T) {
	cg := needCgroups(t, 256<<20)
	j, err := cg.create("test-parent")
	if err != nil {
		t.Fatal(err)
	}
	defer j.remove()
	cmd := exec.Command("sh", "-c", "sleep 1; exit 7")
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := j.start(cmd); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 7 {
		t.Errorf("the process ended with %v, want exit status 7 (it was killed when the thread that started it ended)", err)
	}
}
