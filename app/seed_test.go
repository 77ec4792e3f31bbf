package app

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSeedCache seeds a job's build cache from a seed the server filled
// days ago: the job's go command, as the job's uid, gets the seed's
// entries as hits, in its first command and in the next (the go command
// trims entries unused for five days when its cache has no recent
// trim.txt), and cannot write any of them.
func TestSeedCache(t *testing.T) {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("seeding links the server's files for another uid: only a root server on Linux does it")
	}
	const uid, gid = 65534, 65534
	root := t.TempDir()
	for _, d := range []string{filepath.Dir(root), root} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mod, seed, home := filepath.Join(root, "mod"), filepath.Join(root, "seed"), filepath.Join(root, "home")
	cache := filepath.Join(root, "job", "cache")
	for _, d := range []string{mod, seed, home, cache} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module seedtest\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(mod, "p.go"), []byte("package p\n\nfunc F() int { return 1 }\n"), 0o644)
	os.WriteFile(filepath.Join(mod, "p_test.go"), []byte("package p\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { F() }\n"), 0o644)
	os.Chown(home, uid, gid)
	goCmd := func(gocache string, cred bool, args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = mod
		cmd.Env = append(scrubbedEnv(), "GOCACHE="+gocache, "HOME="+home, "GOPATH="+filepath.Join(home, "go"),
			"TMPDIR="+home, "GOFLAGS=", "GOTOOLCHAIN=local", "GOPROXY=off", "GOWORK=off")
		if cred {
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: gid}}
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s (GOCACHE=%s): %v\n%s", strings.Join(args, " "), gocache, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	exportOf := func(gocache string, cred bool) string {
		return goCmd(gocache, cred, "list", "-export", "-f", "{{.Export}}", ".")
	}
	// The server fills the seed, and its entries go unused for six days.
	seeded := exportOf(seed, false)
	goCmd(seed, false, "list", "-test", ".")
	old := time.Now().Add(-6 * 24 * time.Hour)
	filepath.WalkDir(seed, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	// An output anyone may write would let one job change the next one's.
	var writable string
	filepath.WalkDir(seed, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, "-d") && p != seeded && writable == "" {
			writable = p
		}
		return nil
	})
	if writable == "" {
		t.Fatal("the seed has one output")
	}
	os.Chmod(writable, 0o666)
	os.Chown(cache, uid, gid)
	s := &sandbox{Sandbox: Sandbox{UID: uid, GID: gid, GoCacheSeed: seed}, drop: true}
	if err := s.seedCache(cache); err != nil {
		t.Fatal(err)
	}

	// Outputs are linked, not copied, and the job cannot write any file
	// of the seed.
	n := 0
	filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || p == filepath.Join(cache, "trim.txt") {
			return err
		}
		n++
		rel, _ := filepath.Rel(cache, p)
		a, _ := os.Stat(p)
		b, err := os.Stat(filepath.Join(seed, rel))
		linked := err == nil && os.SameFile(a, b)
		if !linked {
			if strings.HasSuffix(rel, "-d") && p != filepath.Join(cache, strings.TrimPrefix(writable, seed)) {
				t.Errorf("output %s is a copy, not the seed's file (%v)", rel, err)
			}
			return nil
		}
		w := exec.Command("sh", "-c", `: >> "$1"`, "sh", p)
		w.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: gid}}
		if w.Run() == nil {
			t.Errorf("the job's uid could write the seed's %s", rel)
		}
		return nil
	})
	if n == 0 {
		t.Fatal("nothing was seeded")
	}

	// The job's go commands hit the seed's entry, also after go list
	// -test, which writes the entry of its test main again, and after go
	// build, which trims the cache as it ends.
	for i, args := range [][]string{nil, {"list", "-test", "."}, {"build", "."}, nil} {
		if args != nil {
			goCmd(cache, true, args...)
			continue
		}
		got := exportOf(cache, true)
		a, err1 := os.Stat(got)
		b, err2 := os.Stat(seeded)
		if err1 != nil || err2 != nil || !os.SameFile(a, b) {
			t.Fatalf("the job's go command %d: export data %s, want the seed's %s, linked (%v, %v)", i+1, got, seeded, err1, err2)
		}
	}
}

// testSeed returns a -gocache-seed for the tests that start interleave
// serve: a build cache of its own holding, as hard links, the entries of
// the host's GOCACHE used in the last 90 minutes, after a go build std and
// go build -race std there marked theirs used (the go command refreshes an
// entry's time when it is over an hour old). It is small however large
// the host's cache, and the server's own go build std finds it complete.
func testSeed(t *testing.T, dir string) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOCACHE: %v", err)
	}
	host := strings.TrimSpace(string(out))
	for _, args := range [][]string{{"build", "std"}, {"build", "-race", "std"}} {
		if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	since := time.Now().Add(-90 * time.Minute)
	n := 0
	for i := range 256 {
		sub := fmt.Sprintf("%02x", i)
		entries, _ := os.ReadDir(filepath.Join(host, sub))
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			info, err := e.Info()
			if err != nil || !info.Mode().IsRegular() || info.ModTime().Before(since) {
				continue
			}
			src, dst := filepath.Join(host, sub, e.Name()), filepath.Join(dir, sub, e.Name())
			if os.Link(src, dst) != nil {
				b, err := os.ReadFile(src)
				if err != nil || os.WriteFile(dst, b, 0o644) != nil {
					continue
				}
			}
			n++
		}
	}
	t.Logf("the seed holds %d entries of %s", n, host)
	return dir
}

// BenchmarkSeedCache seeds a job's cache from the host's GOCACHE, as the
// serve tests did before testSeed (go test -run '^$' -bench SeedCache
// -benchtime 2x ./app, as root).
func BenchmarkSeedCache(b *testing.B) {
	if os.Geteuid() != 0 {
		b.Skip("seeding links the server's files for another uid: only a root server does it")
	}
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		b.Fatal(err)
	}
	s := &sandbox{Sandbox: Sandbox{UID: 65534, GID: 65534, GoCacheSeed: strings.TrimSpace(string(out))}, drop: true}
	for b.Loop() {
		b.StopTimer()
		cache := filepath.Join(b.TempDir(), "cache")
		os.Mkdir(cache, 0o755)
		b.StartTimer()
		if err := s.seedCache(cache); err != nil {
			b.Fatal(err)
		}
	}
}
