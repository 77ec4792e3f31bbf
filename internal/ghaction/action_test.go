package ghaction

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/internal/prjob"
)

func readRepoAction(t *testing.T) *Action {
	t.Helper()
	a, err := ReadAction(filepath.Join(repoRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// action.yml's defaults are the ones interleave pr and serve use.
func TestActionDefaultsShared(t *testing.T) {
	a := readRepoAction(t)
	get := func(name string) string {
		in, ok := a.Input(name)
		if !ok {
			t.Fatalf("action.yml has no input %s", name)
		}
		return in.Default
	}
	// budget and gen-budget default to empty, so that .interleave.yaml's
	// apply unless given; empty is prjob.DefaultBudget, said in the text.
	for _, name := range []string{"budget", "gen-budget"} {
		in, _ := a.Input(name)
		if in.Default != "" || !strings.Contains(in.Description, ".interleave.yaml") {
			t.Errorf("input %s: default %q, want empty, falling back on .interleave.yaml in its description", name, in.Default)
		}
	}
	if in, _ := a.Input("budget"); !strings.Contains(in.Description, "else "+strings.TrimSuffix(prjob.DefaultBudget.String(), "0s")) {
		t.Errorf("input budget: the description does not give the default %v: %q", prjob.DefaultBudget, in.Description)
	}
	if got := get("fail-on"); got != prjob.DefaultFailOn {
		t.Errorf("input fail-on: default %q, want %q (prjob.DefaultFailOn)", got, prjob.DefaultFailOn)
	}
	if got := get("scope"); got != prjob.DefaultScope {
		t.Errorf("input scope: default %q, want %q (prjob.DefaultScope)", got, prjob.DefaultScope)
	}
	if got := get("race"); got != map[bool]string{true: "true", false: "false"}[prjob.DefaultRace] {
		t.Errorf("input race: default %q, want %v (prjob.DefaultRace)", got, prjob.DefaultRace)
	}
}

// The action is a composite one whose scripts see no ${{ }} expressions
// (they reach them through env:, so no input can inject shell code), and
// whose third-party actions are pinned by commit SHA.
func TestActionComposite(t *testing.T) {
	a := readRepoAction(t)
	if a.Using != "composite" {
		t.Fatalf("runs.using is %q, want composite", a.Using)
	}
	ids := map[string]bool{}
	for i, s := range a.Steps {
		ids[s.ID] = true
		switch {
		case s.Run != "":
			if s.Shell != "bash" {
				t.Errorf("step %d (%s): shell %q, want bash", i, s.ID, s.Shell)
			}
			if m := Expression.FindString(s.Run); m != "" {
				t.Errorf("step %d (%s): %s inside run:; pass it through env:", i, s.ID, m)
			}
		case s.Uses != "":
			if !PinnedBySHA(s.Uses) {
				t.Errorf("step %d: uses %s is not pinned by a full commit SHA", i, s.Uses)
			}
		default:
			t.Errorf("step %d (%s) neither runs nor uses anything", i, s.ID)
		}
	}
	for _, id := range []string{"setup", "restore", "build", "save", "run"} {
		if !ids[id] {
			t.Errorf("no step with id %s", id)
		}
	}
	restore, _ := a.Step("restore")
	save, _ := a.Step("save")
	if restore.If != "inputs.cache == 'true'" || !strings.Contains(save.If, "steps.restore.outputs.cache-hit != 'true'") {
		t.Errorf("cache steps: restore if %q, save if %q", restore.If, save.If)
	}
	if restore.With["key"] != save.With["key"] || restore.With["path"] != save.With["path"] || restore.With["key"] != "${{ steps.setup.outputs.key }}" {
		t.Errorf("restore and save differ: %v %v", restore.With, save.With)
	}
	if in, ok := a.Input("cache"); !ok || in.Default != "true" {
		t.Errorf("input cache: %+v, want default true", in)
	}
}

func TestPinnedBySHA(t *testing.T) {
	for uses, want := range map[string]bool{
		"./":           true,
		"./sub/action": true,
		"actions/cache/restore@5a3ec84eff668545956fd18022155c47e93e2684": true,
		"actions/cache@v4":                                       false,
		"actions/cache@5a3ec84":                                  false,
		"interleave-dev/interleave@v1":                           false,
		"docker://golang:1.26":                                   false,
		"actions/cache@5A3EC84EFF668545956FD18022155C47E93E2684": false,
	} {
		if got := PinnedBySHA(uses); got != want {
			t.Errorf("PinnedBySHA(%q) = %v, want %v", uses, got, want)
		}
	}
}

// Third-party actions in the workflows are pinned by SHA; only
// interleave's own @v1 (users are told to pin it) is exempt.
func TestWorkflowsPinned(t *testing.T) {
	root := repoRoot(t)
	files, err := WorkflowFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	uses := regexp.MustCompile(`(?m)^\s*(?:-\s+)?uses:\s*(\S+)`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range uses.FindAllStringSubmatch(string(b), -1) {
			if !PinnedBySHA(m[1]) && m[1] != "interleave-dev/interleave@v1" {
				t.Errorf("%s: uses %s is not pinned by a full commit SHA", filepath.Base(f), m[1])
			}
		}
	}
}

// stepRunner runs the composite's steps as the runner does: expressions
// in env: evaluated, the script run by bash -eo pipefail, outputs read
// from GITHUB_OUTPUT.
type stepRunner struct {
	t       *testing.T
	action  *Action
	env     map[string]string // the job's environment
	inputs  map[string]string // inputs given in with:
	outputs map[string]map[string]string
	path    string // PATH for the scripts
}

func newStepRunner(t *testing.T, a *Action, workspace, actionPath string) *stepRunner {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GITHUB_") || strings.HasPrefix(k, "INPUT_") || strings.HasPrefix(k, "RUNNER_") || strings.HasPrefix(k, "INTERLEAVE_") {
			continue
		}
		env[k] = v
	}
	osName := map[string]string{"linux": "Linux", "darwin": "macOS"}[runtime.GOOS]
	env["RUNNER_OS"], env["RUNNER_ARCH"], env["RUNNER_TEMP"] = osName, "X64", t.TempDir()
	env["GITHUB_WORKSPACE"], env["GITHUB_ACTION_PATH"] = workspace, actionPath
	return &stepRunner{t: t, action: a, env: env, inputs: map[string]string{}, outputs: map[string]map[string]string{}, path: env["PATH"]}
}

// eval evaluates the expressions the action uses.
func (r *stepRunner) eval(s string) string {
	return Expression.ReplaceAllStringFunc(s, func(m string) string {
		expr := Expression.FindStringSubmatch(m)[1]
		switch {
		case expr == "github.action_ref":
			return "v9.9.9-test"
		case expr == "github.token":
			return "ghs_notARealToken"
		case strings.HasPrefix(expr, "inputs."):
			name := strings.TrimPrefix(expr, "inputs.")
			if v, ok := r.inputs[name]; ok {
				return v
			}
			in, ok := r.action.Input(name)
			if !ok {
				r.t.Fatalf("%s: action.yml has no input %s", m, name)
			}
			return r.eval(in.Default)
		case strings.HasPrefix(expr, "steps."):
			parts := strings.Split(expr, ".")
			if len(parts) != 4 || parts[2] != "outputs" {
				r.t.Fatalf("unexpected expression %s", m)
			}
			return r.outputs[parts[1]][parts[3]]
		}
		r.t.Fatalf("the test does not know the expression %s", m)
		return ""
	})
}

// run runs the step with id and returns its exit code and output.
func (r *stepRunner) run(id string) (int, string) {
	t := r.t
	t.Helper()
	step, ok := r.action.Step(id)
	if !ok || step.Run == "" {
		t.Fatalf("no run step %s", id)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "step.sh")
	if err := os.WriteFile(script, []byte(step.Run), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "output")
	if err := os.WriteFile(out, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"GITHUB_OUTPUT=" + out, "PATH=" + r.path}
	for k, v := range r.env {
		if k != "PATH" {
			env = append(env, k+"="+v)
		}
	}
	for k, v := range step.Env {
		env = append(env, k+"="+r.eval(v))
	}
	cmd := exec.Command("/bin/bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Env = env
	cmd.Dir = r.env["GITHUB_WORKSPACE"]
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	outs := map[string]string{}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			outs[k] = v
		}
	}
	r.outputs[id] = outs
	return code, b.String()
}

