package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/internal/gitrepo"
	"github.com/interleave-dev/interleave/internal/prjob"
	"github.com/interleave-dev/interleave/internal/testctx"
	"github.com/interleave-dev/interleave/report"
)

const (
	sha1 = "1111111111111111111111111111111111111111"
	sha2 = "2222222222222222222222222222222222222222"
)

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParsePRFlags(t *testing.T) {
	prEvent := writeTemp(t, "pr.json", `{"action":"opened","pull_request":{"number":7,"base":{"sha":"`+sha1+`","ref":"main"},"head":{"sha":"`+sha2+`"}}}`)
	commentOnPR := writeTemp(t, "c.json", `{"issue":{"number":8,"pull_request":{"url":"https://api.github.com/repos/o/r/pulls/8"}},"comment":{"id":1},"repository":{"default_branch":"trunk"}}`)
	commentOnIssue := writeTemp(t, "i.json", `{"issue":{"number":9},"comment":{"id":1},"repository":{"default_branch":"main"}}`)
	malformed := writeTemp(t, "bad.json", `{"pull_request": {`)
	noSHA := writeTemp(t, "nosha.json", `{"pull_request":{"number":1,"base":{"ref":"main"},"head":{}}}`)
	push := writeTemp(t, "push.json", `{"ref":"refs/heads/main"}`)

	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		want     *prjob.Options
		wantCode int
		wantErr  string
	}{
		{
			name: "defaults",
			args: []string{"-base", "origin/main"},
			want: &prjob.Options{Config: prjob.Config{Base: "origin/main", Head: "HEAD", Scope: "changed", Budget: 2 * time.Minute, FailOn: checks.Warning, Format: "text", Race: true}},
		},
		{
			name: "everything",
			args: []string{"-base", "v1", "-head", "feature", "-scope", "all", "-budget", "30s", "-fail-on", "error", "-format", "sarif",
				"-o", "out.sarif", "-sarif", "s.sarif", "-summary", "sum.md", "-v", "-race=false", "-seed", "5", "-schedules", "sch", "-workers", "2", "-count", "9", "-tags", "a,b"},
			want: &prjob.Options{Config: prjob.Config{Base: "v1", Head: "feature", Scope: "all", Budget: 30 * time.Second, FailOn: checks.Error, Format: "sarif",
				Output: "out.sarif", SARIF: "s.sarif", Summary: "sum.md", Verbose: true, Seed: 5, Schedules: "sch", Workers: 2, Count: 9, Tags: []string{"a", "b"}}},
		},
		{
			name: "run",
			args: []string{"-base", "main", "-run", "^TestA$|TestB"},
			want: &prjob.Options{Config: prjob.Config{Base: "main", Head: "HEAD", Scope: "changed", Budget: 2 * time.Minute, FailOn: checks.Warning, Format: "text", Race: true,
				Run: rt.MustParseRun("^TestA$|TestB")}},
		},
		{
			name: "rules",
			args: []string{"-base", "main", "-enable", "IL1001,lock-order-inversion", "-disable", "IL6001", "-enable", "IL3001"},
			want: &prjob.Options{Config: prjob.Config{Base: "main", Head: "HEAD", Scope: "changed", Budget: 2 * time.Minute, FailOn: checks.Warning, Format: "text", Race: true,
				Enable: []string{"IL1001", "lock-order-inversion", "IL3001"}, Disable: []string{"IL6001"}}},
		},
		{
			name:     "bad run",
			args:     []string{"-base", "main", "-run", "Test("},
			wantCode: exitError,
			wantErr:  "bad -run pattern: element 0 of",
		},
		{
			name:     "bad run subtest element",
			args:     []string{"-base", "main", "-run", "TestA/(x"},
			wantCode: exitError,
			wantErr:  `bad -run pattern: element 1 of "TestA/(x"`,
		},
		{
			name:     "bad skip subtest element",
			args:     []string{"-base", "main", "-skip", "TestA/x|TestB/[y"},
			wantCode: exitError,
			wantErr:  `bad -skip pattern: element 1 of "TestA/x|TestB/[y"`,
		},
		{
			name: "shard",
			args: []string{"-base", "main", "-shard", "2/3"},
			want: &prjob.Options{Config: prjob.Config{Base: "main", Head: "HEAD", Scope: "changed", Budget: 2 * time.Minute, FailOn: checks.Warning, Format: "json", Race: true, Shard: 2, Shards: 3}},
		},
		{
			name: "pull_request event",
			env:  map[string]string{"GITHUB_EVENT_PATH": prEvent, "GITHUB_EVENT_NAME": "pull_request"},
			want: &prjob.Options{Config: prjob.Config{Base: sha1, Head: sha2, Scope: "changed", Budget: 2 * time.Minute, FailOn: checks.Warning, Format: "text", Race: true},
				Notes: []string{"pull request #7: base 111111111111, head 222222222222 (from pull_request)"}},
		},
		{
			name: "pull_request event recognized by shape, head flag wins",
			args: []string{"-head", "HEAD"},
			env:  map[string]string{"GITHUB_EVENT_PATH": prEvent},
			want: &prjob.Options{Config: prjob.Config{Base: sha1, Head: "HEAD", Scope: "changed", Budget: 2 * time.Minute, FailOn: checks.Warning, Format: "text", Race: true},
				Notes: []string{"pull request #7: base 111111111111, head 222222222222 (from pull_request)"}},
		},
		{
			name: "issue_comment on a pull request",
			env:  map[string]string{"GITHUB_EVENT_PATH": commentOnPR, "GITHUB_EVENT_NAME": "issue_comment"},
			want: &prjob.Options{Config: prjob.Config{Base: "origin/trunk", Head: "HEAD", Scope: "changed", Budget: 2 * time.Minute, FailOn: checks.Warning, Format: "text", Race: true},
				Notes: []string{"pull request #8 (from a comment): base origin/trunk, head the checked-out commit; pass -base if the pull request targets another branch"}},
		},
		{name: "no base", wantCode: exitError, wantErr: "-base is required outside a GitHub pull_request or issue_comment workflow"},
		{name: "issue_comment on an issue", env: map[string]string{"GITHUB_EVENT_PATH": commentOnIssue}, wantCode: exitError, wantErr: "the comment is on issue #9, not on a pull request"},
		{name: "malformed payload", env: map[string]string{"GITHUB_EVENT_PATH": malformed}, wantCode: exitError, wantErr: "is malformed"},
		{name: "payload without shas", env: map[string]string{"GITHUB_EVENT_PATH": noSHA}, wantCode: exitError, wantErr: "must be commit hashes"},
		{name: "push event", env: map[string]string{"GITHUB_EVENT_PATH": push, "GITHUB_EVENT_NAME": "push"}, wantCode: exitError, wantErr: "the push event is not about a pull request"},
		{name: "missing payload", env: map[string]string{"GITHUB_EVENT_PATH": filepath.Join(t.TempDir(), "none.json")}, wantCode: exitError, wantErr: "read GitHub event payload"},
		{name: "bad scope", args: []string{"-base", "m", "-scope", "diff"}, wantCode: exitError, wantErr: "valid values are changed, package, all"},
		{name: "bad fail-on", args: []string{"-base", "m", "-fail-on", "fatal"}, wantCode: exitError, wantErr: "valid values are note, warning, error"},
		{name: "bad shard", args: []string{"-base", "m", "-shard", "4/3"}, wantCode: exitError, wantErr: "want i/n with 1 <= i <= n"},
		{name: "shard with text", args: []string{"-base", "m", "-shard", "1/2", "-format", "text"}, wantCode: exitError, wantErr: "-shard writes JSON"},
		{name: "shard with summary", args: []string{"-base", "m", "-shard", "1/2", "-summary", "x.md"}, wantCode: exitError, wantErr: "written by interleave merge"},
		{name: "negative budget", args: []string{"-base", "m", "-budget", "-1s"}, wantCode: exitError, wantErr: "-budget must not be negative"},
		{name: "negative count", args: []string{"-base", "m", "-count", "-1"}, wantCode: exitError, wantErr: "-count must not be negative"},
		{name: "arguments", args: []string{"-base", "m", "./..."}, wantCode: exitError, wantErr: "unexpected arguments"},
		{name: "help", args: []string{"-h"}, wantCode: exitOK, wantErr: "Usage: interleave pr"},
		{
			name: "gen budget on top",
			args: []string{"-base", "main", "-gen-budget", "1m"},
			want: &prjob.Options{Config: prjob.Config{Base: "main", Head: "HEAD", Scope: "changed", Budget: 2 * time.Minute, FailOn: checks.Warning, Format: "text", Race: true, GenBudget: time.Minute}},
		},
		{
			name: "gen off",
			args: []string{"-base", "main", "-gen-budget", "0"},
			want: &prjob.Options{Config: prjob.Config{Base: "main", Head: "HEAD", Scope: "changed", Budget: 2 * time.Minute, FailOn: checks.Warning, Format: "text", Race: true}},
		},
	}
	for _, tt := range tests {
		if tt.want != nil && !slices.Contains(tt.args, "-gen-budget") {
			tt.want.GenAuto = true // the default: a share of -budget
		}
		t.Run(tt.name, func(t *testing.T) {
			env, _, stderr := testEnv(t, ".")
			getenv := func(k string) string { return tt.env[k] }
			opts, code, ok := parsePRFlags(env, tt.args, getenv)
			if tt.want == nil {
				if ok || code != tt.wantCode || !strings.Contains(stderr.String(), tt.wantErr) {
					t.Errorf("got ok %v code %d stderr %q, want code %d and %q", ok, code, stderr.String(), tt.wantCode, tt.wantErr)
				}
				return
			}
			if !ok {
				t.Fatalf("parse failed with code %d: %s", code, stderr.String())
			}
			if !reflect.DeepEqual(opts, tt.want) {
				t.Errorf("got  %+v\nwant %+v", opts, tt.want)
			}
		})
	}
}

