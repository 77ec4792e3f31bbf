package affected

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// A framework shaped like Ginkgo: Describe and It hand closures to a tree
// at package init; RunSpecs, called from the package's one Go test, runs
// them. The framework keeps them behind interface values in a tree of
// nodes, as Ginkgo does.
const specFramework = `package spec

import "testing"

type node struct {
	text string
	body func()
	kids []*node
}

var (
	root    = &node{}
	current = root
)

// Describe registers a container; its body registers the specs.
func Describe(text string, args ...any) bool { return push(text, args) }

// It registers a spec.
func It(text string, args ...any) bool { return push(text, args) }

func push(text string, args []any) bool {
	n := &node{text: text}
	for _, a := range args {
		switch a := a.(type) {
		case func():
			n.body = a
		}
	}
	current.kids = append(current.kids, n)
	return true
}

// RunSpecs runs every registered spec.
func RunSpecs(t *testing.T, name string) bool {
	for _, n := range root.kids {
		run(t, n)
	}
	return !t.Failed()
}

func run(t *testing.T, n *node) {
	parent := current
	current = n
	if n.body != nil {
		n.body()
	}
	current = parent
	for _, k := range n.kids {
		run(t, k)
	}
}
`

const specStore = `package store

import "sync"

type Cache struct {
	mu sync.Mutex
	m  map[string]int
}

func New() *Cache { return &Cache{m: map[string]int{}} }

func (c *Cache) Put(k string, v int) {
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
}

func (c *Cache) Get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k]
}
`

const specStoreTests = `package store

import (
	"sync"
	"testing"
)

func load(c *Cache) { c.Put("a", 1) }

func fill(c *Cache) { load(c) }

func TestGetConcurrent(t *testing.T) {
	c := New()
	fill(c)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); _ = c.Get("a") }()
	}
	wg.Wait()
}

func TestGet(t *testing.T) {
	if New().Get("b") != 0 {
		t.Fatal("not empty")
	}
}
`

// The specs are in the external test package, RunSpecs in the internal
// one: one binary, one registry.
const specStoreSpecs = `package store_test

import (
	"sync"

	"example.com/m/spec"
	"example.com/m/store"
)

var _ = spec.Describe("Cache", func() {
	spec.It("puts from two goroutines", func() {
		c := store.New()
		var wg sync.WaitGroup
		for i := 0; i < 2; i++ {
			wg.Add(1)
			go func() { defer wg.Done(); c.Put("k", i) }()
		}
		wg.Wait()
	})
})
`

const specStoreMain = `package store

import (
	"testing"

	"example.com/m/spec"
)

func TestSuite(t *testing.T) { spec.RunSpecs(t, "store") }
`

// other's specs use the store but not the changed Put: its suite stays out.
const specOther = `package other

import (
	"testing"

	"example.com/m/spec"
	"example.com/m/store"
)

var _ = spec.Describe("Get", func() {
	spec.It("reads", func() { _ = store.New().Get("x") })
})

func TestOtherSuite(t *testing.T) { spec.RunSpecs(t, "other") }
`

// TestAnalyzeSpecSuite: a changed method reached only from a spec that a
// Ginkgo-shaped suite registers at init ranks the suite's test first.
func TestAnalyzeSpecSuite(t *testing.T) {
	r := newRepo(t)
	r.write(map[string]string{
		"go.mod":              "module example.com/m\n\ngo 1.22\n",
		"spec/spec.go":        specFramework,
		"store/store.go":      specStore,
		"store/store_test.go": specStoreTests,
		"store/specs_test.go": specStoreSpecs,
		"store/main_test.go":  specStoreMain,
		"other/other.go":      "package other\n",
		"other/other_test.go": specOther,
	})
	base := r.commit("base")
	r.write(map[string]string{"store/store.go": strings.Replace(specStore, "\tc.m[k] = v\n", "\tc.m[k] += v\n", 1)})
	r.commit("head")
	c := analyze(t, r.dir, base, "")

	var names []string
	for _, tt := range c.Tests {
		names = append(names, tt.Package+"."+tt.Name)
	}
	want := []string{
		"example.com/m/store.TestSuite",         // 1 call away (the spec calls Put), goroutines
		"example.com/m/store.TestGetConcurrent", // 3 calls away, goroutines
	}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("Tests = %v, want %v", names, want)
	}
	changed := r.lineOf("store/store.go", "c.m[k] += v")
	spec := r.lineOf("store/specs_test.go", "spec.Describe(")
	why := fmt.Sprintf("calls (*Cache).Put, changed at store/store.go:%d, directly through a spec closure registered at init (store/specs_test.go:%d); starts goroutines", changed, spec)
	if c.Tests[0].Why != why {
		t.Errorf("Tests[0].Why = %q, want %q", c.Tests[0].Why, why)
	}
	if c.Tests[0].Distance != 1 || !c.Tests[0].Goroutines {
		t.Errorf("Tests[0] = %+v, want distance 1 with goroutines", c.Tests[0])
	}
	if !strings.HasSuffix(c.Tests[1].Why, "3 calls away; starts goroutines") {
		t.Errorf("Tests[1].Why = %q, want no spec closure on its path", c.Tests[1].Why)
	}
}
