package explore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// carriedTest is a test file that is not in the package: the schedule
// carries it, as gen's schedules carry the generated tests.
const carriedTest = `package carry

import "testing"

func TestCarried(t *testing.T) {
	done := make(chan int)
	go func() { done <- Next() }()
	if v := <-done; v == 1 {
		panic("the carried test ran")
	}
}
`

// carryModule is a module whose package has no tests of its own.
func carryModule(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":         "module example.com/carrymod\n\ngo 1.24\n",
		"carry/carry.go": "package carry\n\n// Next is one.\nfunc Next() int { return 1 }\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func carriedSchedule(files []rt.SourceFile) *rt.Schedule {
	return &rt.Schedule{
		Version: rt.ScheduleVersionFiles, Package: "example.com/carrymod/carry", Dir: "carry", Test: "TestCarried",
		Strategy: "random", Seed: 1, Decisions: []rt.Decision{}, Files: files,
		Failure: &rt.Signature{Kind: string(checks.Panic), Message: "panic: the carried test ran", Site: "carry/carried_test.go:9"},
	}
}

// A schedule that carries its test file replays with the file added to the
// package, which stays as it was; without the file nothing runs, and the
// error says the test is missing.
func TestReplayCarriedFile(t *testing.T) {
	t.Parallel()
	root := carryModule(t)
	path := filepath.Join(root, ".interleave", "schedules", "TestCarried-panic.json")
	if err := WriteSchedule(path, carriedSchedule([]rt.SourceFile{{Name: "carried_test.go", Source: carriedTest}})); err != nil {
		t.Fatal(err)
	}
	res, err := Replay(context.Background(), path, ReplayOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if res.Outcome != Reproduced {
		t.Fatalf("outcome %s, want %s: %+v %s", res.Outcome, Reproduced, res.Finding, res.Detail)
	}
	if !strings.Contains(res.Finding.Snippet, `panic("the carried test ran")`) {
		t.Errorf("snippet %q is not the carried file's line", res.Finding.Snippet)
	}
	if _, err := os.Stat(filepath.Join(root, "carry", "carried_test.go")); !os.IsNotExist(err) {
		t.Errorf("replay wrote the carried file into the package: %v", err)
	}

	// The schedule without its file: the package has no tests.
	var me *MissingTestError
	_, err = ReplaySchedule(context.Background(), carriedSchedule(nil), "", ReplayOptions{Dir: root})
	if !errors.As(err, &me) || !me.NoTests || !strings.Contains(err.Error(), "nothing was run") {
		t.Errorf("replay without the file: %v, want a MissingTestError saying nothing ran", err)
	}
	// A package with tests, but not the schedule's.
	other := strings.ReplaceAll(carriedTest, "TestCarried", "TestOther")
	_, err = ReplaySchedule(context.Background(), carriedSchedule([]rt.SourceFile{{Name: "other_test.go", Source: other}}), "", ReplayOptions{Dir: root})
	if !errors.As(err, &me) || me.NoTests || me.Test != "TestCarried" {
		t.Errorf("replay of a missing test: %v, want a MissingTestError naming TestCarried", err)
	}
}

// A schedule may carry only plain test file names of its package.
func TestScheduleBadFileName(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"../x_test.go", "sub/x_test.go", "x.go", "_test.go", ".x_test.go", `a\b_test.go`} {
		s := carriedSchedule([]rt.SourceFile{{Name: name, Source: "package carry\n"}})
		tok, err := EncodeToken(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeToken(tok); err == nil || !strings.Contains(err.Error(), "not a test file name") {
			t.Errorf("file %q: %v, want it refused", name, err)
		}
	}
}
