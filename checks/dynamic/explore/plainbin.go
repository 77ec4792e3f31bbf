// The plain test binary: the package's tests as they are, plus a wrapper test that lists the goroutines a test left running.

package explore

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
)

// plainTestEnv names the test the wrapper runs.
const plainTestEnv = "INTERLEAVE_PLAIN_TEST"

// Markers around each goroutine the wrapper lists on standard error.
const (
	plainLeftMarker = "interleave-plain: left "
	plainEndMarker  = "interleave-plain: end"
)

// plainBin is a package's plain test binary, or why there is none (a
// Build keeps its instrumented binaries so too).
type plainBin struct {
	bin  string
	err  error
	done chan struct{} // closed when built (or failed)
}

// plainBin returns the package's plain test binary, building it the first
// time it is asked for (Run builds it next to the instrumented one).
func (s *search) plainBin(ctx context.Context, p rewrite.Package) *plainBin {
	if s.opts.Build != nil {
		return s.opts.Build.plainBin(ctx, p, s.buildPlain)
	}
	s.mu.Lock()
	if s.plainBins == nil {
		s.plainBins = map[string]*plainBin{}
	}
	pb, ok := s.plainBins[p.ImportPath]
	if !ok {
		pb = &plainBin{bin: filepath.Join(s.workDir, fmt.Sprintf("plain%d.test", len(s.plainBins))), done: make(chan struct{})}
		s.plainBins[p.ImportPath] = pb
	}
	s.mu.Unlock()
	if ok {
		<-pb.done
		return pb
	}
	pb.err = s.buildPlain(ctx, p, pb.bin)
	close(pb.done)
	return pb
}

// buildPlain compiles the package's tests as they are, each run through
// the wrapper (plainWrappers).
func (s *search) buildPlain(ctx context.Context, p rewrite.Package, bin string) error {
	if s.inst == nil {
		return fmt.Errorf("no module to build %s in", p.ImportPath)
	}
	files, err := plainWrappers(p)
	if err != nil {
		return err
	}
	ov := struct{ Replace map[string]string }{Replace: map[string]string{}}
	paths := make([]string, 0, len(files))
	for path := range files {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for i, path := range paths {
		tmp := fmt.Sprintf("%s-%d-%s", bin, i, filepath.Base(path))
		if err := os.WriteFile(tmp, files[path], 0o644); err != nil {
			return err
		}
		ov.Replace[path] = tmp
	}
	b, err := json.Marshal(ov)
	if err != nil {
		return err
	}
	ovPath := bin + ".overlay.json"
	if err := os.WriteFile(ovPath, b, 0o644); err != nil {
		return err
	}
	args := []string{"test", "-c", "-vet=off", "-o", bin, "-overlay", ovPath}
	args = append(args, buildFlags(s.opts.Race, s.opts.Tags)...)
	cmd := exec.CommandContext(ctx, "go", append(args, p.ImportPath)...)
	cmd.Dir = s.inst.ModuleRoot
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("plain go test -c %s: %v\n%s", p.ImportPath, err, tailLines(string(out), 10))
	}
	return nil
}

// plainRenamed is the name a test function TestX takes in the plain
// binary (plainWrappers); parsePlain names it TestX again.
const plainRenamed = "interleavePlain"