func TestMergeShards(t *testing.T) {
	static := checks.Finding{Rule: "IL1001", Severity: checks.Warning, Message: "m", Evidence: checks.Static, Pos: checks.Position{File: "a.go", Line: 3}, Package: "p", Func: "F", Snippet: "x++"}
	confirmed := static
	confirmed.Evidence, confirmed.Schedule, confirmed.Severity = checks.Confirmed, ".interleave/schedules/s.json", checks.Error
	dyn := checks.Finding{Rule: checks.DynamicRuleID(checks.Deadlock), Severity: checks.Error, Message: "TestX: deadlock", Evidence: checks.Dynamic, Kind: checks.Deadlock, Package: "p", Func: "G", Snippet: "mu.Lock()"}
	note := checks.Finding{Rule: "IL6001", Severity: checks.Note, Message: "n", Evidence: checks.Static, Pos: checks.Position{File: "b.go", Line: 9}, Package: "p", Func: "H", Snippet: "<-ch"}

	dir := t.TempDir()
	write := func(name string, fs ...checks.Finding) string {
		p := filepath.Join(dir, name)
		if err := report.WriteFile(p, func(w io.Writer) error {
			return report.JSON{}.Write(w, &report.Report{Findings: fs, ToolVersion: "test"})
		}); err != nil {
			t.Fatal(err)
		}
		return p
	}
	s1 := write("s1.json", static, note)
	s2 := write("s2.json", confirmed, dyn, note)
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("not json"), 0o644)
	other := filepath.Join(dir, "other.json")
	os.WriteFile(other, []byte(`{"version":99,"tool":{"name":"interleave"}}`), 0o644)

	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantN    int
		wantErr  string
		confirm  bool // IL1001 must come out confirmed
	}{
		{name: "dedupe keeps the confirmed twin", args: []string{"-format", "json", "s1.json", s2}, wantCode: exitFindings, wantN: 3, confirm: true},
		{name: "fail-on above every finding", args: []string{"-format", "json", "-fail-on", "error", s1}, wantCode: exitOK, wantN: 2},
		{name: "malformed shard", args: []string{s1, bad}, wantCode: exitError, wantErr: "is not an interleave JSON report"},
		{name: "wrong version", args: []string{other}, wantCode: exitError, wantErr: "want interleave JSON version 2"},
		{name: "missing shard", args: []string{"nope.json"}, wantCode: exitError, wantErr: "read shard report"},
		{name: "no files", args: nil, wantCode: exitError, wantErr: "no shard reports given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, stdout, stderr := testEnv(t, dir)
			code := runMain(context.Background(), env, append([]string{"merge"}, tt.args...))
			if code != tt.wantCode || !strings.Contains(stderr.String(), tt.wantErr) {
				t.Fatalf("got code %d stderr %q, want %d and %q", code, stderr.String(), tt.wantCode, tt.wantErr)
			}
			if tt.wantN == 0 {
				return
			}
			var r report.JSONReport
			if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			if len(r.Findings) != tt.wantN {
				t.Fatalf("got %d findings, want %d: %s", len(r.Findings), tt.wantN, stdout.String())
			}
			for _, f := range r.Findings {
				if f.Rule == "IL1001" && tt.confirm != (f.Evidence == checks.Confirmed) {
					t.Errorf("IL1001 has evidence %s, want confirmed: %v", f.Evidence, tt.confirm)
				}
			}
		})
	}
}

