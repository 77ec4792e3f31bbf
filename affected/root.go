// The repository root without running git.

package affected

import (
	"os"
	"path/filepath"
)

// RepoRoot is the top level of the git work tree holding dir: the nearest
// directory, dir or above, with a .git entry (a directory, or the file of
// a linked work tree or submodule). It is where report file names are
// relative to. Analyze asks git itself (rev-parse --show-toplevel), which
// also refuses bare repositories; RepoRoot serves the commands that read
// no history.
func RepoRoot(dir string) (string, bool) {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}
