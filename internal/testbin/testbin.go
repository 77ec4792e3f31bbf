// Package testbin builds test binaries with `go test -c` into slots of a
// per-user cache, so that a build the go command finds up to date is not
// linked again: the go command compares the slot's build ID with the one
// it would link and skips the link when they match. A slot is named by
// what selects a build (directory, flags, environment), never trusted
// for its content: the go command decides whether it is stale.
package testbin

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// staleLock is how long a lock file outlives its slot.
const staleLock = 7 * 24 * time.Hour

// MaxSlots is how many slots the cache keeps; the least recently used go
// first.
const MaxSlots = 32

// env are the variables that change what `go test -c` builds.
var env = []string{"GOFLAGS", "GOOS", "GOARCH", "CGO_ENABLED", "GOEXPERIMENT", "GOTOOLCHAIN", "GOROOT", "GOWORK", "GOPATH", "GOAMD64", "GOARM64", "CC", "CGO_CFLAGS", "CGO_LDFLAGS"}

// pathFlags take a file that is made anew by each run (an overlay, an
// alternate go.mod): their values do not name the slot, their content is
// the go command's to compare.
var pathFlags = map[string]bool{"-overlay": true, "-modfile": true, "-o": true}

// Dir is the cache's directory: $INTERLEAVE_TESTBIN_CACHE when set ("off":
// no cache), the user cache directory's interleave/testbin otherwise, ""
// when there is none.
func Dir() string {
	if d := os.Getenv("INTERLEAVE_TESTBIN_CACHE"); d != "" {
		if d == "off" {
			return ""
		}
		return d
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(c, "interleave", "testbin")
}

// Build runs `go test -c -o bin args...` in dir with the environment env
// (nil: the process's) and returns the go command's output; kind names
// what the build is for (an instrumented binary, a plain one), so that
// builds of different kinds keep different slots. The
// binary is linked into a cache slot and bin made a hard link to it (a
// copy across file systems), so that bin stays as built whatever later
// builds do to the slot; without a cache (Dir is "", or the platform has
// no file locks) it builds bin directly.
func Build(ctx context.Context, kind, dir string, env []string, args []string, bin string) ([]byte, error) {
	root := Dir()
	if root == "" || !canLock {
		return goTestC(ctx, dir, env, args, bin)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return goTestC(ctx, dir, env, args, bin)
	}
	key := slotKey(kind, dir, env, args)
	slot := filepath.Join(root, key+".test")
	unlock, err := lock(ctx, slot+".lock")
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return goTestC(ctx, dir, env, args, bin)
	}
	now := time.Now()
	os.Chtimes(slot+".lock", now, now) // in use: prune keeps it
	out, err := goTestC(ctx, dir, env, args, slot)
	if err == nil {
		if bytes.Contains(out, []byte("[no test files]")) {
			// No binary: a slot left by an earlier build is not this one's.
			os.Remove(slot)
			unlock()
			return out, nil
		}
		err = linkOrCopy(slot, bin)
		os.Chtimes(slot, now, now) // the slot's use, for prune
	}
	unlock()
	if err == nil {
		prune(root, MaxSlots)
	}
	return out, err
}

func goTestC(ctx context.Context, dir string, env []string, args []string, bin string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"test", "-c", "-o", bin}, args...)...)
	cmd.Dir = dir
	cmd.Env = env
	return cmd.CombinedOutput()
}

// slotKey names the slot of a build: its kind, the directory, the go command found,
// the environment that changes builds and the flags, with the values of
// pathFlags left out.
func slotKey(kind, dir string, cmdEnv []string, args []string) string {
	h := sha256.New()
	goPath, _ := exec.LookPath("go")
	fmt.Fprintf(h, "kind %s\ndir %s\ngo %s\n", kind, dir, goPath)
	lookup := os.Getenv
	if cmdEnv != nil {
		lookup = func(k string) string {
			v := ""
			for _, kv := range cmdEnv {
				if n, val, ok := strings.Cut(kv, "="); ok && n == k {
					v = val
				}
			}
			return v
		}
	}
	for _, k := range env {
		fmt.Fprintf(h, "env %s=%s\n", k, lookup(k))
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasValue := strings.Cut(a, "=")
		if pathFlags[name] {
			if !hasValue {
				i++ // the value is the next argument
			}
			fmt.Fprintf(h, "arg %s <path>\n", name)
			continue
		}
		fmt.Fprintf(h, "arg %s\n", a)
	}
	return hex.EncodeToString(h.Sum(nil))[:24]
}

// linkOrCopy makes dst the file src is, by a hard link or else a copy.
func linkOrCopy(src, dst string) error {
	os.Remove(dst)
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// prune removes the least recently used slots beyond max, each under its
// lock (a slot being built or taken is skipped).
func prune(root string, max int) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return
	}
	type slot struct {
		path string
		used time.Time
	}
	var slots []slot
	for _, e := range ents {
		info, err := e.Info()
		if err != nil {
			continue
		}
		path := filepath.Join(root, e.Name())
		switch {
		case strings.HasSuffix(e.Name(), ".test"):
			slots = append(slots, slot{path, info.ModTime()})
		case strings.HasSuffix(e.Name(), ".lock") && time.Since(info.ModTime()) > staleLock:
			// A lock kept a week after its slot went: a build that
			// opens it while it goes races only a build of the same key.
			if _, err := os.Stat(strings.TrimSuffix(path, ".lock")); err != nil {
				os.Remove(path)
			}
		}
	}
	if len(slots) <= max {
		return
	}
	sort.Slice(slots, func(i, j int) bool { return slots[i].used.After(slots[j].used) })
	for _, s := range slots[max:] {
		unlock, err := tryLock(s.path + ".lock")
		if err != nil {
			continue
		}
		os.Remove(s.path) // the lock file stays: another may be waiting on it
		unlock()
	}
}

// errBusy is tryLock's error for a lock another process holds.
var errBusy = errors.New("testbin: slot busy")

// lock takes the lock file path, waiting for it until ctx ends.
func lock(ctx context.Context, path string) (func(), error) {
	for {
		unlock, err := tryLock(path)
		if !errors.Is(err, errBusy) {
			return unlock, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}
