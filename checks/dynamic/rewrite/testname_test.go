package rewrite

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestTestNameRewritten: t.Name() on a *testing.T or a testing.TB, where
// it is compared (==, !=, a switch's tag) or an argument of a strings,
// path or path/filepath function (otter's tests cut it to find their
// goroutines in a dump), becomes rt.TestName (go test's name, not the
// driver's subtest); elsewhere (a -test.run pattern for a child process,
// a concatenation) it stays, as does Name of another type and of a type
// embedding *testing.T.
func TestTestNameRewritten(t *testing.T) {
	const src = `package p

import (
	"path/filepath"
	"strings"
	"testing"
)

type named struct{}

func (named) Name() string { return "n" }

type wrapped struct{ *testing.T }

func Names(t *testing.T, tb testing.TB, w wrapped) string {
	switch t.Name() {
	case "TestStop/queue":
	}
	if (tb.Name()) != "TestX" && w.Name() == "" && (named{}).Name() == "" {
		return "-test.run=^" + t.Name() + "$"
	}
	test, _, _ := strings.Cut(t.Name(), "/")
	golden := filepath.Join("testdata", (tb.Name())+".golden")
	_ = strings.Contains("created by "+test, golden)
	return tb.Name()
}
`
	p, f := checkedFile(t, "p.go", src)
	out, warns, changed, err := rewriteFileMode(p, f, []byte(src), "example.com/rt", false)
	if err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	got := string(out)
	for _, want := range []string{
		"switch " + rtp + "TestName(t) {",
		"if (" + rtp + "TestName(tb)) != \"TestX\" && w.Name() == \"\" && (named{}).Name() == \"\" {",
		"return \"-test.run=^\" + t.Name() + \"$\"",
		"return tb.Name()\n",
		"test, _, _ := strings.Cut(" + rtp + "TestName(t), \"/\")",
		"golden := filepath.Join(\"testdata\", (tb.Name())+\".golden\")",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "p.go", out, 0); err != nil {
		t.Errorf("%v\n%s", err, got)
	}
	for _, w := range warns {
		t.Errorf("warning %s", w)
	}
}
