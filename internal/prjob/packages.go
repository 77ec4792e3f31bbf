// Keeping only the findings in the selected packages (Config.Packages).

package prjob

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/interleave-dev/interleave/checks"
)

// FilterPackages keeps the findings whose file lies in a package the
// patterns (relative to dir) select; file names are relative to root.
// A finding with no file is kept. note says how many were dropped, or is
// "" when none was.
func FilterPackages(fs []checks.Finding, dir, root string, patterns []string) (kept []checks.Finding, note string) {
	if len(patterns) == 0 {
		return fs, ""
	}
	dropped := 0
	for _, f := range fs {
		if f.Pos.File == "" || matchPackages(dir, patterns, AbsIn(root, f.Pos.File)) {
			kept = append(kept, f)
		} else {
			dropped++
		}
	}
	if dropped == 0 {
		return kept, ""
	}
	return kept, fmt.Sprintf("%d %s outside the packages input (%s) not reported", dropped, checks.Plural(dropped, "finding"), strings.Join(patterns, " "))
}

// matchPackages reports whether file is in a package the patterns
// (relative to dir) select.
func matchPackages(dir string, patterns []string, file string) bool {
	fileDir := filepath.Dir(file)
	for _, p := range patterns {
		rest, recursive := strings.CutSuffix(p, "/...")
		pdir := AbsIn(dir, rest)
		if fileDir == pdir {
			return true
		}
		if rel, err := filepath.Rel(pdir, fileDir); recursive && err == nil && !strings.HasPrefix(rel, "..") {
			return true
		}
	}
	return false
}

// InPackages reports whether file is in a package the patterns (., ./dir,
// ./dir/..., relative to dir) select.
func InPackages(dir string, patterns []string, file string) bool {
	return matchPackages(dir, patterns, file)
}
