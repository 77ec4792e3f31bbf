package claim

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Type is a struct type whose doc comment claims safety for concurrent use.
type Type struct {
	Name   *types.TypeName
	Phrase string            // what Of returns for Doc
	Doc    *ast.CommentGroup // the comment that makes the claim
	Spec   *ast.TypeSpec     // the type's declaration
}

// Types returns the struct types declared in files whose doc comment (the
// spec's, or a lone spec's declaration's) claims safety for concurrent
// use, in source order.
func Types(files []*ast.File, info *types.Info) []Type {
	var out []Type
	for _, f := range files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				if _, ok := ts.Type.(*ast.StructType); !ok {
					continue
				}
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				phrase := Of(doc)
				if phrase == "" {
					continue
				}
				if tn, ok := info.Defs[ts.Name].(*types.TypeName); ok {
					out = append(out, Type{Name: tn, Phrase: phrase, Doc: doc, Spec: ts})
				}
			}
		}
	}
	return out
}

// Disclaimed returns the struct types declared in files whose doc comment
// says they are not safe for concurrent use.
func Disclaimed(files []*ast.File, info *types.Info) map[*types.TypeName]bool {
	out := map[*types.TypeName]bool{}
	for _, f := range files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				if _, ok := ts.Type.(*ast.StructType); ok && Disclaims(doc) {
					if tn, ok := info.Defs[ts.Name].(*types.TypeName); ok {
						out[tn] = true
					}
				}
			}
		}
	}
	return out
}
