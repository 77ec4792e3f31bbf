package rewrite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMapRange: every form of a range over a map becomes a three-clause
// loop over rt.MapIter (key and value, key only, no variables, assignment
// to existing variables, labels, generic maps), lines kept; keys stored
// into maps keyed by pointers or channels, or by composite keys holding
// them, are wrapped in rt.MapKey (not nil, not reads, not a string into a
// map keyed by any); a range whose assigned variables span lines is left as
// written and warned about; the module's tests pass under the overlay
// (go1.22: per-iteration variables).
func TestMapRange(t *testing.T) {
	dir := copyModule(t, "maps")
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Cleanup()
	file := filepath.Join(dir, "maps", "maps.go")
	out, err := os.ReadFile(res.Files[file])
	if err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile(file)
	if strings.Count(string(out), "\n") != strings.Count(string(src), "\n") {
		t.Errorf("lines moved:\n%s", out)
	}
	lines := strings.Split(string(out), "\n")
	for line, want := range map[int]string{
		11:  "for _ilit, k, v := interleavert.MapIter(m); _ilit.Next(&k, &v); {",
		20:  "for _ilit, k, _ := interleavert.MapIter(s); _ilit.Next(&k, nil); {",
		29:  "for _ilit, _, _ := interleavert.MapIter(m); _ilit.Next(nil, nil); {",
		38:  "for _ilit, _, _ := interleavert.MapIter(m); _ilit.Next(nil, nil); {k, last[1] = _ilit.Key(), _ilit.Value(); ",
		41:  "for _ilit, _, _ := interleavert.MapIter(m); _ilit.Next(nil, nil); {_, last[0] = _ilit.Key(), _ilit.Value(); ",
		50:  "for _ilit, k, vs := interleavert.MapIter(m); _ilit.Next(&k, &vs); {",
		70:  "for _ilit, _, v := interleavert.MapIter(m); _ilit.Next(nil, &v); {",
		49:  "outer:",
		102: "for a[",
		126: "conns[interleavert.MapKey(c)] = c.id",
		127: "conns[interleavert.MapKey(c)] += 1",
		128: "conns[interleavert.MapKey(c)]++",
		129: "subs[interleavert.MapKey(make(chan int))] = true",
		130: "conns[nil] = 0",
		131: "lit := map[*conn]bool{interleavert.MapKey(c): true, nil: false}",
		132: "return conns[c] + len(lit)",
		143: "byRoute[interleavert.MapKey(route{c, 80})] = 1",
		144: "byAny[interleavert.MapKey(c)] = 2",
		145: "byAny[\"x\"] = 3",
		146: "pairs[interleavert.MapKey([2]chan int{make(chan int)})]++",
		147: "lit := map[route]bool{interleavert.MapKey(route{c, 1}): true, interleavert.MapKey(route{c, 2}): false}",
		156: "byPtr := map[*conn]bool{interleavert.MapKey(&conn{id: 3}): true}",
		157: "set := routeSet{interleavert.MapKey(route{c, 3}): true}",
		158: "anon := map[struct{ c *conn }]int{interleavert.MapKey(struct{ c *conn }{c}): 1}",
		159: "nested := []map[route]bool{{interleavert.MapKey(route{c, 4}): true}}",
		148: "return byRoute[route{c, 80}] + len(lit)",
	} {
		if !strings.Contains(lines[line-1], want) {
			t.Errorf("line %d: %q, want %q", line, lines[line-1], want)
		}
	}
	if len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], file+":102: range over map left as written") {
		t.Errorf("warnings %q, want the one of line 102", res.Warnings)
	}
	if testing.Short() {
		return
	}
	if out, err := goCmd(t, dir, nil, append(append([]string{"test", "-count=1", "-timeout=60s"}, res.TestFlags...), "./...")...); err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
}

// TestMapRangeOldLanguage: a module at go 1.16 (no generics, which
// rt.MapIter needs): the file is raised to go1.20 by a build constraint,
// its loop variable stays one per loop (go1.22's per-iteration variables
// would change what its closures see), and it compiles and passes. A
// module at go 1.19: ranges over maps whose keys hold interfaces are
// rewritten too (an interface satisfies MapIter's comparable from go1.20,
// to which the file is raised), and it compiles and passes; go-deadlock
// v0.3.9 (go.mod without a go line) ranged its map of held locks, keyed
// by interface{}, in the runtime's order, with a note on 12 of 24 tests.
func TestMapRangeOldLanguage(t *testing.T) {
	for _, c := range []struct {
		mod, file string
		want      []string
		warns     []int
	}{
		{"mapsold", "mapsold/old.go", []string{"//go:build go1.20\n", "for _ilit, k, _ := interleavert.MapIter(m); _ilit.Next(&k, nil); {"}, nil},
		{"maps119", "maps119/any.go", []string{"//go:build go1.20\n", "for _ilit, _, v := interleavert.MapIter(m); _ilit.Next(nil, &v); {", "for _ilit, k, _ := interleavert.MapIter(p); _ilit.Next(&k, nil); {", "for _ilit, k, v := interleavert.MapIter(m); _ilit.Next(&k, &v); {", "m[interleavert.MapKey(k)] = 1"}, nil},
	} {
		dir := copyModule(t, c.mod)
		res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}})
		if err != nil {
			t.Fatal(err)
		}
		defer res.Cleanup()
		file := filepath.Join(dir, c.file)
		out, err := os.ReadFile(res.Files[file])
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range c.want {
			if !strings.Contains(string(out), want) {
				t.Errorf("rewritten %s lacks %q:\n%s", c.file, want, out)
			}
		}
		var want []string
		for _, line := range c.warns {
			want = append(want, fmt.Sprintf("%s:%d: range over map left as written: its key type ", file, line))
		}
		if len(res.Warnings) != len(want) {
			t.Errorf("%s: warnings %q, want %q", c.mod, res.Warnings, want)
		}
		for i := range want {
			if i < len(res.Warnings) && !strings.HasPrefix(res.Warnings[i], want[i]) {
				t.Errorf("%s: warning %q, want %q...", c.mod, res.Warnings[i], want[i])
			}
		}
		if testing.Short() {
			continue
		}
		if out, err := goCmd(t, dir, nil, append(append([]string{"test", "-count=1", "-timeout=60s"}, res.TestFlags...), "./...")...); err != nil {
			t.Fatalf("%s: go test: %v\n%s", c.mod, err, out)
		}
	}
}
