package claim

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

func TestClaim(t *testing.T) {
	for doc, want := range map[string]bool{
		"// T is safe for concurrent use.":                        true,
		"// T is safe for concurrent use by multiple goroutines.": true,
		"// T is goroutine-safe.":                                 true,
		"// T is not safe for concurrent use.":                    false,
		"// T is not thread-safe.":                                false,
		"// T counts.\n//\n//interleave:threadsafe":               true,
		"// T counts.": false,
		"// LRU implements a non-thread safe fixed size LRU cache.": false,
		"// T is unsafe for concurrent use.":                        false,
	} {
		src := "package p\n\n" + doc + "\ntype T struct{}\n"
		f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		cg := f.Decls[0].(*ast.GenDecl).Doc
		if got := Of(cg) != ""; got != want {
			t.Errorf("Of(%q) = %v, want %v", doc, got, want)
		}
	}
}
