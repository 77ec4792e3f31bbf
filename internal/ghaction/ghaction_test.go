package ghaction

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// repoRoot is the repository's top level, two directories up.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "action.yml")); err != nil {
		t.Fatalf("no action.yml at the repository root %s: %v", root, err)
	}
	return root
}

func TestWorkflowsLintClean(t *testing.T) {
	root := repoRoot(t)
	files, err := WorkflowFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		".github/workflows/ci.yml", ".github/workflows/self-test.yml",
		"docs/workflows/pull-request.yml", "docs/workflows/interleave-analyze.yml",
		"docs/workflows/interleave-post.yml", "docs/workflows/retest.yml",
	}
	have := map[string]bool{}
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		have[filepath.ToSlash(rel)] = true
	}
	for _, w := range want {
		if !have[w] {
			t.Errorf("workflow %s is missing", w)
		}
	}
	errs, err := Lint(root, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Errorf("actionlint: %s", e)
	}
	t.Logf("actionlint: %d files, %d errors", len(files), len(errs))
}

// fakeRepo writes files into a new directory that actionlint takes for a
// repository.
func fakeRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files[".git/HEAD"] = "ref: refs/heads/main\n"
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func lintMessages(t *testing.T, dir string, files ...string) string {
	t.Helper()
	var paths []string
	for _, f := range files {
		paths = append(paths, filepath.Join(dir, f))
	}
	errs, err := Lint(dir, paths)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range errs {
		b.WriteString(e.Error() + "\n")
	}
	return b.String()
}

// The linter really runs: expression injection into run: is reported.
func TestLintReportsInjection(t *testing.T) {
	dir := fakeRepo(t, map[string]string{".github/workflows/bad.yml": `name: bad
on:
  issue_comment:
    types: [created]
permissions:
  contents: read
jobs:
  echo:
    runs-on: ubuntu-latest
    steps:
      - run: echo "${{ github.event.comment.body }}"
`})
	msgs := lintMessages(t, dir, ".github/workflows/bad.yml")
	if !strings.Contains(msgs, `"github.event.comment.body" is potentially untrusted`) {
		t.Errorf("actionlint did not report the injection; got:\n%s", msgs)
	}
}

