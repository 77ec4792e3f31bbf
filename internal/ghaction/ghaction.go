// Package ghaction checks the GitHub side of the repository without GitHub:
// it lints the workflows and the action with actionlint, and reads the
// Dockerfile so its build can be repeated without a Docker engine.
package ghaction

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rhysd/actionlint"
)

// WorkflowFiles lists the workflows actionlint checks: this repository's
// (.github/workflows) and the examples users copy (docs/workflows).
func WorkflowFiles(root string) ([]string, error) {
	var files []string
	for _, dir := range []string{".github/workflows", "docs/workflows"} {
		for _, ext := range []string{"*.yml", "*.yaml"} {
			m, err := filepath.Glob(filepath.Join(root, dir, ext))
			if err != nil {
				return nil, err
			}
			files = append(files, m...)
		}
	}
	sort.Strings(files)
	return files, nil
}

// Lint runs actionlint on files of the repository at root. A workflow that
// uses "./" makes actionlint check action.yml's inputs too. shellcheck and
// pyflakes are not run (they are external programs).
func Lint(root string, files []string) ([]*actionlint.Error, error) {
	l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{WorkingDir: root, LogWriter: io.Discard})
	if err != nil {
		return nil, err
	}
	p, err := actionlint.NewProject(root)
	if err != nil {
		return nil, err
	}
	return l.LintFiles(files, p)
}

// Instruction is one Dockerfile instruction, continuation lines joined.
type Instruction struct {
	Cmd   string // upper case: FROM, RUN, ENV, ...
	Args  string
	Line  int
	Stage int // index of the FROM that starts its stage, 0-based; -1 before any FROM
}

// ParseDockerfile reads the instructions of a Dockerfile: comments and
// blank lines dropped, lines ending in a backslash joined. It knows the
// syntax this repository uses, not heredocs or parser directives.
func ParseDockerfile(r io.Reader) ([]Instruction, error) {
	var out []Instruction
	sc := bufio.NewScanner(r)
	stage, n := -1, 0
	var cur strings.Builder
	start := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if cur.Len() == 0 && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		if cur.Len() > 0 && strings.HasPrefix(line, "#") {
			continue // a comment inside a continued instruction
		}
		if cur.Len() == 0 {
			start = n
		}
		if cont, ok := strings.CutSuffix(line, `\`); ok {
			cur.WriteString(cont)
			cur.WriteString(" ")
			continue
		}
		cur.WriteString(line)
		text := cur.String()
		cur.Reset()
		cmd, args, _ := strings.Cut(text, " ")
		cmd = strings.ToUpper(cmd)
		if cmd == "FROM" {
			stage++
		}
		out = append(out, Instruction{Cmd: cmd, Args: strings.TrimSpace(args), Line: start, Stage: stage})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if cur.Len() > 0 {
		return nil, fmt.Errorf("line %d: the last instruction ends with a line continuation", start)
	}
	return out, nil
}

// ParseDockerfileFile is ParseDockerfile on a file.
func ParseDockerfileFile(name string) ([]Instruction, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ins, err := ParseDockerfile(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return ins, nil
}

// ExpandArgs replaces ${NAME} and $NAME in s with the ARG defaults declared
// in stage (or before the first FROM); unknown names are left as they are.
func ExpandArgs(ins []Instruction, stage int, s string) string {
	vals := map[string]string{}
	for _, in := range ins {
		if in.Cmd != "ARG" || (in.Stage != stage && in.Stage != -1) {
			continue
		}
		if name, def, ok := strings.Cut(in.Args, "="); ok {
			vals[name] = strings.Trim(def, `"`)
		}
	}
	return os.Expand(s, func(name string) string {
		if v, ok := vals[name]; ok {
			return v
		}
		return "${" + name + "}"
	})
}

// DockerIgnored reports whether the .dockerignore patterns exclude rel (a
// slash-separated path relative to the build context). It supports the
// forms this repository uses: exact names, globs, a leading **/ and !
// exceptions; a directory's exclusion covers everything under it.
func DockerIgnored(patterns []string, rel string) bool {
	ignored := false
	for _, p := range patterns {
		neg := strings.HasPrefix(p, "!")
		p = strings.TrimPrefix(strings.TrimPrefix(p, "!"), "/")
		if dockerMatch(p, rel) {
			ignored = !neg
		}
	}
	return ignored
}

func dockerMatch(pattern, rel string) bool {
	parts := strings.Split(rel, "/")
	if rest, ok := strings.CutPrefix(pattern, "**/"); ok {
		for i := range parts {
			if dockerMatch(rest, strings.Join(parts[i:], "/")) {
				return true
			}
		}
		return false
	}
	// rel or one of its parent directories matches.
	for i := 1; i <= len(parts); i++ {
		if ok, _ := filepath.Match(pattern, strings.Join(parts[:i], "/")); ok {
			return true
		}
	}
	return false
}

// ReadDockerignore reads the patterns of a .dockerignore file.
func ReadDockerignore(name string) ([]string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out, nil
}
