// The runtime as a module of its own, in one directory per machine.

package rewrite

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// rtModPath is the module and import path of the shared runtime: a
// .invalid host, which no real module has, and a last element explore
// knows the runtime's frames by.
const rtModPath = "interleave.invalid/interleavert"

// rtLang is the language version of the shared runtime's files, set by a
// build constraint on each: its go.mod has no go line (a dependency's go
// line may not be newer than the main module's), and without one the go
// command compiles a dependency as go1.16.
const rtLang = "go1.22"

// env is what instrument asks `go env` in the directory it runs in.
type env struct {
	GOMOD, GOWORK, GOFLAGS string
}

// sharedRuntimeOK reports whether the main module can require the shared
// runtime through an alternate go.mod: not in workspace mode (the go
// command refuses -modfile there), not in vendor mode (packages come from
// vendor/ only) and not when GOFLAGS names a go.mod of the user's own
// (-modfile), which ours would replace. Otherwise the runtime is overlaid
// inside the main module, as <module>/interleavert.
func sharedRuntimeOK(e env, buildFlags []string, modRoot string) bool {
	if e.GOWORK != "" && e.GOWORK != "off" {
		return false
	}
	mod := ""
	// Command-line flags (buildFlags) come after GOFLAGS and win.
	for _, f := range append(strings.Fields(e.GOFLAGS), buildFlags...) {
		f = "-" + strings.TrimLeft(f, "-")
		if strings.HasPrefix(f, "-modfile") {
			return false
		}
		if v, ok := strings.CutPrefix(f, "-mod="); ok {
			mod = v
		}
	}
	if mod != "" {
		return mod != "vendor"
	}
	// No -mod flag: the go command uses vendor/ when it exists (go 1.14
	// and later; for older go lines this errs on the safe side).
	st, err := os.Stat(filepath.Join(modRoot, "vendor"))
	return err != nil || !st.IsDir()
}

// runtimeFile reports whether e is a source file of the runtime package:
// Go (not a test, not the file that embeds the sources) or assembly.
func runtimeFile(e fs.DirEntry) bool {
	n := e.Name()
	if e.IsDir() {
		return false
	}
	return strings.HasSuffix(n, ".s") || strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") && n != "embed.go"
}

// sharedRuntime returns the directory of the runtime as the module
// rtModPath. It lives in the user cache directory, named by the hash of
// its content, so that every module on the machine uses the same
// directory and the build cache compiles the runtime once (a directory
// per module compiles it again in each); without a cache directory it is
// made under tmp.
func sharedRuntime(tmp string) (string, error) {
	ents, err := fs.ReadDir(rt.Source, ".")
	if err != nil {
		return "", err
	}
	type file struct {
		name string
		data []byte
	}
	var files []file
	h := sha256.New()
	fmt.Fprintf(h, "%s %s\n", rtModPath, rtLang)
	for _, e := range ents {
		n := e.Name()
		if !runtimeFile(e) {
			continue
		}
		data, err := fs.ReadFile(rt.Source, n)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", n, len(data))
		h.Write(data)
		files = append(files, file{n, data})
	}
	name := fmt.Sprintf("%x", h.Sum(nil))[:24]
	var roots []string
	if cache, err := os.UserCacheDir(); err == nil {
		roots = append(roots, filepath.Join(cache, "interleave", "rt"))
	}
	roots = append(roots, filepath.Join(tmp, "rt"))
	var last error
	for _, root := range roots {
		final := filepath.Join(root, name, "interleavert")
		if _, err := os.Stat(filepath.Join(final, ".interleave-complete")); err == nil {
			return final, nil
		}
		var data []file
		for _, f := range files {
			// The line directive names the file where it will be.
			if strings.HasSuffix(f.name, ".go") {
				f.data = runtimeSource(filepath.Join(final, f.name), f.data, rtLang)
			}
			data = append(data, f)
		}
		data = append(data, file{"go.mod", []byte("module " + rtModPath + "\n")}, file{".interleave-complete", nil})
		err := writeDir(root, final, func(dst string) error {
			for _, f := range data {
				if err := os.WriteFile(filepath.Join(dst, f.name), f.data, 0o644); err != nil {
					return err
				}
			}
			return nil
		})
		if err == nil {
			return final, nil
		}
		last = fmt.Errorf("rewrite: writing the runtime to %s: %w", final, err)
	}
	return "", last
}

// writeDir makes the directory final (under root) by filling a temporary
// directory next to it with fill and renaming it, so that a concurrent
// run sees it whole or not at all. A final that another run made first
// (holding .interleave-complete) is success.
func writeDir(root, final string, fill func(dst string) error) error {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	work, err := os.MkdirTemp(root, "tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	dst := filepath.Join(work, "m")
	if err := os.Mkdir(dst, 0o755); err != nil {
		return err
	}
	if err := fill(dst); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return err
	}
	if err := os.Rename(dst, final); err != nil {
		if _, serr := os.Stat(filepath.Join(final, ".interleave-complete")); serr == nil {
			return nil
		}
		return err
	}
	return nil
}