// prRepo is a temporary git repository for the pr command's tests.
type prRepo struct {
	*gitrepo.Repo
	t   *testing.T
	dir string
}

func newPRRepo(t *testing.T) *prRepo {
	t.Helper()
	g := gitrepo.New(t)
	return &prRepo{Repo: g, t: t, dir: g.Dir}
}

func (r *prRepo) git(args ...string) string {
	r.t.Helper()
	return r.Git(args...)
}

func (r *prRepo) commit(files map[string]string) string {
	r.t.Helper()
	return r.Commit(files)
}

func (r *prRepo) runPR(args ...string) (code int, stdout, stderr string) {
	r.t.Helper()
	env, out, errb := testEnv(r.t, r.dir)
	ctx := testctx.New(r.t)
	code = runMain(ctx, env, append([]string{"pr"}, args...))
	return code, out.String(), errb.String()
}

func TestPRBadInputs(t *testing.T) {
	notRepo := t.TempDir()
	env, _, stderr := testEnv(t, notRepo)
	if code := runMain(context.Background(), env, []string{"pr", "-base", "main"}); code != exitError || !strings.Contains(stderr.String(), "is not in a git repository") {
		t.Errorf("not a repository: got %d %q", code, stderr.String())
	}

	r := newPRRepo(t)
	base := r.commit(map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.22\n",
		"a/a.go":  "package a\n\nfunc A() int { return 1 }\n",
		"README":  "x\n",
		"doc.txt": "y\n",
	})

	t.Run("unknown base", func(t *testing.T) {
		sum := filepath.Join(t.TempDir(), "sum.md")
		code, _, stderr := r.runPR("-base", "origin/nope", "-summary", sum)
		if code != exitError || !strings.Contains(stderr, `unknown base ref "origin/nope"`) {
			t.Errorf("got %d %q", code, stderr)
		}
		md, err := os.ReadFile(sum)
		if err != nil || !strings.Contains(string(md), `unknown base ref "origin/nope"`) {
			t.Errorf("summary %q: %v", md, err)
		}
	})
	t.Run("empty diff", func(t *testing.T) {
		code, stdout, stderr := r.runPR("-base", base, "-format", "json")
		if code != exitOK || !strings.Contains(stderr, "0 files changed") {
			t.Errorf("got %d %q", code, stderr)
		}
		var rep report.JSONReport
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Findings) != 0 {
			t.Errorf("report %q: %v", stdout, err)
		}
	})
	r.commit(map[string]string{"README": "changed\n", "doc.txt": "changed\n"})
	t.Run("only non-Go files", func(t *testing.T) {
		sum := filepath.Join(t.TempDir(), "sum.md")
		code, _, stderr := r.runPR("-base", base, "-summary", sum)
		if code != exitOK || !strings.Contains(stderr, "not analyzed: README: not a Go file") || !strings.Contains(stderr, "not analyzed: doc.txt: not a Go file") {
			t.Errorf("got %d %q", code, stderr)
		}
		md, err := os.ReadFile(sum)
		if err != nil || !strings.Contains(string(md), "| `doc.txt` | not a Go file |") {
			t.Errorf("summary %q: %v", md, err)
		}
	})
	r.commit(map[string]string{"a/a.go": "package a\n\nfunc A() int { return \"one\" }\n"})
	t.Run("head does not compile", func(t *testing.T) {
		sum := filepath.Join(t.TempDir(), "sum.md")
		code, _, stderr := r.runPR("-base", base, "-summary", sum)
		if code != exitError || !strings.Contains(stderr, "the head does not compile") || !strings.Contains(stderr, "a.go:3") {
			t.Errorf("got %d %q", code, stderr)
		}
		md, err := os.ReadFile(sum)
		if err != nil || !strings.Contains(string(md), "interleave could not run") || !strings.Contains(string(md), "a.go:3") {
			t.Errorf("summary %q: %v", md, err)
		}
	})
}

