package static

import (
	"os"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// analyzerPackage returns the import path of the package that defines a's
// Run function.
func analyzerPackage(a *analysis.Analyzer) string {
	name := runtime.FuncForPC(reflect.ValueOf(a.Run).Pointer()).Name()
	// name is "path/to/pkg.run" or "path/to/pkg.init.func1".
	slash := strings.LastIndex(name, "/")
	dot := strings.Index(name[slash+1:], ".")
	if dot < 0 {
		return name
	}
	return name[:slash+1+dot]
}

func TestEveryPassDirectoryIsRegistered(t *testing.T) {
	const prefix = "github.com/interleave-dev/interleave/checks/static/"
	registered := map[string]*analysis.Analyzer{}
	for _, p := range Passes {
		registered[analyzerPackage(p.Analyzer)] = p.Analyzer
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "internal" || e.Name() == "testdata" || strings.HasPrefix(e.Name(), ".") || strings.HasPrefix(e.Name(), "_") {
			continue
		}
		files, err := os.ReadDir(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		hasGo := false
		for _, f := range files {
			if strings.HasSuffix(f.Name(), ".go") && !strings.HasSuffix(f.Name(), "_test.go") {
				hasGo = true
			}
		}
		if !hasGo {
			continue
		}
		a, ok := registered[prefix+e.Name()]
		if !ok {
			t.Errorf("checks/static/%s is not registered in Passes (suite.go)", e.Name())
			continue
		}
		if a.Name != e.Name() {
			t.Errorf("checks/static/%s: got Analyzer.Name %q, want the package name %q", e.Name(), a.Name, e.Name())
		}
	}
}

func TestRuleIDsAreUnique(t *testing.T) {
	idRE := regexp.MustCompile(`^IL[0-8]\d{3}$`)
	seenID := map[string]string{}
	seenSlug := map[string]string{}
	check := func(owner string, id, slug, title string) {
		if !idRE.MatchString(id) {
			t.Errorf("%s: rule ID %q is not IL0000-IL8999 (IL9xxx is dynamic)", owner, id)
		}
		if prev, dup := seenID[id]; dup {
			t.Errorf("rule ID %s used by %s and %s", id, prev, owner)
		}
		seenID[id] = owner
		if prev, dup := seenSlug[slug]; dup {
			t.Errorf("rule slug %q used by %s and %s", slug, prev, owner)
		}
		seenSlug[slug] = owner
		if slug == "" || title == "" {
			t.Errorf("rule %s: slug and title are required", id)
		}
	}
	for _, r := range Directive {
		check("the runner", r.ID, r.Slug, r.Title)
	}
	for _, p := range Passes {
		if len(p.Rules) == 0 {
			t.Errorf("pass %s reports no rule", p.Analyzer.Name)
		}
		for _, r := range p.Rules {
			check("pass "+p.Analyzer.Name, r.ID, r.Slug, r.Title)
		}
	}
}

func TestAnalyzersValidate(t *testing.T) {
	if err := analysis.Validate(Analyzers()); err != nil {
		t.Fatal(err)
	}
	for _, a := range Analyzers() {
		if err := analysis.Validate([]*analysis.Analyzer{a}); err != nil {
			t.Errorf("analyzer %s: %v", a.Name, err)
		}
	}
}
