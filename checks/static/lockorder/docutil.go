package lockorder

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// mustExtractDoc returns the analyzer documentation from the package
// comment of doc.go: the text from "# Analyzer name" on. It panics if the
// heading is missing, so a broken doc.go fails every test at init.
func mustExtractDoc(content, name string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", content, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		panic(fmt.Sprintf("parse doc.go: %v", err))
	}
	if f.Doc == nil {
		panic("doc.go: no package comment")
	}
	text := f.Doc.Text()
	_, after, ok := strings.Cut(text, "# Analyzer "+name+"\n")
	if !ok {
		panic(fmt.Sprintf("doc.go: no %q heading", "# Analyzer "+name))
	}
	return strings.TrimSpace(after)
}
