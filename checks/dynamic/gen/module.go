// The user's module: its packages loaded, and the copy the generated tests are added to.

package gen

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/interleave-dev/interleave/checks/dynamic/internal/stdsyntax"
)

// load type-checks the patterns, built with tags, and returns them with
// the module root.
func load(ctx context.Context, dir string, patterns []string, tags ...string) ([]*packages.Package, string, error) {
	cfg := &packages.Config{
		Context:    ctx,
		Dir:        dir,
		BuildFlags: tagFlags(tags),
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes |
			packages.NeedTypesInfo | packages.NeedModule | packages.NeedImports | packages.NeedDeps,
		ParseFile: stdsyntax.ParseFile(goroot(ctx, dir)),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, "", fmt.Errorf("load %s: %w", strings.Join(patterns, " "), err)
	}
	var errs []string
	root := ""
	for _, p := range pkgs {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
		if p.Module == nil {
			errs = append(errs, p.PkgPath+": not in a module")
			continue
		}
		if root == "" {
			root = p.Module.Dir
		} else if root != p.Module.Dir {
			errs = append(errs, fmt.Sprintf("%s is in module %s, not %s: run gen on one module at a time", p.PkgPath, p.Module.Dir, root))
		}
	}
	if len(errs) > 0 {
		if len(errs) > 10 {
			errs = append(errs[:10], fmt.Sprintf("and %d more", len(errs)-10))
		}
		return nil, "", fmt.Errorf("load %s:\n%s", strings.Join(patterns, " "), strings.Join(errs, "\n"))
	}
	if len(pkgs) == 0 || root == "" {
		return nil, "", fmt.Errorf("no packages match %s", strings.Join(patterns, " "))
	}
	return pkgs, root, nil
}

// goroot is the go command's GOROOT in dir, or "" when go env fails.
func goroot(ctx context.Context, dir string) string {
	cmd := exec.CommandContext(ctx, "go", "env", "GOROOT")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// tagFlags is the go command's flag for build tags, if any.
func tagFlags(tags []string) []string {
	if len(tags) == 0 {
		return nil
	}
	return []string{"-tags=" + strings.Join(tags, ",")}
}

func pkgDir(p *packages.Package) string {
	if len(p.GoFiles) > 0 {
		return filepath.Dir(p.GoFiles[0])
	}
	return p.Dir
}

// fileStamp is what treeStamps keeps of a file.
type fileStamp struct {
	size    int64
	modTime time.Time
}

// treeStamps is the size and modification time of every file copyTree
// copies from root, by path relative to it.
func treeStamps(root string) (map[string]fileStamp, error) {
	out := map[string]fileStamp{}
	err := walkCopied(root, func(rel string, d fs.DirEntry) error {
		if d.IsDir() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[rel] = fileStamp{fi.Size(), fi.ModTime()}
		return nil
	})
	return out, err
}

// unchanged reports whether the user's module has the files it had when
// copied, by size and modification time, gen's own output (schedules,
// tests) left out wherever it is written.
func (r *run) unchanged() bool {
	now, err := treeStamps(r.modRoot)
	if err != nil || r.stamps == nil {
		return false
	}
	mine := func(rel string, _ fileStamp) bool {
		path := filepath.Join(r.modRoot, rel)
		for _, dir := range []string{r.opts.SchedulesDir, r.opts.TestsDir} {
			if in, err := filepath.Rel(dir, path); dir != "" && err == nil && !strings.HasPrefix(in, "..") {
				return true
			}
		}
		return false
	}
	was := maps.Clone(r.stamps)
	maps.DeleteFunc(was, mine)
	maps.DeleteFunc(now, mine)
	return maps.Equal(now, was)
}

// walkCopied calls fn for each directory and regular file under src that
// copyTree copies, leaving out version control and interleave's own
// output.
func walkCopied(src string, fn func(rel string, d fs.DirEntry) error) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() && rel != "." && (d.Name() == ".git" || d.Name() == ".interleave" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && !d.Type().IsRegular() {
			return nil
		}
		return fn(rel, d)
	})
}

// copyTree copies the module at src to dst, leaving out version control and
// interleave's own output.
func copyTree(src, dst string) error {
	return walkCopied(src, func(rel string, d fs.DirEntry) error {
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		in, err := os.Open(filepath.Join(src, rel))
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(filepath.Join(dst, rel), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}
