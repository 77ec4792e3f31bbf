package explore

// A process's own package directory: go test runs a test binary in its
// package's directory, and tests write there (a database file, a socket,
// a log). The search runs several processes of one package at once, and
// the plain go test runs beside them; in one directory they would read,
// truncate and remove each other's files, and leave them in the user's
// tree. So every test process runs in a copy of the package directory
// made for it (privateDir), as in a fresh checkout: the package's files
// and the directories of data below it are copied (Go files hard-linked
// where the file system allows); the directories of
// other packages below it and everything beside it and its parents up
// to the module root are symbolic links to the originals, so a test that
// reads ../testdata or another package's files finds them.

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Limits of one copy: past them, files are linked, not copied (a hard
// link where the file system allows, else a symbolic one: read through,
// a write reaches the original).
const (
	privateMaxFile  = 1 << 20  // a file larger is linked
	privateMaxBytes = 32 << 20 // bytes copied in all
	privateMaxFiles = 4096     // files copied in all
)

// privateDir makes, under work, a copy of the package directory pkgDir for
// one process and returns the copy's package directory and a function
// that removes the copy. The copy keeps the module's layout (the package
// directory at the same path below a directory named as the module root),
// so relative paths that leave the package directory resolve as in the
// original.
func privateDir(work, pkgDir string) (string, func(), error) {
	pkgDir, err := filepath.Abs(pkgDir)
	if err != nil {
		return "", nil, err
	}
	root := moduleRoot(pkgDir) // replay.go
	if root == "" {
		root = pkgDir
	}
	rel, err := filepath.Rel(root, pkgDir)
	if err != nil {
		return "", nil, err
	}
	top, err := os.MkdirTemp(work, "cwd-")
	if err != nil {
		return "", nil, err
	}
	remove := func() { removeAllWritable(top) }
	// The module root and the directories down to the package's parent:
	// real directories holding links to every entry but the next one.
	orig, copyDir := root, filepath.Join(top, filepath.Base(root))
	parts := []string{}
	if rel != "." {
		parts = strings.Split(rel, string(filepath.Separator))
	}
	for _, next := range parts {
		if err := os.Mkdir(copyDir, 0o755); err != nil {
			remove()
			return "", nil, err
		}
		ents, err := os.ReadDir(orig)
		if err != nil {
			remove()
			return "", nil, err
		}
		for _, e := range ents {
			if e.Name() == next {
				continue
			}
			if err := os.Symlink(filepath.Join(orig, e.Name()), filepath.Join(copyDir, e.Name())); err != nil {
				remove()
				return "", nil, err
			}
		}
		orig, copyDir = filepath.Join(orig, next), filepath.Join(copyDir, next)
	}
	c := &dirCopier{}
	if err := c.copyTree(orig, copyDir); err != nil {
		remove()
		return "", nil, err
	}
	return copyDir, remove, nil
}

// dirCopier copies a package directory within the limits.
type dirCopier struct {
	bytes, files int64
}

// copyTree makes dst a copy of the directory src.
func (c *dirCopier) copyTree(src, dst string) error {
	info, err := os.Stat(src)
	if err != nil {
		return err
	}
	if err := os.Mkdir(dst, 0o700); err != nil {
		return err
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range ents {
		s, d := filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())
		if err := c.copyEntry(s, d, e); err != nil {
			return err
		}
	}
	// The directory's own mode last (a read-only one, as in the module
	// cache, stays read-only) and its times.
	if err := os.Chmod(dst, info.Mode().Perm()); err != nil {
		return err
	}
	return os.Chtimes(dst, info.ModTime(), info.ModTime())
}

func (c *dirCopier) copyEntry(s, d string, e fs.DirEntry) error {
	link := func() error { return os.Symlink(s, d) }
	switch {
	case e.Type()&fs.ModeSymlink != 0:
		// The same link: a relative one resolves in the copy as in the
		// original, since the layout is kept.
		target, err := os.Readlink(s)
		if err != nil {
			return err
		}
		return os.Symlink(target, d)
	case e.IsDir():
		if !dataDir(s, e.Name()) {
			return link()
		}
		return c.copyTree(s, d)
	case !e.Type().IsRegular():
		return link() // a socket, a device
	}
	info, err := e.Info()
	if err != nil {
		return err
	}
	if info.Size() > privateMaxFile || c.bytes+info.Size() > privateMaxBytes || c.files >= privateMaxFiles {
		if os.Link(s, d) == nil {
			return nil
		}
		return link()
	}
	// Go files, which tests read and do not write, are hard links where
	// the file system allows (a fifth of the cost of a copy here).
	if strings.HasSuffix(e.Name(), ".go") && os.Link(s, d) == nil {
		return nil
	}
	c.bytes += info.Size()
	c.files++
	return copyFile(s, d, info)
}

// dataDir says whether the directory below a package directory holds the
// package's data, copied, rather than code of its own, linked: testdata
// and directories that are neither a module, nor a package, nor hidden
// or ignored by the go command (.git, _build), nor vendor.
func dataDir(path, name string) bool {
	if name == "testdata" {
		return true
	}
	if name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
		return false
	}
	ents, err := os.ReadDir(path)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if e.Name() == "go.mod" || (!e.IsDir() && strings.HasSuffix(e.Name(), ".go")) {
			return false
		}
	}
	return true
}

func copyFile(src, dst string, info fs.FileInfo) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Chmod(dst, info.Mode().Perm()); err != nil {
		return err
	}
	return os.Chtimes(dst, info.ModTime(), info.ModTime())
}

// removeAllWritable removes dir, making its directories writable first (a
// copy of a read-only directory, or one a test made read-only).
func removeAllWritable(dir string) {
	if os.RemoveAll(dir) == nil {
		return
	}
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil && !errors.Is(err, fs.ErrPermission) {
			return nil
		}
		if d != nil && d.IsDir() {
			_ = os.Chmod(path, 0o700)
		}
		return nil
	})
	_ = os.RemoveAll(dir)
}

// privateTemp makes a temporary directory for one process and returns the
// environment entry that points TMPDIR (os.TempDir) at it and a function
// that removes it. Processes of one test run at once, and a test that
// names what it makes in os.TempDir by a constant or by the time
// (lumberjack's makeTempDir, to the millisecond of the virtual clock)
// found another process's there ("mkdir …: file exists"), which go test,
// running each test once, never does. The name is short: a Unix socket's
// path must stay under 108 bytes.
func privateTemp() (string, func(), error) {
	dir, err := os.MkdirTemp("", "il")
	if err != nil {
		return "", nil, err
	}
	return "TMPDIR=" + dir, func() { removeAllWritable(dir) }, nil
}
