// Leaving out what the configuration says to: excluded packages, skipped tests, known failures.

package prjob

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/checks"
)

// FilterExcluded drops the findings in the excluded packages (patterns
// relative to modDir); file names are relative to root.
func FilterExcluded(fs []checks.Finding, modDir, root string, exclude []string) (kept []checks.Finding, note string) {
	if len(exclude) == 0 {
		return fs, ""
	}
	dropped := 0
	for _, f := range fs {
		if f.Pos.File != "" && matchPackages(modDir, exclude, AbsIn(root, f.Pos.File)) {
			dropped++
			continue
		}
		kept = append(kept, f)
	}
	if dropped == 0 {
		return kept, ""
	}
	return kept, fmt.Sprintf("%d %s in excluded packages (%s) not reported", dropped, checks.Plural(dropped, "finding"), strings.Join(exclude, " "))
}

// FilterTests drops the tests that skip matches or that lie in an
// excluded package; it says how many it dropped.
func FilterTests(tests []affected.Test, c *Config, modDir, modPath string) (kept []affected.Test, dropped int) {
	for _, t := range tests {
		dir := modDir
		if rest, ok := strings.CutPrefix(t.Package, modPath+"/"); ok {
			dir = filepath.Join(modDir, filepath.FromSlash(rest))
		}
		if c.Skip != nil && c.Skip.Skips(strings.Split(t.Name, "/")...) ||
			len(c.Exclude) > 0 && matchPackages(modDir, c.Exclude, filepath.Join(dir, "x_test.go")) {
			dropped++
			continue
		}
		kept = append(kept, t)
	}
	return kept, dropped
}

// Matches reports whether the finding is this known failure: it matches
// every field the entry gives. File names are relative to root, the
// entry's path to modDir.
func (ig *Ignore) Matches(f *checks.Finding, modDir, root string) bool {
	if ig.Rule != "" && ig.Rule != f.Rule || ig.Test != "" && ig.Test != f.Test {
		return false
	}
	if ig.Path != "" {
		if f.Pos.File == "" {
			return false
		}
		p := filepath.Join(modDir, filepath.FromSlash(ig.Path))
		file := AbsIn(root, f.Pos.File)
		if rel, err := filepath.Rel(p, file); err != nil || rel != "." && (rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))) {
			return false
		}
	}
	return true
}

// FilterIgnored drops the known failures; lines say, per entry that
// matched, how many findings it kept out and why.
func FilterIgnored(fs []checks.Finding, ignores []Ignore, modDir, root string) (kept []checks.Finding, lines []string) {
	if len(ignores) == 0 {
		return fs, nil
	}
	counts := make([]int, len(ignores))
	for _, f := range fs {
		hit := -1
		for i := range ignores {
			if ignores[i].Matches(&f, modDir, root) {
				hit = i
				break
			}
		}
		if hit < 0 {
			kept = append(kept, f)
			continue
		}
		counts[hit]++
	}
	for i, n := range counts {
		if n > 0 {
			lines = append(lines, fmt.Sprintf("%d %s kept out as a known failure (%s): %s", n, checks.Plural(n, "finding"), ignores[i].Where, ignores[i].Reason))
		}
	}
	return kept, lines
}
