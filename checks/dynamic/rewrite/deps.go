package rewrite

import (
	"context"
	"crypto/sha256"
	"fmt"
	"go/types"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"
)

// keepModules are dependency modules left as written: test frameworks
// whose own waiting (goleak's retry loop, testify's Eventually) the
// scheduler handles by handing control over while they wait, and
// interleave itself. The runtime knows them too: code there may wait for
// a real timer.
var keepModules = rt.RealClockModules

// timeOnlyModules are dependency modules whose time operations only are
// rewritten, even with Options.DepSync: testify, whose Eventually and
// Never tick on the virtual clock then (as under testing/synctest), while
// its goroutine and select stay as written.
var timeOnlyModules = []string{"github.com/stretchr/testify"}

func timeOnlyModule(path string) bool {
	for _, m := range timeOnlyModules {
		if path == m || strings.HasPrefix(path, m+"/") {
			return true
		}
	}
	return false
}

// viewModules are kept modules whose views of goroutines (viewOp) are
// rewritten all the same: a leak checker's dump of every goroutine then
// leaves out the scheduler's own, whatever its version (goleak before
// v1.3 has no option to ignore them).
var viewModules = []string{"go.uber.org/goleak"}

func viewModule(path string) bool {
	for _, m := range viewModules {
		if path == m || strings.HasPrefix(path, m+"/") {
			return true
		}
	}
	return false
}

func keptModule(path string) bool {
	for _, m := range keepModules {
		if path == m || strings.HasPrefix(path, m+"/") {
			return true
		}
	}
	return false
}

// DepModule says what the rewrite did to one dependency module.
type DepModule struct {
	Path    string // module path
	Version string // "" for a replacement directory
	Files   int    // files rewritten
	// Kept says why the module is left as written, or "".
	Kept string
	// Synced lists its packages whose synchronization (goroutines, locks,
	// channels) was rewritten too, not only their time operations: all
	// with Options.DepSync, else those that hand goroutines to their
	// caller (hostsGoroutines).
	Synced []string
	// Dir is the copy the build uses instead of the module cache's (an
	// alternate go.mod replaces the module with it), or "". Copies are
	// kept under the user cache directory (interleave/deps), named by
	// the hash of their content.
	Dir string
}

// change is a rewritten file: its original name and new content.
type change struct {
	name string
	out  []byte
}

// depCopy returns a directory holding the module at dir with the changes
// applied. It lives in the user cache directory, named by the hash of the
// module and the changes, so that the next run finds it (and the build
// cache finds its compiled packages, which a new directory would defeat);
// without a cache directory it is made under tmp.
func depCopy(dir, tmp string, m *DepModule, cs []change) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s@%s\n", m.Path, m.Version)
	for _, c := range cs {
		rel, err := filepath.Rel(dir, c.name)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(c.out))
		h.Write(c.out)
	}
	name := fmt.Sprintf("%x", h.Sum(nil))[:24]
	root := filepath.Join(tmp, "deps")
	if cache, err := os.UserCacheDir(); err == nil {
		root = filepath.Join(cache, "interleave", "deps")
	}
	final := filepath.Join(root, name, filepath.FromSlash(m.Path)+"@"+m.Version)
	if _, err := os.Stat(filepath.Join(final, ".interleave-complete")); err == nil {
		return final, nil
	}
	err := writeDir(root, final, func(dst string) error {
		if err := linkTree(dir, dst); err != nil {
			return err
		}
		for _, c := range cs {
			rel, _ := filepath.Rel(dir, c.name)
			to := filepath.Join(dst, rel)
			os.Remove(to) // a hard link into the module cache
			if err := writeFile(to, c.out); err != nil {
				return err
			}
		}
		if _, err := os.Stat(filepath.Join(dst, "go.mod")); os.IsNotExist(err) {
			// The module cache keeps a module that never had a go.mod
			// without one; a replacement directory needs it.
			if err := os.WriteFile(filepath.Join(dst, "go.mod"), []byte("module "+m.Path+"\n"), 0o644); err != nil {
				return err
			}
		}
		return os.WriteFile(filepath.Join(dst, ".interleave-complete"), nil, 0o644)
	})
	if err != nil {
		return "", err
	}
	return final, nil
}

