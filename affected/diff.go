package affected

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/interleave-dev/interleave/affected/diff"
)

// WorkTree as Options.Head compares the base with the working tree
// (tracked files as they are on disk, plus untracked files not ignored)
// instead of a commit. ':' cannot appear in a ref name, so no ref is
// shadowed.
const WorkTree = ":worktree"

// Empty as Options.Base compares head with an empty tree: every file of the
// Go module is new, so the whole module is analyzed as one change. It suits a
// first run on a repository and the bundled example.
const Empty = ":empty"

// git runs git in a repository and keeps its stderr for error messages.
type git struct {
	dir string // repository top level (or the start directory before it is known)
}

// gitError is a failed git command with git's own words.
type gitError struct {
	args   []string
	stderr string
	err    error
}

func (e *gitError) Error() string {
	msg := strings.TrimSpace(e.stderr)
	if msg == "" {
		msg = e.err.Error()
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.args, " "), msg)
}

func (e *gitError) Unwrap() error { return e.err }

// run runs git with args and returns its stdout.
func (g *git) run(ctx context.Context, args ...string) ([]byte, error) {
	return g.runInput(ctx, nil, args...)
}

func (g *git) runInput(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	// Neutralize user configuration that changes the output format.
	full := append([]string{
		"-c", "core.quotepath=on",
		"-c", "diff.noprefix=false",
		"-c", "diff.mnemonicPrefix=false",
		"-c", "diff.relative=false",
		"-c", "color.ui=never",
	}, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Dir = g.dir
	cmd.Stdin = stdin
	// Never prompt for credentials or open a pager or an editor.
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "PAGER=cat", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, errors.New("git is not installed or not in PATH")
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &gitError{args: args, stderr: stderr.String(), err: err}
	}
	return stdout.Bytes(), nil
}

func (g *git) line(ctx context.Context, args ...string) (string, error) {
	out, err := g.run(ctx, args...)
	return strings.TrimSpace(string(out)), err
}

