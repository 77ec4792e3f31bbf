package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/report"
)

func testEnv(t *testing.T, dir string) (*cliEnv, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	return &cliEnv{stdout: &stdout, stderr: &stderr, dir: abs}, &stdout, &stderr
}

func TestParseCheckFlags(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		want     *checkOptions
		wantCode int
		wantErr  string
	}{
		{
			name: "defaults",
			args: nil,
			want: &checkOptions{Tests: true, Format: "text", MinSeverity: checks.Note},
		},
		{
			name: "everything",
			args: []string{"-tests=false", "-format", "sarif", "-o", "out.sarif", "-enable", "IL1001,all", "-enable", "unguarded-field",
				"-disable", "IL2001", "-severity", "warning", "-tags", "integ,e2e", "./a/...", "./b"},
			want: &checkOptions{Tests: false, Format: "sarif", Output: "out.sarif", Enable: []string{"IL1001", "all", "unguarded-field"},
				Disable: []string{"IL2001"}, MinSeverity: checks.Warning, Tags: []string{"integ", "e2e"}, Patterns: []string{"./a/...", "./b"}},
		},
		{name: "bad format", args: []string{"-format", "xml"}, wantCode: exitError, wantErr: "valid values are text, json, sarif, markdown"},
		{name: "bad severity", args: []string{"-severity", "high"}, wantCode: exitError, wantErr: "valid values are note, warning, error"},
		{name: "unknown flag", args: []string{"-frobnicate"}, wantCode: exitError, wantErr: "flag provided but not defined"},
		{name: "help", args: []string{"-h"}, wantCode: exitOK, wantErr: "Usage: interleave check [flags] [packages]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, _, stderr := testEnv(t, ".")
			opts, code, ok := parseCheckFlags(env, tt.args)
			if tt.want == nil {
				if ok || code != tt.wantCode || !strings.Contains(stderr.String(), tt.wantErr) {
					t.Errorf("got ok %v code %d stderr %q, want code %d and %q", ok, code, stderr.String(), tt.wantCode, tt.wantErr)
				}
				return
			}
			if !ok {
				t.Fatalf("got code %d, stderr %q", code, stderr.String())
			}
			if opts.Tests != tt.want.Tests || opts.Format != tt.want.Format || opts.Output != tt.want.Output ||
				!slices.Equal(opts.Enable, tt.want.Enable) || !slices.Equal(opts.Disable, tt.want.Disable) ||
				opts.MinSeverity != tt.want.MinSeverity || !slices.Equal(opts.Tags, tt.want.Tags) || !slices.Equal(opts.Patterns, tt.want.Patterns) {
				t.Errorf("got %+v, want %+v", opts, tt.want)
			}
		})
	}
}

