// Package passdoc extracts an analyzer's documentation from the package
// comment of its doc.go.
package passdoc

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// MustExtract returns the text of src's package comment after the
// "# Analyzer name" heading, trimmed. It panics if src does not parse or
// has no such heading, so a broken doc.go fails every test at init.
func MustExtract(src, name string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		panic(fmt.Sprintf("%s: parse doc.go: %v", name, err))
	}
	if f.Doc == nil {
		panic(name + ": doc.go has no package comment")
	}
	heading := "# Analyzer " + name + "\n"
	_, after, ok := strings.Cut(f.Doc.Text(), heading)
	if !ok {
		panic(fmt.Sprintf("%s: doc.go has no %q heading", name, strings.TrimSpace(heading)))
	}
	return strings.TrimSpace(after)
}
