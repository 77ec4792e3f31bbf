package diff

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestOldLine edits a file of distinct lines at random, diffs it with
// real git (--unified=0, as affected runs it) and checks that every
// line the edits kept maps to the old line with its text, and every
// line they wrote maps into the old lines they replaced.
func TestOldLine(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 40; round++ {
		var old []string
		for i := 0; i < 30; i++ {
			old = append(old, fmt.Sprintf("old %d", i))
		}
		// kept[j] is the old index of new line j, or -1 when an edit wrote it.
		var lines []string
		var kept []int
		for i := 0; i < len(old); {
			switch rng.Intn(8) {
			case 0: // remove one to three lines
				i += 1 + rng.Intn(3)
			case 1: // add one or two
				for k := rng.Intn(2); k >= 0; k-- {
					lines = append(lines, fmt.Sprintf("new %d.%d", round, len(lines)))
					kept = append(kept, -1)
				}
			case 2: // rewrite one
				lines = append(lines, fmt.Sprintf("new %d.%d", round, len(lines)))
				kept = append(kept, -1)
				i++
			default:
				lines = append(lines, old[i])
				kept = append(kept, i)
				i++
			}
		}
		a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
		os.WriteFile(a, []byte(strings.Join(old, "\n")+"\n"), 0o644)
		os.WriteFile(b, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		out, err := exec.Command("git", "diff", "--no-index", "--unified=0", a, b).Output()
		if err != nil && len(out) == 0 {
			continue // no change drawn
		}
		files, err := ParseBytes(out)
		if err != nil || len(files) != 1 {
			t.Fatalf("round %d: %v (%d files)\n%s", round, err, len(files), out)
		}
		edits := files[0].Edits()
		changed := OldChanged(edits)
		for j, k := range kept {
			got, wrote := OldLine(edits, j+1)
			if k >= 0 {
				if wrote || got != k+1 {
					t.Errorf("round %d: new line %d (%q) = old %d (changed %v), want %d\n%s", round, j+1, lines[j], got, wrote, k+1, out)
				}
				continue
			}
			if !wrote {
				t.Errorf("round %d: new line %d (%q) not changed\n%s", round, j+1, lines[j], out)
			}
			if got < 1 || got > len(old) {
				t.Errorf("round %d: new line %d maps to old %d, outside the file", round, j+1, got)
			}
		}
		// Every old line not kept is in OldChanged, and no kept one.
		isKept := map[int]bool{}
		for _, k := range kept {
			if k >= 0 {
				isKept[k+1] = true
			}
		}
		for l := 1; l <= len(old); l++ {
			in := false
			for _, r := range changed {
				in = in || r.Contains(l)
			}
			if in == isKept[l] {
				t.Errorf("round %d: old line %d: in OldChanged %v, kept %v", round, l, in, isKept[l])
			}
		}
	}
	// The zero-count headers of a pure addition and a pure removal.
	edits := []Edit{{OldStart: 2, OldLines: 0, NewStart: 3, NewLines: 2}, {OldStart: 5, OldLines: 3, NewStart: 6, NewLines: 0}}
	var got [][2]int
	for l := 1; l <= 8; l++ {
		o, c := OldLine(edits, l)
		n := 0
		if c {
			n = 1
		}
		got = append(got, [2]int{o, n})
	}
	want := [][2]int{{1, 0}, {2, 0}, {2, 1}, {2, 1}, {3, 0}, {4, 0}, {8, 0}, {9, 0}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("OldLine over %v = %v, want %v", edits, got, want)
	}
}
