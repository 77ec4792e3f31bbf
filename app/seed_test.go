package app

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks/static"
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
// the host's GOCACHE that go build std and go build -race std use (what
// the server's own warmSeed puts in a seed), so the server's go build std
// finds it complete. Only those: the seed, each job's copy of it and their
// removal cost a file operation per entry, and a busy host's cache has
// tens of thousands of recent ones.
func testSeed(t *testing.T, dir string) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOCACHE: %v", err)
	}
	host := strings.TrimSpace(string(out))
	n, err := linkStd(host, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the seed holds %d entries of %s", n, host)
	return dir
}

// TestSeedHoldsStd: testSeed's seed is complete for go build std and go
// build -race std (the server's warmSeed compiles nothing in it) and is
// the standard library's size, not the host cache's.
func TestSeedHoldsStd(t *testing.T) {
	seed := testSeed(t, filepath.Join(t.TempDir(), "seed"))
	before := 0
	filepath.WalkDir(seed, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			before++
		}
		return nil
	})
	for _, args := range [][]string{{"build", "-x", "std"}, {"build", "-x", "-race", "std"}} {
		cmd := exec.Command("go", args...)
		cmd.Env = append(os.Environ(), "GOCACHE="+seed, "GOFLAGS=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if m := regexp.MustCompile(`(?m)^\S*/compile .* -p (\S+)`).FindAllStringSubmatch(string(out), 3); m != nil {
			t.Errorf("go %s with the seed as its cache compiled %q and more: the seed misses their entries", strings.Join(args, " "), m)
		}
	}
	// Each package's action entry and export data, with and without
	// -race: some hundreds, not the host's tens of thousands.
	if before == 0 || before > 4000 {
		t.Errorf("the seed holds %d files, want the standard library's", before)
	}
}

// linkStd links into the build cache dir the action entries and outputs
// of the host cache that build the standard library, with and without
// -race (go list -export builds what is missing, as go build std would).
// A package's build ID starts with its action ID's first 15 bytes, which
// name its action entry (hex of the whole ID, then "-a"); the entry
// names its output, the package's export file.
func linkStd(host, dir string) (int, error) {
	link := func(src string) error {
		dst := filepath.Join(dir, filepath.Base(filepath.Dir(src)), filepath.Base(src))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		err := os.Link(src, dst)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			// Another file system: a copy.
			b, err := os.ReadFile(src)
			if err != nil {
				return err
			}
			return os.WriteFile(dst, b, 0o644)
		}
		return nil
	}
	n := 0
	for _, flags := range [][]string{nil, {"-race"}} {
		// A subdirectory's names, listed after this pass's go list: on a
		// cold cache the -race pass writes entries the first listing
		// did not see.
		listed := map[string][]string{}
		args := append([]string{"list", "-export", "-deps", "-f", "{{if .Export}}{{.BuildID}} {{.Export}}{{end}}"}, flags...)
		cmd := exec.Command("go", append(args, "std")...)
		cmd.Env = append(os.Environ(), "GOCACHE="+host, "GOFLAGS=") // as warmSeed
		out, err := cmd.Output()
		if err != nil {
			return n, fmt.Errorf("go %s std: %v", strings.Join(args, " "), err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			id, export, ok := strings.Cut(line, " ")
			actionID, _, _ := strings.Cut(id, "/")
			b, err := base64.RawURLEncoding.DecodeString(actionID)
			if !ok || err != nil || len(b) < 2 || filepath.Dir(filepath.Dir(export)) != host {
				return n, fmt.Errorf("go list -export: unexpected line %q (GOCACHE %s)", line, host)
			}
			prefix := hex.EncodeToString(b)
			sub := prefix[:2]
			if listed[sub] == nil {
				f, err := os.Open(filepath.Join(host, sub))
				if err != nil {
					return n, err
				}
				listed[sub], err = f.Readdirnames(-1)
				f.Close()
				if err != nil {
					return n, err
				}
			}
			var entry string
			for _, name := range listed[sub] {
				if strings.HasPrefix(name, prefix) && strings.HasSuffix(name, "-a") {
					entry = filepath.Join(host, sub, name)
				}
			}
			if entry == "" {
				return n, fmt.Errorf("no action entry %s…-a in %s for %s", prefix, host, export)
			}
			for _, src := range []string{entry, export} {
				if err := link(src); err != nil {
					return n, err
				}
				n++
			}
		}
	}
	return n, nil
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

// vetToolRuns runs go vet with static.VetArgs as a job's static stage
// does (its build cache seeded from seed, GOFLAGS=-mod=mod, the vet tool
// at tool) over a module in dir whose package imports sync and whose test
// imports testing, and returns how often go vet ran the vet tool: once
// per package it had no cached result for.
func vetToolRuns(t *testing.T, seed, tool, dir string) int {
	t.Helper()
	cache := filepath.Join(dir, "cache")
	mod := filepath.Join(dir, "mod")
	for _, d := range []string{cache, mod} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module vetcheck\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(mod, "p.go"), []byte("package p\n\nimport \"sync\"\n\nvar mu sync.Mutex\n\nfunc F() { mu.Lock(); mu.Unlock() }\n"), 0o644)
	os.WriteFile(filepath.Join(mod, "p_test.go"), []byte("package p\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { F() }\n"), 0o644)
	s := &sandbox{Sandbox: Sandbox{UID: 65534, GID: 65534, GoCacheSeed: seed}, drop: true}
	if err := s.seedCache(cache); err != nil {
		t.Fatal(err)
	}
	args := static.VetArgs(tool, nil)
	cmd := exec.Command("go", append(append(args[:1:1], "-x"), append(args[1:], "./...")...)...)
	cmd.Dir = mod
	cmd.Env = append(scrubbedEnv(), "GOCACHE="+cache, "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
	return len(regexp.MustCompile(`(?m)^\S+ .*vet\.cfg$`).FindAllIndex(out, -1))
}
