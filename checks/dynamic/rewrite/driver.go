package rewrite

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/packages"
)

type testFunc struct {
	name     string
	external bool // declared in the external _test package
}

type driverPlan struct {
	importPath string
	dir        string
	pkgName    string // package clause of the driver file
	external   bool   // driver lives in the external test package
	tests      []testFunc
	testFiles  []string // the _test.go files of the build
	excluded   map[string]string
	warnings   []string
}

// planDrivers decides, for every package matched by the patterns, where its
// driver goes and which tests it lists.
func planDrivers(roots []*packages.Package) []driverPlan {
	byPath := map[string]*packages.Package{}   // plain package
	internal := map[string]*packages.Package{} // p [p.test]
	external := map[string]*packages.Package{} // p_test [p.test]
	for _, p := range roots {
		switch {
		case strings.HasSuffix(p.ID, ".test") && p.Name == "main" && p.ForTest == "" && p.PkgPath == strings.TrimSuffix(p.ID, ".test")+".test":
			// generated test main
		case p.ForTest == "":
			byPath[p.PkgPath] = p
		case p.PkgPath == p.ForTest:
			internal[p.ForTest] = p
		case p.PkgPath == p.ForTest+"_test":
			external[p.ForTest] = p
		}
	}
	var plans []driverPlan
	for path, p := range byPath {
		d := driverPlan{importPath: path, pkgName: p.Name}
		if in := internal[path]; in != nil {
			for _, t := range findTests(in, true) {
				d.tests = append(d.tests, testFunc{name: t})
			}
		}
		var ext []string
		if x := external[path]; x != nil {
			ext = findTests(x, false)
		}
		switch {
		case len(ext) > 0 && p.Name == "main":
			for _, t := range ext {
				d.warnings = append(d.warnings, fmt.Sprintf("%s: external test %s of package main is not driven (an external test cannot import package main)", path, t))
			}
		case len(ext) > 0:
			d.external = true
			d.pkgName = external[path].Name
			for _, t := range ext {
				d.tests = append(d.tests, testFunc{name: t, external: true})
			}
		}
		d.tests = sameNamesTogether(d.tests)
		d.dir = pkgDir(p, internal[path], external[path])
		d.testFiles = testFiles(internal[path], external[path])
		d.excluded = excludedTests(d.tests, p, internal[path], external[path])
		plans = append(plans, d)
	}
	sort.Slice(plans, func(i, j int) bool { return plans[i].importPath < plans[j].importPath })
	return plans
}

// sameNamesTogether moves a test the external package declares under a
// name the package declares too next to the package's, which the driver
// runs as one test of that name (go test runs the package's tests, then
// the external package's, each by file name and then as declared).
func sameNamesTogether(tests []testFunc) []testFunc {
	at := map[string]int{}
	for i, t := range tests {
		if _, ok := at[t.name]; !ok {
			at[t.name] = i
		}
	}
	out := slices.Clone(tests)
	sort.SliceStable(out, func(i, j int) bool { return at[out[i].name] < at[out[j].name] })
	return out
}

