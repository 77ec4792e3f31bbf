package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// TestCheckLeavesOutBrokenPackages: a cgo package whose C header is not
// installed is listed (with the C compiler's error) and left out; the
// package beside it is analyzed and its finding sets the exit code, with
// either driver.
func TestCheckLeavesOutBrokenPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks a module and runs go vet")
	}
	out, err := exec.Command("go", "env", "CGO_ENABLED").Output()
	if err != nil {
		t.Fatal(err)
	}
	cgo := strings.TrimSpace(string(out)) == "1"
	for _, driver := range []string{"go vet", "in process"} {
		t.Run(driver, func(t *testing.T) {
			t.Parallel()
			env, stdout, stderr := testEnv(t, "testdata/check/cgo")
			env.inProcessCheck = driver == "in process"
			if code := runMain(context.Background(), env, []string{"check", "-format", "json", "./..."}); code != exitFindings {
				t.Fatalf("got exit %d, want %d; stderr:\n%s", code, exitFindings, stderr)
			}
			var rep struct {
				Findings []struct{ Rule, Package string }
				Notes    []string
			}
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
				t.Fatalf("%v in %s", err, stdout)
			}
			if len(rep.Findings) != 1 || rep.Findings[0].Rule != "IL2001" || rep.Findings[0].Package != "example.com/cgomix/good" {
				t.Errorf("got findings %+v, want IL2001 in example.com/cgomix/good", rep.Findings)
			}
			want := []string{"not analyzed: package example.com/cgomix/native"}
			if cgo {
				want = append(want, "native/native.go:6:10: fatal error: interleave_no_such_header.h")
			}
			if len(rep.Notes) != 1 {
				t.Fatalf("got notes %q, want one for example.com/cgomix/native", rep.Notes)
			}
			for _, w := range want {
				if !strings.Contains(rep.Notes[0], w) || !strings.Contains(stderr.String(), w) {
					t.Errorf("got note %q and stderr %q, want both to contain %q", rep.Notes[0], stderr, w)
				}
			}
		})
	}
	t.Run("only the broken package exits 2", func(t *testing.T) {
		env, stdout, stderr := testEnv(t, "testdata/check/cgo")
		if code := runMain(context.Background(), env, []string{"check", "./native"}); code != exitError {
			t.Fatalf("got exit %d, want %d; stdout %q", code, exitError, stdout)
		}
		if want := "no package analyzed: 1 package matched by ./native does not compile"; !strings.Contains(stderr.String(), want) {
			t.Errorf("got stderr %q, want %q", stderr, want)
		}
		if stdout.Len() != 0 {
			t.Errorf("got a report %q, want none", stdout)
		}
	})
}
