package rewrite

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestListenRewritten: net.Listen becomes rt.Listen, which tells the
// driver of an address in use the program drops; a method of the same
// name and net.ListenTCP stay.
func TestListenRewritten(t *testing.T) {
	const src = `package p

import "net"

type srv struct{}

func (srv) Listen(network, addr string) (net.Listener, error) { return nil, nil }

func Start(addr string) (net.Listener, net.Listener, error) {
	l, err := net.Listen("tcp", addr)
	m, _ := srv{}.Listen("tcp", addr)
	_, _ = net.ListenTCP("tcp", nil)
	return l, m, err
}
`
	p, f := checkedFile(t, "p.go", src)
	out, _, changed, err := rewriteFileMode(p, f, []byte(src), "example.com/rt", false)
	if err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	got := string(out)
	for _, want := range []string{
		"l, err := " + rtp + "Listen(\"tcp\", addr)",
		"m, _ := srv{}.Listen(\"tcp\", addr)",
		"_, _ = net.ListenTCP(\"tcp\", nil)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "p.go", out, 0); err != nil {
		t.Errorf("%v\n%s", err, got)
	}
}