// A workflow that uses ./ has its inputs checked against action.yml.
func TestLintChecksActionInputs(t *testing.T) {
	action, err := os.ReadFile(filepath.Join(repoRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := fakeRepo(t, map[string]string{
		"action.yml": string(action),
		".github/workflows/use.yml": `name: use
on: pull_request
permissions:
  contents: read
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - uses: ./
        with:
          budgett: 5m
          fail-on: error
      - uses: ./
        with:
          working-directory: examples/bank
          enable: all
          race: "false"
`,
	})
	msgs := lintMessages(t, dir, ".github/workflows/use.yml")
	if !strings.Contains(msgs, `input "budgett" is not defined`) {
		t.Errorf("actionlint did not check the inputs against action.yml; got:\n%s", msgs)
	}
	if strings.Count(msgs, "\n") != 1 {
		t.Errorf("want exactly one error (the misspelt input); got:\n%s", msgs)
	}
}

func TestParseDockerfile(t *testing.T) {
	ins, err := ParseDockerfile(strings.NewReader(`# comment
ARG A=1
FROM x:1 AS build
RUN echo a \
  # inside
  b
FROM y:2
ENTRYPOINT ["p", "q"]
`))
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	for _, in := range ins {
		got += in.Cmd + "|" + in.Args + "|" + string(rune('0'+in.Line)) + "|" + string(rune('0'+in.Stage+1)) + "\n"
	}
	want := "ARG|A=1|2|0\nFROM|x:1 AS build|3|1\nRUN|echo a  b|4|1\nFROM|y:2|7|2\nENTRYPOINT|[\"p\", \"q\"]|8|2\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if _, err := ParseDockerfile(strings.NewReader("RUN a \\\n")); err == nil {
		t.Error("a dangling continuation was accepted")
	}
	if got := ExpandArgs(ins, 0, "v=${A} w=$B"); got != "v=1 w=${B}" {
		t.Errorf("ExpandArgs: got %q", got)
	}
}

func TestDockerIgnored(t *testing.T) {
	pats := []string{".git", "docs", "**/testdata", "*.sarif", "!keep.sarif"}
	for rel, want := range map[string]bool{
		".git/HEAD":                   true,
		"docs/github.md":              true,
		"checks/static/x/testdata/a":  true,
		"x.sarif":                     true,
		"keep.sarif":                  false,
		"cmd/interleave/main.go":      false,
		"checks/dynamic/rt/sched.go":  false,
		"documentation/not-docs.go":   false,
		"report/testdatabase/file.go": false,
	} {
		if got := DockerIgnored(pats, rel); got != want {
			t.Errorf("DockerIgnored(%q) = %v, want %v", rel, got, want)
		}
	}
}

var pinnedGo = regexp.MustCompile(`^golang:(\d+\.\d+\.\d+)-bookworm(@sha256:[0-9a-f]{64})?( AS \w+)?$`)

// TestDockerfileBuild checks the structure of the App's image (the
// Dockerfile) and repeats its build: the same go build command line, in a
// copy of the build context that honors .dockerignore, then runs the
// binary it produced. It is environment-bound and slow, so it runs only
// when INTERLEAVE_DOCKERFILE=1 (scripts/docker-build-check.sh sets it).
func TestDockerfileBuild(t *testing.T) {
	if os.Getenv("INTERLEAVE_DOCKERFILE") != "1" {
		t.Skip("set INTERLEAVE_DOCKERFILE=1 (scripts/docker-build-check.sh) to repeat the Dockerfile's build")
	}
	root := repoRoot(t)
	ins, err := ParseDockerfileFile(filepath.Join(root, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	final := -1
	for _, in := range ins {
		final = max(final, in.Stage)
	}
	if final < 1 {
		t.Fatalf("want a multi-stage Dockerfile, got %d stages", final+1)
	}
	var build, binDest, image, entrypoint, user string
	var toolchain bool
	for _, in := range ins {
		switch {
		case in.Cmd == "FROM":
			m := pinnedGo.FindStringSubmatch(in.Args)
			ref, _, _ := strings.Cut(in.Args, " ")
			if image != "" && ref != image {
				t.Errorf("line %d: FROM %s differs from the first stage's %s: build and run with one Go", in.Line, ref, image)
			}
			image = ref
			if m == nil {
				t.Errorf("line %d: FROM %s: want golang:X.Y.Z-bookworm (an exact version, optionally @sha256:...)", in.Line, in.Args)
			} else if versionLess(m[1], goModVersion(t, root)) {
				t.Errorf("line %d: image Go %s is older than go.mod's go %s", in.Line, m[1], goModVersion(t, root))
			}
		case in.Cmd == "RUN" && strings.Contains(in.Args, "go build"):
			build = ExpandArgs(ins, in.Stage, in.Args)
		case in.Cmd == "ENTRYPOINT" && in.Stage == final:
			entrypoint = in.Args
		case in.Cmd == "ENV" && in.Stage == final:
			toolchain = toolchain || in.Args == "GOTOOLCHAIN=auto"
		case in.Cmd == "USER" && in.Stage == final:
			user = in.Args
		case in.Cmd == "COPY" && in.Stage == final && strings.HasPrefix(in.Args, "--from=build "):
			binDest = in.Args
		}
	}
	// The image runs the App; the Action is composite and does not use it.
	var argv []string
	if err := json.Unmarshal([]byte(entrypoint), &argv); err != nil || len(argv) < 2 || argv[0] != "interleave" || argv[1] != "serve" {
		t.Errorf(`the final stage's ENTRYPOINT is %s, want ["interleave", "serve", ...]`, entrypoint)
	}
	if !toolchain {
		t.Error("the final stage does not set ENV GOTOOLCHAIN=auto")
	}
	if user == "" || user == "root" || user == "0" {
		t.Errorf("the final stage runs as %q: pull requests' tests must not run as root", user)
	}
	if binDest != "--from=build /out/interleave /usr/local/bin/interleave" {
		t.Errorf("the final stage copies %q, want the build's /out/interleave to /usr/local/bin/interleave", binDest)
	}
	for _, want := range []string{"CGO_ENABLED=0 go build", "-trimpath", "-o /out/interleave", " ./cmd/interleave"} {
		if !strings.Contains(build, want) {
			t.Errorf("the build RUN line %q lacks %q", build, want)
		}
	}
	if t.Failed() {
		return
	}

	// The build context as Docker would send it.
	ignore, err := ReadDockerignore(filepath.Join(root, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	src := filepath.Join(tmp, "src")
	copied := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if rel == "." {
			return nil
		}
		if DockerIgnored(ignore, filepath.ToSlash(rel)) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		copied++
		dst := filepath.Join(src, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}

	cmdline := strings.ReplaceAll(build, "/out/", filepath.Join(tmp, "out")+"/")
	ctx := context.Background()
	start := time.Now()
	cmd := exec.CommandContext(ctx, "sh", "-c", cmdline)
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s (in a context of %d files): %v\n%s", cmdline, copied, err, out)
	}
	t.Logf("built in %v from %d files: %s", time.Since(start).Round(time.Millisecond), copied, cmdline)
	bin := filepath.Join(tmp, "out", "interleave")

	if f, err := elf.Open(bin); err == nil {
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Error("the binary is dynamically linked; CGO_ENABLED=0 should make it static")
			}
		}
		f.Close()
	}

	run := func(env []string, args ...string) (int, string, string) {
		c := exec.CommandContext(ctx, bin, args...)
		c.Dir = tmp
		c.Env = env
		var stdout, stderr bytes.Buffer
		c.Stdout, c.Stderr = &stdout, &stderr
		err := c.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, stdout.String(), stderr.String()
	}
	base := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + tmp}
	if code, out, errs := run(base, "version"); code != 0 || !strings.HasPrefix(out, "interleave devel go") {
		t.Errorf("interleave version: exit %d, %q %q", code, out, errs)
	}
	// The entrypoint without the App's id and key: a clear message, exit 2.
	code, _, errs := run(base, argv[1:]...)
	if code != 2 || !strings.Contains(errs, "-app-id is required") {
		t.Errorf("%s: exit %d, stderr:\n%s", entrypoint, code, errs)
	}
}

func goModVersion(t *testing.T, root string) string {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\d+\.\d+(?:\.\d+)?)\s*$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("go.mod has no go directive")
	}
	return string(m[1])
}

// versionLess compares dotted numeric versions.
func versionLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(as), len(bs)); i++ {
		var x, y int
		if i < len(as) {
			x = atoi(as[i])
		}
		if i < len(bs) {
			y = atoi(bs[i])
		}
		if x != y {
			return x < y
		}
	}
	return false
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}
