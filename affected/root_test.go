package affected

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRepoRoot(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	sub := filepath.Join(repo, "a", "b")
	wt := filepath.Join(top, "wt")
	for _, d := range []string{filepath.Join(repo, ".git"), sub, filepath.Join(wt, "c")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A linked work tree has a .git file.
	if err := os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ dir, want string }{
		{repo, repo}, {sub, repo}, {filepath.Join(wt, "c"), wt},
	} {
		if got, ok := RepoRoot(tt.dir); !ok || got != tt.want {
			t.Errorf("RepoRoot(%s) = %q, %v; want %q", tt.dir, got, ok, tt.want)
		}
	}
	if got, ok := RepoRoot(filepath.Join(top, "none")); ok && got != "" && got != "/" {
		// Outside any repository (unless the temporary directory is in one).
		if r, _ := filepath.Rel(got, top); r == "." {
			t.Errorf("RepoRoot outside a repository = %q", got)
		}
	}
}