// The setup step refuses a bad cache input, a runner without Go and
// Windows with exit 2 (could not run) and an annotation that says why.
func TestActionSetupErrors(t *testing.T) {
	root := repoRoot(t)
	a := readRepoAction(t)

	r := newStepRunner(t, a, root, root)
	r.path = t.TempDir() // no go
	code, out := r.run("setup")
	if code != 2 || !strings.Contains(out, "::error title=interleave::no go command on PATH: add actions/setup-go before interleave") {
		t.Errorf("without go: exit %d, output:\n%s", code, out)
	}

	r = newStepRunner(t, a, root, root)
	r.inputs["cache"] = "yes"
	code, out = r.run("setup")
	if code != 2 || !strings.Contains(out, `::error title=interleave: bad input::input cache: "yes" is not valid: use true or false`) {
		t.Errorf("cache: yes: exit %d, output:\n%s", code, out)
	}

	r = newStepRunner(t, a, root, root)
	r.env["RUNNER_OS"] = "Windows"
	code, out = r.run("setup")
	if code != 2 || !strings.Contains(out, "::error title=interleave::runs on Linux and macOS runners, not Windows") {
		t.Errorf("on Windows: exit %d, output:\n%s", code, out)
	}
}

// The cache key changes with interleave's sources and Go version, not with
// its tests, and is the same where only shasum exists (macOS).
func TestActionSetupKey(t *testing.T) {
	a := readRepoAction(t)
	src := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(src, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/tool\n\ngo 1.22\n")
	write("cmd/tool/main.go", "package main\n\nfunc main() {}\n")
	ws := t.TempDir()
	key := func(r *stepRunner) map[string]string {
		t.Helper()
		code, out := r.run("setup")
		if code != 0 {
			t.Fatalf("setup: exit %d\n%s", code, out)
		}
		return r.outputs["setup"]
	}
	first := key(newStepRunner(t, a, ws, src))
	gover, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	v := strings.TrimSpace(string(gover))
	osName := map[string]string{"linux": "Linux", "darwin": "macOS"}[runtime.GOOS]
	if !regexp.MustCompile(`^interleave-`+osName+`-X64-`+regexp.QuoteMeta(v)+`-[0-9a-f]{16}$`).MatchString(first["key"]) ||
		first["go-version"] != v || first["toolchain"] != v+"+auto" || first["version"] != "v9.9.9-test" ||
		filepath.Dir(first["bin"]) != first["dir"] || !strings.Contains(first["dir"], v) {
		t.Errorf("setup outputs: %q", first)
	}

	// A module whose Go cannot be had (no go1.999 to download): the Go on
	// PATH builds interleave.
	future := filepath.Join(ws, "future")
	if err := os.MkdirAll(future, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(future, "go.mod"), []byte("module example.com/future\n\ngo 1.999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := newStepRunner(t, a, ws, src)
	r.env["GOTOOLCHAIN"] = "auto"
	r.inputs["working-directory"] = "future"
	if got := key(r); got["go-version"] != v || got["key"] != first["key"] {
		t.Errorf("module needing go 1.999: outputs %q, want the Go on PATH", got)
	}

	write("cmd/tool/main_test.go", "package main\n")
	write("cmd/tool/testdata/x.go", "package x\n")
	if got := key(newStepRunner(t, a, ws, src)); got["key"] != first["key"] {
		t.Errorf("a test file changed the key: %s, was %s", got["key"], first["key"])
	}
	write("cmd/tool/main.go", "package main\n\nfunc main() { println() }\n")
	second := key(newStepRunner(t, a, ws, src))
	if second["key"] == first["key"] {
		t.Errorf("a source change kept the key %s", first["key"])
	}

	// Only shasum, as on macOS: the same key.
	bin := t.TempDir()
	for _, tool := range []string{"go", "grep", "find", "sort", "xargs", "cut", "shasum", "perl"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("no %s for the shasum case", tool)
		}
		if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	r = newStepRunner(t, a, ws, src)
	r.path = bin
	if got := key(r); got["key"] != second["key"] {
		t.Errorf("with shasum the key is %s, with sha256sum %s", got["key"], second["key"])
	}
}

// The composite's steps, run in order on this repository as the action's
// checkout: setup, build (the real go build), a second build that reuses
// the binary, and the run step with a bad input and on a small module.
func TestActionSteps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the interleave binary")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := repoRoot(t)
	a := readRepoAction(t)

	// A one-package module in a git repository, the workspace.
	ws := t.TempDir()
	mod := filepath.Join(ws, "mod")
	for name, text := range map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"c.go":   "package m\n\nimport \"sync\"\n\n// C counts.\ntype C struct {\n\tmu sync.Mutex\n\tn  int\n}\n\n// Inc adds one.\nfunc (c *C) Inc() {\n\tc.mu.Lock()\n\tc.n++\n\tc.mu.Unlock()\n}\n",
	} {
		if err := os.MkdirAll(mod, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "m"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}

	r := newStepRunner(t, a, ws, root)
	r.inputs["working-directory"] = "mod"
	if code, out := r.run("setup"); code != 0 {
		t.Fatalf("setup: exit %d\n%s", code, out)
	}
	bin := r.outputs["setup"]["bin"]
	code, out := r.run("build")
	if code != 0 {
		t.Fatalf("build: exit %d\n%s", code, out)
	}
	t.Logf("build: %s", strings.TrimSpace(out))
	v, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(v), "interleave v9.9.9-test go") {
		t.Errorf("%s version: %q, %v", bin, v, err)
	}
	st, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	// A restored cache, or a second use in one job: no build.
	code, out = r.run("build")
	st2, err := os.Stat(bin)
	if code != 0 || !strings.Contains(out, "interleave: cached build: interleave v9.9.9-test") || err != nil || !st2.ModTime().Equal(st.ModTime()) {
		t.Errorf("second build: exit %d, output %q: want the cached binary, untouched", code, out)
	}

	// A bad input stops the run step with exit 2 and an annotation.
	r.inputs["budget"] = "soon"
	r.inputs["enable"] = "nosuchrule"
	code, out = r.run("run")
	if code != 2 || !strings.Contains(out, `::error title=interleave: bad input::input budget: "soon" is not a duration`) ||
		!strings.Contains(out, `::error title=interleave: bad input::input enable: unknown static rule "nosuchrule"`) {
		t.Errorf("bad inputs: exit %d, output:\n%s", code, out)
	}

	// The whole module as new, static passes only, nothing posted.
	delete(r.inputs, "enable")
	r.inputs["budget"], r.inputs["base"], r.inputs["comment"] = "0", ":empty", "false"
	summary := filepath.Join(t.TempDir(), "summary")
	r.env["GITHUB_STEP_SUMMARY"] = summary
	code, out = r.run("run")
	got := r.outputs["run"]
	if code != 0 || got["findings"] != "0" || got["report-file"] != "mod/interleave-report.json" || got["sarif-file"] != "mod/interleave.sarif" {
		t.Fatalf("run: exit %d, outputs %q, output:\n%s", code, got, out)
	}
	if md, err := os.ReadFile(summary); err != nil || !strings.Contains(string(md), "interleave") {
		t.Errorf("job summary: %v %q", err, md)
	}
}