// testFiles lists the _test.go files of the test packages as loaded, that
// is as the build (its tags, -race, GOOS and GOARCH, Go release) includes
// them, sorted.
func testFiles(ps ...*packages.Package) []string {
	var out []string
	for _, p := range ps {
		if p == nil {
			continue
		}
		for _, f := range p.GoFiles {
			if strings.HasSuffix(f, "_test.go") && filepath.Base(f) != driverFile && !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	sort.Strings(out)
	return out
}

// excludedTests maps the Test functions declared only in _test.go files
// that the build excludes (build constraints, -race, GOOS) to their file.
func excludedTests(have []testFunc, ps ...*packages.Package) map[string]string {
	out := map[string]string{}
	seen := map[string]bool{}
	fset := token.NewFileSet()
	for _, p := range ps {
		if p == nil {
			continue
		}
		for _, name := range p.IgnoredFiles {
			if !strings.HasSuffix(name, "_test.go") || seen[name] {
				continue
			}
			seen[name] = true
			f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
			if err != nil {
				continue // not compiled: its syntax does not matter
			}
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Recv != nil || !isTestName(fd.Name.Name) || fd.Name.Name == "TestMain" {
					continue
				}
				if !slices.ContainsFunc(have, func(t testFunc) bool { return t.name == fd.Name.Name }) {
					out[fd.Name.Name] = name
				}
			}
		}
	}
	return out
}

func pkgDir(ps ...*packages.Package) string {
	for _, p := range ps {
		if p == nil {
			continue
		}
		if p.Dir != "" {
			return p.Dir
		}
		for _, f := range append(append([]string{}, p.GoFiles...), p.CompiledGoFiles...) {
			return filepath.Dir(f)
		}
	}
	return ""
}

// findTests returns the Test functions declared in p's _test.go files
// (in all its files when onlyTestFiles is false: the external package has
// only test files) in go test's order: by file name, then as declared.
func findTests(p *packages.Package, onlyTestFiles bool) []string {
	type declared struct{ file, name string }
	var tests []declared
	for _, f := range p.Syntax {
		if onlyTestFiles && !strings.HasSuffix(fileName(p, f), "_test.go") {
			continue
		}
		if strings.HasSuffix(fileName(p, f), driverFile) {
			continue
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !isTestName(fd.Name.Name) || fd.Name.Name == "TestMain" {
				continue
			}
			obj, _ := p.TypesInfo.Defs[fd.Name].(*types.Func)
			if obj == nil {
				continue
			}
			sig := obj.Type().(*types.Signature)
			if sig.TypeParams().Len() > 0 || sig.Results().Len() != 0 || sig.Params().Len() != 1 {
				continue
			}
			if !isNamedPtr(sig.Params().At(0).Type(), "testing", "T") {
				continue
			}
			tests = append(tests, declared{fileName(p, f), fd.Name.Name})
		}
	}
	sort.SliceStable(tests, func(i, j int) bool { return tests[i].file < tests[j].file })
	names := make([]string, len(tests))
	for i, t := range tests {
		names[i] = t.name
	}
	return names
}

// isTestName reports whether name is TestXxx as go test understands it.
func isTestName(name string) bool {
	if !strings.HasPrefix(name, "Test") {
		return false
	}
	if len(name) == 4 {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[4:])
	return !unicode.IsLower(r)
}

func isNamedPtr(t types.Type, pkg, name string) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

func driverSource(d driverPlan, rtImport string) []byte {
	var b strings.Builder
	b.WriteString("// Code generated by interleave (checks/dynamic/rewrite). DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package %s\n\nimport (\n\t\"testing\"\n\n\t%s %q\n", d.pkgName, rtImportName, rtImport)
	needPkg := false
	for _, t := range d.tests {
		if d.external && !t.external {
			needPkg = true
		}
	}
	if needPkg {
		fmt.Fprintf(&b, "\tinterleavepkg %q\n", d.importPath)
	}
	b.WriteString(")\n\n")
	fmt.Fprintf(&b, "func TestInterleaveDriver(t *testing.T) {\n\t%s.Main(t, map[string]func(*testing.T){\n", rtImportName)
	ref := func(t testFunc) string {
		if d.external && !t.external {
			return "interleavepkg." + t.name
		}
		return t.name
	}
	for i := 0; i < len(d.tests); {
		j := i + 1
		for j < len(d.tests) && d.tests[j].name == d.tests[i].name {
			j++
		}
		if j == i+1 {
			fmt.Fprintf(&b, "\t\t%q: %s,\n", d.tests[i].name, ref(d.tests[i]))
			i = j
			continue
		}
		// The package and its external test package both declare this
		// name: go test runs both as top-level tests of that name (the
		// package's first), and -run '^Name$' selects both. rt.Group runs
		// each as a subtest named after its package.
		var names, refs []string
		for _, t := range d.tests[i:j] {
			pkg := strings.TrimSuffix(d.pkgName, "_test")
			if t.external {
				pkg += "_test"
			}
			names = append(names, strconv.Quote(pkg))
			refs = append(refs, ref(t))
		}
		fmt.Fprintf(&b, "\t\t%q: %s.Group([]string{%s}, %s),\n", d.tests[i].name, rtImportName, strings.Join(names, ", "), strings.Join(refs, ", "))
		i = j
	}
	b.WriteString("\t})\n}\n")
	return []byte(b.String())
}