func TestCheckEndToEnd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("findings exit 1 and print file:line:col", func(t *testing.T) {
		env, stdout, stderr := testEnv(t, "testdata/check/racy")
		if code := runMain(ctx, env, []string{"check", "./..."}); code != exitFindings {
			t.Fatalf("got exit %d, want %d; stderr:\n%s", code, exitFindings, stderr)
		}
		if want := "testdata/check/racy/racy.go:10:9: IL6101 WaitGroup.Add"; !strings.Contains(stdout.String(), want) {
			t.Errorf("got stdout %q, want it to contain %q", stdout, want)
		}
	})
	t.Run("disabled rule exits 0", func(t *testing.T) {
		env, stdout, stderr := testEnv(t, "testdata/check/racy")
		if code := runMain(ctx, env, []string{"check", "-disable", "waitgroup-add-in-goroutine,IL0001"}); code != exitOK {
			t.Fatalf("got exit %d, want %d; stdout %q stderr %q", code, exitOK, stdout, stderr)
		}
	})
	t.Run("severity drops the warning", func(t *testing.T) {
		env, stdout, stderr := testEnv(t, "testdata/check/racy")
		if code := runMain(ctx, env, []string{"check"}); code != exitFindings || !strings.Contains(stdout.String(), "IL0001") {
			t.Fatalf("got exit %d stdout %q stderr %q, want the IL0001 warning by default", code, stdout, stderr)
		}
		stdout.Reset()
		if code := runMain(ctx, env, []string{"check", "-severity", "error"}); code != exitFindings {
			t.Fatalf("got exit %d, want %d; stdout %q stderr %q", code, exitFindings, stdout, stderr)
		}
		if strings.Contains(stdout.String(), "IL0001") || !strings.Contains(stdout.String(), "IL6101") {
			t.Errorf("got %q, want IL6101 (error) without IL0001 (warning)", stdout)
		}
	})
	t.Run("json to a file", func(t *testing.T) {
		env, stdout, stderr := testEnv(t, "testdata/check/racy")
		out := filepath.Join(t.TempDir(), "report.json")
		if code := runMain(ctx, env, []string{"check", "-format", "json", "-o", out, "./..."}); code != exitFindings {
			t.Fatalf("got exit %d, want %d; stderr:\n%s", code, exitFindings, stderr)
		}
		if stdout.Len() != 0 {
			t.Errorf("got stdout %q, want nothing with -o", stdout)
		}
		rep, err := report.ReadJSON(out)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Version != report.JSONVersion || len(rep.Findings) == 0 || rep.Findings[0].Rule != "IL6101" ||
			rep.Findings[0].Pos.File != "cmd/interleave/testdata/check/racy/racy.go" || rep.Findings[0].Fingerprint == "" {
			t.Errorf("got report %+v, want IL6101 at cmd/interleave/testdata/check/racy/racy.go (relative to the repository root) with a fingerprint", rep)
		}
		if leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".*tmp*")); len(leftovers) > 0 {
			t.Errorf("temporary files left behind: %v", leftovers)
		}
	})
	t.Run("sarif", func(t *testing.T) {
		env, stdout, stderr := testEnv(t, "testdata/check/racy")
		if code := runMain(ctx, env, []string{"check", "-format", "sarif"}); code != exitFindings {
			t.Fatalf("got exit %d, want %d; stderr:\n%s", code, exitFindings, stderr)
		}
		if !strings.Contains(stdout.String(), `"ruleId": "IL6101"`) {
			t.Errorf("got %s, want a result for IL6101", stdout)
		}
	})
	t.Run("clean exits 0", func(t *testing.T) {
		env, stdout, stderr := testEnv(t, "testdata/check/clean")
		if code := runMain(ctx, env, []string{"check"}); code != exitOK {
			t.Fatalf("got exit %d, want %d; stdout %q stderr %q", code, exitOK, stdout, stderr)
		}
	})
	t.Run("compile error exits 2 with the compiler's message", func(t *testing.T) {
		env, _, stderr := testEnv(t, "testdata/check/broken")
		if code := runMain(ctx, env, []string{"check", "./..."}); code != exitError {
			t.Fatalf("got exit %d, want %d", code, exitError)
		}
		for _, want := range []string{"package example.com/broken/bad does not compile", "bad/bad.go:4:9", "undefinedName"} {
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("got stderr %q, want it to contain %q", stderr, want)
			}
		}
	})
	t.Run("no go.mod exits 2", func(t *testing.T) {
		env, _, stderr := testEnv(t, t.TempDir())
		if code := runMain(ctx, env, []string{"check"}); code != exitError || !strings.Contains(stderr.String(), "no go.mod") {
			t.Fatalf("got exit %d stderr %q, want %d and a no go.mod message", code, stderr, exitError)
		}
	})
	t.Run("unknown rule exits 2", func(t *testing.T) {
		env, _, stderr := testEnv(t, "testdata/check/clean")
		if code := runMain(ctx, env, []string{"check", "-enable", "IL0000"}); code != exitError || !strings.Contains(stderr.String(), `unknown rule "IL0000"`) {
			t.Fatalf("got exit %d stderr %q, want %d and an unknown rule message", code, stderr, exitError)
		}
	})
	t.Run("unwritable output leaves nothing behind", func(t *testing.T) {
		env, _, stderr := testEnv(t, "testdata/check/racy")
		out := filepath.Join(t.TempDir(), "missing", "report.json")
		if code := runMain(ctx, env, []string{"check", "-format", "json", "-o", out}); code != exitError {
			t.Fatalf("got exit %d, want %d", code, exitError)
		}
		if !strings.Contains(stderr.String(), "write report") {
			t.Errorf("got stderr %q, want a write error", stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s exists after a failed write", out)
		}
	})
}