// TestPRMachineBuildFailure: a build the machine failed on the head (a go
// command that says the disk is full, except in the base commit's
// worktree, as a disk that filled and was freed again did to regress20) is
// exit 2 naming the machine, never "this change breaks" a package nor a
// finding.
func TestPRMachineBuildFailure(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	r := newPRRepo(t)
	base := r.commit(map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.22\n",
		"a/a.go":      "package a\n\nfunc A() int { return 1 }\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 2 {\n\t\tt.Skip()\n\t}\n}\n",
	})
	r.commit(map[string]string{"a/a.go": "package a\n\nfunc A() int { return 2 }\n"})
	fake := t.TempDir()
	script := `#!/bin/sh
case "$PWD" in
*interleave-base-*) exec ` + goBin + ` "$@" ;;
esac
for a in "$@"; do
	if [ "$a" = vet ] || [ "$a" = -c ]; then
		echo '# example.com/m/a' >&2
		echo 'compile: writing output: write $WORK/b001/_pkg_.a: no space left on device' >&2
		exit 1
	fi
done
exec ` + goBin + ` "$@"
`
	if err := os.WriteFile(filepath.Join(fake, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", fake+string(os.PathListSeparator)+os.Getenv("PATH"))
	sum := filepath.Join(t.TempDir(), "sum.md")
	code, stdout, stderr := r.runPR("-base", base, "-budget", "5s", "-format", "json", "-summary", sum)
	const want = "on this machine, which is not the change's doing: the disk is full"
	if code != exitError || !strings.Contains(stderr, want) || strings.Contains(stderr, "breaks") || strings.Contains(stderr, "does not compile") {
		t.Errorf("code %d, stderr %q: want %d and the machine named, not the change", code, stderr, exitError)
	}
	if strings.Contains(stdout, "\"findings\"") {
		t.Errorf("stdout %q: want no report", stdout)
	}
	if md, err := os.ReadFile(sum); err != nil || !strings.Contains(string(md), want) {
		t.Errorf("summary %q (%v): want the machine named", md, err)
	}
}
