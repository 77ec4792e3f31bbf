//go:build unix

package stdsyntax

import (
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/tools/go/packages"
)

// BenchmarkLoadNetHTTP: a load of net/http's standard library as the
// rewriter's loader does it (types, syntax, TypesInfo), with the blank
// cache emptied before each load ("fresh", the first load of a process)
// and kept ("cached", every later one):
// go test -run '^$' -bench LoadNetHTTP -benchtime 5x ./checks/dynamic/internal/stdsyntax
func BenchmarkLoadNetHTTP(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Fatal(err)
	}
	parse := ParseFile(strings.TrimSpace(string(out)))
	mode := packages.NeedName | packages.NeedDeps | packages.NeedImports | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo
	load := func(b *testing.B) {
		if _, err := packages.Load(&packages.Config{Mode: mode, ParseFile: parse}, "net/http"); err != nil {
			b.Fatal(err)
		}
	}
	empty := func() {
		blankCache.Lock()
		blankCache.m, blankCache.bytes = nil, 0
		blankCache.Unlock()
	}
	b.Run("fresh", func(b *testing.B) {
		c := cpu()
		for range b.N {
			empty()
			load(b)
		}
		b.ReportMetric((cpu()-c)/float64(b.N), "cpu-s/op")
	})
	b.Run("cached", func(b *testing.B) {
		empty()
		load(b)
		b.ResetTimer()
		c := cpu()
		for range b.N {
			load(b)
		}
		b.ReportMetric((cpu()-c)/float64(b.N), "cpu-s/op")
	})
}

// cpu is the process's CPU seconds with its waited-for children's (go list).
func cpu() float64 {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	s := 0.0
	for _, r := range []syscall.Rusage{self, kids} {
		s += float64(r.Utime.Nano()+r.Stime.Nano()) / 1e9
	}
	return s
}