func TestWriteReportAtomicReplaces(t *testing.T) {
	name := filepath.Join(t.TempDir(), "r.txt")
	for _, content := range []string{"first report, the longer one\n", "second\n"} {
		if err := report.WriteFileBytes(name, []byte(content)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != content {
			t.Errorf("got %q, want %q", got, content)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(name))
	if len(entries) != 1 {
		t.Errorf("got %d files, want only the report", len(entries))
	}
}

// TestCheckDriversAgree pins interleave check's findings on examples/bank
// and the testdata modules, and checks that driving the passes through go
// vet (the default; the test binary serves as the vet tool) prints exactly
// what the in-process driver prints as JSON (every finding field and its
// fingerprint; the text is rendered from the same findings, so it is
// checked through the go vet driver only).
func TestCheckDriversAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks modules and runs go vet")
	}
	if checkVetTool() == "" {
		t.Fatal("no vet tool: interleave check would not use go vet")
	}
	// inProcess: a json run also compares the go vet driver's output with
	// the in-process driver's (which loads every dependency from source:
	// the slow part), once per module. Bank's is with -enable all: its
	// default run is every pass's output less the rules not selected, by
	// the same code after either driver.
	tests := []struct {
		dir       string
		args      []string
		want      []string // "file:line:col: rule", relative to the repository root
		inProcess bool
	}{
		// The default rules; the opt-in ones find the other seeded bugs.
		{"../../examples/bank", nil, []string{
			"examples/bank/account.go:51:11: IL5003",
			"examples/bank/ledger.go:41:4: IL2001",
		}, false},
		{"../../examples/bank", []string{"-enable", "all"}, []string{
			"examples/bank/account.go:51:11: IL5003",
			"examples/bank/bank.go:36:17: IL2101",
			"examples/bank/bank.go:79:9: IL3001",
			"examples/bank/ledger.go:41:4: IL2001",
		}, true},
		{"testdata/check/racy", nil, []string{
			"cmd/interleave/testdata/check/racy/racy.go:10:9: IL6101",
			"cmd/interleave/testdata/check/racy/racy.go:19:2: IL0001",
		}, true},
		{"testdata/check/clean", nil, nil, true},
		{"testdata/check/cgo", nil, []string{
			"cmd/interleave/testdata/check/cgo/good/good.go:18:4: IL2001",
		}, true},
	}
	for _, tt := range tests {
		formats := []string{"text"}
		if tt.inProcess {
			formats = append(formats, "json")
		}
		for _, format := range formats {
			t.Run(filepath.Base(tt.dir)+strings.Join(tt.args, "")+"/"+format, func(t *testing.T) {
				t.Parallel()
				run := func(inProcess bool) (string, int) {
					env, stdout, stderr := testEnv(t, tt.dir)
					env.inProcessCheck = inProcess
					args := append(append([]string{"check", "-format", format}, tt.args...), "./...")
					code := runMain(context.Background(), env, args)
					if code == exitError {
						t.Fatalf("exit %d; stderr:\n%s", code, stderr)
					}
					return stdout.String(), code
				}
				viaVet, vetCode := run(false)
				if format != "text" {
					inProcess, code := run(true)
					if viaVet != inProcess || vetCode != code {
						t.Errorf("go vet driver (exit %d) printed\n%s\nin-process driver (exit %d) printed\n%s", vetCode, viaVet, code, inProcess)
					}
					return
				}
				var lines []string
				for _, line := range strings.Split(viaVet, "\n") {
					if line == "" || strings.HasPrefix(line, "\t") {
						continue
					}
					file, rest, _ := strings.Cut(line, ": ")
					rule, _, _ := strings.Cut(rest, " ")
					lines = append(lines, file+": "+rule)
				}
				if !slices.Equal(lines, tt.want) {
					t.Errorf("got findings\n\t%s\nwant\n\t%s", strings.Join(lines, "\n\t"), strings.Join(tt.want, "\n\t"))
				}
			})
		}
	}
}

func TestIsVetToolInvocation(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{[]string{"-V=full"}, true},
		{[]string{"-flags"}, true},
		{[]string{"/tmp/go-build1/b001/vet.cfg"}, true},
		{[]string{"-json", "-guardedby", "/tmp/go-build1/b001/vet.cfg"}, true},
		{nil, false},
		{[]string{"check", "./..."}, false},
		{[]string{"check", "vet.cfg"}, false},
		{[]string{"-C", "dir", "check"}, false},
		{[]string{"-flags", "x"}, false},
	}
	for _, tt := range tests {
		if got := isVetToolInvocation(tt.args); got != tt.want {
			t.Errorf("isVetToolInvocation(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}