// plainWrappers returns the files of the plain binary, by path: each test
// file that declares tests (those the instrumented build included,
// rewrite.Package.TestFiles) with every test TestX renamed
// interleavePlainTestX on its own line, and per test package (internal,
// external) a wrapper file declaring TestX, which runs it through
// interleavePlainRun. So go test runs the test at the top level, under its
// own name (t.Name() is "TestX", as a test comparing it expects), and
// the wrapper lists the goroutines it left once it and its subtests
// completed (its Cleanup).
func plainWrappers(p rewrite.Package) (map[string][]byte, error) {
	byPkg := map[string][]string{} // package clause -> tests declared in it
	out := map[string][]byte{}
	fset := token.NewFileSet()
	for _, name := range p.TestFiles {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		var offs []int
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if ok && fd.Recv == nil && isTest(fd) {
				byPkg[f.Name.Name] = append(byPkg[f.Name.Name], fd.Name.Name)
				offs = append(offs, fset.Position(fd.Name.Pos()).Offset)
			}
		}
		if len(offs) == 0 {
			continue
		}
		renamed := make([]byte, 0, len(src)+len(offs)*len(plainRenamed))
		last := 0
		for _, off := range offs {
			renamed = append(append(renamed, src[last:off]...), plainRenamed...)
			last = off
		}
		out[name] = append(renamed, src[last:]...)
	}
	if len(byPkg) == 0 {
		return nil, fmt.Errorf("no test functions found in %s", p.Dir)
	}
	for pkg, tests := range byPkg {
		name := "zz_interleave_plain_test.go"
		if strings.HasSuffix(pkg, "_test") {
			name = "zz_interleave_plain_x_test.go"
		}
		out[filepath.Join(p.Dir, name)] = plainWrapperSource(pkg, tests)
	}
	return out, nil
}

// isTest reports whether fd is a top-level test: TestXxx(t *testing.T).
func isTest(fd *ast.FuncDecl) bool {
	n := fd.Name.Name
	if !strings.HasPrefix(n, "Test") || n == "TestMain" {
		return false
	}
	if len(n) > 4 && n[4] >= 'a' && n[4] <= 'z' {
		return false
	}
	ps := fd.Type.Params.List
	return len(ps) == 1 && len(ps[0].Names) <= 1 && fd.Type.TypeParams == nil
}

func plainWrapperSource(pkg string, tests []string) []byte {
	sort.Strings(tests)
	var b strings.Builder
	b.WriteString("// Code generated by interleave (checks/dynamic/explore): runs each test plainly. DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package %s\n\n", pkg)
	b.WriteString(`import (
	interleaveos "os"
	interleaveruntime "runtime"
	interleavestrings "strings"
	interleavetesting "testing"
	interleavetime "time"
)

`)
	for _, t := range tests {
		fmt.Fprintf(&b, "func %s(t *interleavetesting.T) { interleavePlainRun(t, %q, %s%s) }\n\n", t, t, plainRenamed, t)
	}
	fmt.Fprintf(&b, `// interleavePlainRun runs the test fn; when the environment names it (a
// subtest searched alone, "TestX/Sub", names TestX), it lists the
// goroutines fn left once it and its subtests completed.
func interleavePlainRun(t *interleavetesting.T, name string, fn func(*interleavetesting.T)) {
	want := interleaveos.Getenv(%[1]q)
	if i := interleavestrings.Index(want, "/"); i >= 0 {
		want = want[:i]
	}
	if want != name {
		fn(t)
		return
	}
	before := interleavePlainStacks()
	// Registered first, so run last: after the test's own cleanups.
	t.Cleanup(func() {
		// Goroutines still ending get about a second, as goleak gives them.
		var left []string
		for wait := interleavetime.Millisecond; ; wait *= 2 {
			left = left[:0]
			for id, st := range interleavePlainStacks() {
				if _, ok := before[id]; !ok {
					left = append(left, st)
				}
			}
			if len(left) == 0 || wait > 512*interleavetime.Millisecond {
				break
			}
			interleavetime.Sleep(wait)
		}
		for _, st := range left {
			interleaveos.Stderr.WriteString(%[2]q + st + "\n" + %[3]q + "\n")
		}
	})
	fn(t)
}

// interleavePlainStacks returns the stack of every goroutine by ID.
func interleavePlainStacks() map[string]string {
	buf := make([]byte, 1<<20)
	for {
		n := interleaveruntime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	out := map[string]string{}
	for _, st := range interleavestrings.Split(string(buf), "\n\n") {
		f := interleavestrings.Fields(st)
		if len(f) > 1 && f[0] == "goroutine" {
			out[f[1]] = st
		}
	}
	return out
}
`, plainTestEnv, plainLeftMarker, plainEndMarker)
	return []byte(b.String())
}