// openRepo finds the repository that contains dir.
func openRepo(ctx context.Context, dir string) (*git, error) {
	if fi, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("directory %s: %w", dir, err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	g := &git{dir: dir}
	top, err := g.line(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		var ge *gitError
		if errors.As(err, &ge) && strings.Contains(ge.stderr, "not a git repository") {
			return nil, fmt.Errorf("%s is not in a git repository: interleave pr compares two commits of one", dir)
		}
		return nil, err
	}
	if top == "" {
		return nil, fmt.Errorf("%s is inside a bare git repository or a .git directory: run in a work tree", dir)
	}
	g.dir = top
	return g, nil
}

// shallow reports whether the repository is a shallow clone.
func (g *git) shallow(ctx context.Context) bool {
	s, err := g.line(ctx, "rev-parse", "--is-shallow-repository")
	return err == nil && s == "true"
}

const shallowHint = "this is a shallow clone: fetch more history with `git fetch --deepen=100` (or `git fetch --unshallow`), or check out with `fetch-depth: 0` in actions/checkout"

// resolve returns the commit a ref names, with a clear error for an unknown
// ref.
func (g *git) resolve(ctx context.Context, what, ref string) (string, error) {
	if ref == "" {
		return "", fmt.Errorf("no %s ref given", what)
	}
	if strings.HasPrefix(ref, "-") {
		return "", fmt.Errorf("%s ref %q starts with '-'", what, ref)
	}
	sha, err := g.line(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if err == nil && sha != "" {
		return sha, nil
	}
	var ge *gitError
	if err != nil && !errors.As(err, &ge) {
		return "", err // git missing, context cancelled
	}
	msg := fmt.Sprintf("unknown %s ref %q: no such commit, branch or tag in %s", what, ref, g.dir)
	if g.shallow(ctx) {
		msg += "; " + shallowHint
	}
	if remote, branch, ok := strings.Cut(ref, "/"); ok && !strings.Contains(branch, "..") {
		if _, err := g.line(ctx, "remote", "get-url", "--", remote); err == nil {
			msg += fmt.Sprintf("; if the branch exists on the remote, run `git fetch %s %s` first", remote, branch)
		}
	}
	return "", errors.New(msg)
}

// emptyTree returns the ID of the empty tree in this repository's object
// format (SHA-1 or SHA-256).
func (g *git) emptyTree(ctx context.Context) (string, error) {
	out, err := g.runInput(ctx, strings.NewReader(""), "hash-object", "-t", "tree", "--stdin")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// mergeBase returns the best common ancestor of base and head.
func (g *git) mergeBase(ctx context.Context, base, head string) (string, error) {
	mb, err := g.line(ctx, "merge-base", base, head)
	if err == nil && mb != "" {
		return mb, nil
	}
	var ge *gitError
	if err != nil && !errors.As(err, &ge) {
		return "", err
	}
	if g.shallow(ctx) {
		return "", fmt.Errorf("no merge base of %.12s and %.12s in the fetched history; %s", base, head, shallowHint)
	}
	return "", fmt.Errorf("commits %.12s and %.12s have no common ancestor (unrelated histories): choose a base on the same history", base, head)
}

// diff runs git diff between the merge base and head (a commit, or the
// work tree when head is empty) with no context lines, and parses it.
// Paths, when given, limit the diff to those pathspecs (relative to the
// repository top level).
func (g *git) diff(ctx context.Context, mergeBase, head string, paths ...string) ([]*diff.File, error) {
	args := []string{"diff", "--no-color", "--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/",
		"--unified=0", "-M", "--end-of-options", mergeBase}
	if head != "" {
		args = append(args, head)
	}
	if len(paths) > 0 {
		args = append(args, "--")
		args = append(args, paths...)
	}
	out, err := g.run(ctx, args...)
	if err != nil {
		return nil, err
	}
	files, err := diff.ParseBytes(out)
	if err != nil {
		return nil, fmt.Errorf("parse git diff: %w", err)
	}
	return files, nil
}

// untracked lists files in the work tree that git does not track and does
// not ignore; in work-tree mode they are part of the change.
func (g *git) untracked(ctx context.Context) ([]string, error) {
	out, err := g.run(ctx, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, n := range bytes.Split(out, []byte{0}) {
		if len(n) > 0 {
			names = append(names, string(n))
		}
	}
	return names, nil
}

// contents reads the given paths at commit (or from the work tree when
// commit is empty). Missing files are absent from the result. One git
// process serves every path.
func (g *git) contents(ctx context.Context, commit string, paths []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(paths))
	if len(paths) == 0 {
		return out, nil
	}
	if commit == "" {
		for _, p := range paths {
			b, err := os.ReadFile(filepath.Join(g.dir, filepath.FromSlash(p)))
			if err == nil {
				out[p] = b
			}
		}
		return out, nil
	}
	var in bytes.Buffer
	for _, p := range paths {
		if strings.ContainsAny(p, "\n") {
			continue // cat-file --batch reads one name per line
		}
		fmt.Fprintf(&in, "%s:%s\n", commit, p)
	}
	raw, err := g.runInput(ctx, &in, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(bytes.NewReader(raw))
	for _, p := range paths {
		if strings.ContainsAny(p, "\n") {
			continue
		}
		hdr, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file: short output at %s", p)
		}
		// "<sha> <type> <size>" or "<name> missing".
		fs := strings.Fields(hdr)
		if len(fs) != 3 {
			continue
		}
		size, err := strconv.Atoi(fs[2])
		if err != nil {
			return nil, fmt.Errorf("git cat-file: bad header %q", hdr)
		}
		b := make([]byte, size+1) // content and a newline
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, fmt.Errorf("git cat-file: short content for %s", p)
		}
		if fs[1] == "blob" {
			out[p] = b[:size]
		}
	}
	return out, nil
}