// goEnv is `go env name` in dir, or "".
func goEnv(ctx context.Context, dir, name string) string {
	cmd := exec.CommandContext(ctx, "go", "env", name)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// linkTree recreates the files of src under dst as hard links (copies
// across file systems).
func linkTree(src, dst string) error {
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if os.Link(path, to) == nil {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		return err
	}
	return nil
}

// writeModFile writes an alternate go.mod (and go.sum) for the main module
// that replaces each module of replaced with its copy and, when
// sharedRT, requires the runtime at res.RuntimeDir as module rtModPath; it
// sets res.ModFile (instrument adds -modfile to the test flags).
func writeModFile(res *Result, tmp string, replaced []*DepModule, sharedRT bool) error {
	gomod := filepath.Join(res.ModuleRoot, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		return err
	}
	f, err := modfile.Parse(gomod, data, nil)
	if err != nil {
		return fmt.Errorf("rewrite: %w", err)
	}
	for _, m := range replaced {
		if err := f.AddReplace(m.Path, m.Version, m.Dir, ""); err != nil {
			return fmt.Errorf("rewrite: replacing %s: %w", m.Path, err)
		}
	}
	if sharedRT {
		if err := f.AddRequire(rtModPath, "v0.0.0"); err != nil {
			return fmt.Errorf("rewrite: requiring the runtime: %w", err)
		}
		if err := f.AddReplace(rtModPath, "", res.RuntimeDir, ""); err != nil {
			return fmt.Errorf("rewrite: replacing the runtime: %w", err)
		}
	}
	f.Cleanup()
	out, err := f.Format()
	if err != nil {
		return err
	}
	res.ModFile = filepath.Join(tmp, "interleave.mod")
	if err := os.WriteFile(res.ModFile, out, 0o644); err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(res.ModuleRoot, "go.sum"))
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	return os.WriteFile(filepath.Join(tmp, "interleave.sum"), sum, 0o644)
}

// timeOp reports whether fn is one of the operations on time that a
// dependency's rewrite routes to the virtual clock: the time package's
// functions and Timer and Ticker methods in funcs and methods, and
// context.WithTimeout, WithDeadline and their Cause forms; or a math/rand draw (randFuncs),
// which a replay must repeat too; or runtime.Gosched, a yield the scheduler
// must see (facebookgo/clock's mock yields there so that the goroutine its
// timer woke reads the clock before Add moves it on).
func timeOp(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "time":
		if fn.Type().(*types.Signature).Recv() == nil {
			_, ok := funcs["time."+fn.Name()]
			return ok
		}
		_, ok := methods[fn.Origin().FullName()]
		return ok
	case "context":
		switch fn.Name() {
		case "WithTimeout", "WithDeadline", "WithTimeoutCause", "WithDeadlineCause":
			return true
		}
		return false
	case "math/rand", "math/rand/v2":
		_, ok := randFuncs[fn.Pkg().Path()+"."+fn.Name()]
		return ok
	case "runtime":
		return fn.Name() == "Gosched"
	}
	return false
}

// rewriteDeps rewrites the time operations of every package from another
// module (the module cache, a replacement directory or vendor/) that the
// test binaries link, so that timers and clocks created inside
// dependencies (a scheduling library's clock, a cache's expiry timer) run
// on the virtual clock the test's own sleeps run on. Unless sync is set,
// their other synchronization stays as written, except in packages that
// hand goroutines to their caller (hostsGoroutines): a goroutine that
// waits there is handled by the scheduler as code outside its control. The
// standard library and keepModules are left alone.
//
// It returns the modules copied out of the module cache, which the
// alternate go.mod (writeModFile) must replace with their copies.
func rewriteDeps(ctx context.Context, pkgs []*packages.Package, rtImport, tmp string, replace map[string]string, res *Result, sync bool) ([]*DepModule, error) {
	mods := map[string]*DepModule{}
	var deps []*packages.Package
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Module == nil || p.Module.Path == res.ModulePath {
			return
		}
		m := mods[p.Module.Path]
		if m == nil {
			m = &DepModule{Path: p.Module.Path, Version: p.Module.Version}
			if viewModule(m.Path) {
				m.Kept = "test framework: left as written but for its goroutine dumps (runtime.Stack, NumGoroutine)"
			} else if keptModule(m.Path) {
				m.Kept = "test framework: left as written"
			}
			mods[p.Module.Path] = m
		}
		if m.Kept == "" || viewModule(m.Path) {
			deps = append(deps, p)
		}
	})
	sort.Slice(deps, func(i, j int) bool { return deps[i].ID < deps[j].ID })
	// The go command refuses overlays of files in the module cache: a
	// module there whose files change is copied (hard links where it
	// can) to a directory that an alternate go.mod (-modfile) replaces it
	// with, and its rewritten files are written into the copy.
	modCache := goEnv(ctx, res.ModuleRoot, "GOMODCACHE")
	changes := map[*DepModule][]change{}
	dirs := map[*DepModule]string{}
	done := map[string]bool{}
	synced := map[string]bool{} // by package path: decided once
	syncPkg := func(p *packages.Package) bool {
		if ok, seen := synced[p.PkgPath]; seen {
			return ok
		}
		m := mods[p.Module.Path]
		ok := !timeOnlyModule(m.Path) && (sync || hostsGoroutines(p))
		synced[p.PkgPath] = ok
		if ok {
			m.Synced = append(m.Synced, p.PkgPath)
		}
		return ok
	}
	for _, p := range deps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m := mods[p.Module.Path]
		if len(p.TypeErrors) > 0 || p.TypesInfo == nil {
			// go/types here may be older than the module's Go: without
			// complete type information the rewrite could be wrong.
			res.DepWarnings = append(res.DepWarnings, p.PkgPath+": not rewritten: it does not type-check with interleave's go/types")
			continue
		}
		src := map[string]bool{}
		for _, name := range p.GoFiles {
			src[name] = true
		}
		for _, f := range p.Syntax {
			name := fileName(p, f)
			if !src[name] || done[name] {
				continue // cgo-generated, or seen through a test variant
			}
			done[name] = true
			data, err := os.ReadFile(name)
			if err != nil {
				return nil, err
			}
			var out []byte
			var warns []string
			var changed bool
			if m.Kept != "" {
				out, warns, changed, err = rewriteFileOnly(p, f, data, rtImport, false, true)
			} else {
				out, warns, changed, err = rewriteFileMode(p, f, data, rtImport, !syncPkg(p))
			}
			res.DepWarnings = append(res.DepWarnings, warns...)
			if err != nil {
				res.DepWarnings = append(res.DepWarnings, fmt.Sprintf("%s: not rewritten: %v", name, err))
				continue
			}
			if changed {
				changes[m] = append(changes[m], change{name, out})
				dirs[m] = p.Module.Dir
			}
		}
	}
	var replaced []*DepModule
	for m, cs := range changes {
		dir := dirs[m]
		if modCache == "" || dir == "" || !inModuleTree(modCache, dir) {
			// A replacement directory or vendor/: overlay the files.
			for _, c := range cs {
				dst := filepath.Join(tmp, "deps", "overlay", fmt.Sprintf("%d", len(res.DepFiles)), filepath.Base(c.name))
				if err := writeFile(dst, c.out); err != nil {
					return nil, err
				}
				replace[c.name] = dst
				res.DepFiles[c.name] = dst
				m.Files++
			}
			continue
		}
		copyDir, err := depCopy(dir, tmp, m, cs)
		if err != nil {
			return nil, fmt.Errorf("rewrite: copying %s@%s: %w", m.Path, m.Version, err)
		}
		for _, c := range cs {
			rel, _ := filepath.Rel(dir, c.name)
			res.DepFiles[c.name] = filepath.Join(copyDir, rel)
			m.Files++
		}
		m.Dir = copyDir
		replaced = append(replaced, m)
	}
	for _, m := range mods {
		res.Deps = append(res.Deps, *m)
	}
	sort.Slice(res.Deps, func(i, j int) bool { return res.Deps[i].Path < res.Deps[j].Path })
	sort.Strings(res.DepWarnings)
	sort.Slice(replaced, func(i, j int) bool { return replaced[i].Path < replaced[j].Path })
	return replaced, nil
}

// DepSummary says in one line what the rewrite did to dependencies, for a
// progress message: "rewrote 3 files of 2 dependency modules
// (example.com/a, example.com/b)", or "" when it did nothing.
func (r *Result) DepSummary() string {
	files := 0
	var mods []string
	for _, m := range r.Deps {
		if m.Files > 0 && m.Kept == "" {
			files += m.Files
			mods = append(mods, m.Path)
		}
	}
	if files == 0 {
		return ""
	}
	what := "time operations"
	if r.depSync {
		what = "synchronization"
	}
	list := strings.Join(mods, ", ")
	if len(mods) > 4 {
		list = strings.Join(mods[:4], ", ") + fmt.Sprintf(" and %d more", len(mods)-4)
	}
	out := fmt.Sprintf("rewrote the %s of %d files of %d dependency modules (%s)", what, files, len(mods), list)
	if !r.depSync {
		var hosts []string
		for _, m := range r.Deps {
			hosts = append(hosts, m.Synced...)
		}
		if len(hosts) > 0 {
			verb := "start"
			if len(hosts) == 1 {
				verb = "starts"
			}
			out += fmt.Sprintf("; all synchronization of %s, which %s goroutines running the caller's functions", strings.Join(hosts, ", "), verb)
		}
	}
	return out
}
