package claim

import (
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"regexp"
	"strings"
	"unicode"
)

// Type is a struct type whose doc comment claims safety for concurrent use.
type Type struct {
	Name   *types.TypeName
	Phrase string            // what Of returns for Doc
	Doc    *ast.CommentGroup // the comment that makes the claim
	Spec   *ast.TypeSpec     // the type's declaration
}

// typeDecl is one type spec of a package with its file and declaration.
type typeDecl struct {
	file *ast.File
	decl *ast.GenDecl
	spec *ast.TypeSpec
}

// typeDecls yields the type specs declared in files, in source order.
func typeDecls(files []*ast.File) iter.Seq[typeDecl] {
	return func(yield func(typeDecl) bool) {
		for _, f := range files {
			for _, decl := range f.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok || gd.Tok != token.TYPE {
					continue
				}
				for _, spec := range gd.Specs {
					if !yield(typeDecl{f, gd, spec.(*ast.TypeSpec)}) {
						return
					}
				}
			}
		}
	}
}

// StructDocs yields the struct type specs declared in files with their
// doc comment: the spec's, or a lone spec's declaration's.
func StructDocs(files []*ast.File) iter.Seq2[*ast.TypeSpec, *ast.CommentGroup] {
	return func(yield func(*ast.TypeSpec, *ast.CommentGroup) bool) {
		for td := range typeDecls(files) {
			if _, ok := td.spec.Type.(*ast.StructType); !ok {
				continue
			}
			doc := td.spec.Doc
			if doc == nil && len(td.decl.Specs) == 1 {
				doc = td.decl.Doc
			}
			if !yield(td.spec, doc) {
				return
			}
		}
	}
}

// Types returns the struct types declared in files whose doc comment (the
// spec's, or a lone spec's declaration's) claims safety for concurrent
// use, in source order.
func Types(files []*ast.File, info *types.Info) []Type {
	var out []Type
	for ts, doc := range StructDocs(files) {
		phrase := Of(doc)
		if phrase == "" {
			continue
		}
		if tn, ok := info.Defs[ts.Name].(*types.TypeName); ok && !aboutMethods(doc, phrase, tn) && !orderedBefore(doc, phrase, tn) {
			out = append(out, Type{Name: tn, Phrase: phrase, Doc: doc, Spec: ts})
		}
	}
	return out
}

// aboutMethods reports whether the sentence that makes the claim is about
// some methods of tn, not the type: "Both the Read and Write are
// thread-safe" says nothing of Connect, so it is no promise that any two
// exported methods may run at once.
func aboutMethods(doc *ast.CommentGroup, phrase string, tn *types.TypeName) bool {
	if phrase == Directive {
		return false
	}
	text := strings.Join(strings.Fields(doc.Text()), " ")
	at := strings.Index(strings.ToLower(text), phrase)
	if at < 0 {
		return false
	}
	start := strings.LastIndex(text[:at], ". ") + 1
	subject := strings.FieldsFunc(text[start:at], func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	})
	mset := types.NewMethodSet(types.NewPointer(tn.Type()))
	named := false
	for _, w := range subject {
		if w == tn.Name() || strings.EqualFold(w, "it") {
			return false // the type itself is the subject
		}
		if sel := mset.Lookup(tn.Pkg(), w); sel != nil && ast.IsExported(w) {
			named = true
		}
	}
	return named
}

// beforeRe: "must be called before the first call to Open".
var beforeRe = regexp.MustCompile(`(?i)\bmust\s+be\s+(?:called|made|done|registered|set)\s+before\s+(?:the\s+first\s+(?:call\s+to\s+|use\s+of\s+)?|any\s+call\s+to\s+|calling\s+)?([A-Za-z_][A-Za-z0-9_]*)`)

// orderedBefore reports whether doc orders some calls before an exported
// method of tn ("Registration methods must be called before the first
// call to Open"): it then promises no more than that the other methods
// may run at once with each other, not with that method.
func orderedBefore(doc *ast.CommentGroup, phrase string, tn *types.TypeName) bool {
	if phrase == Directive {
		return false
	}
	mset := types.NewMethodSet(types.NewPointer(tn.Type()))
	for _, m := range beforeRe.FindAllStringSubmatch(strings.Join(strings.Fields(doc.Text()), " "), -1) {
		if ast.IsExported(m[1]) && mset.Lookup(tn.Pkg(), m[1]) != nil {
			return true
		}
	}
	return false
}

// OrdersBefore reports whether doc, tn's doc comment, orders some calls
// before tn's method named method ("Registration methods must be called
// before the first call to Open" for Open).
func OrdersBefore(doc *ast.CommentGroup, tn *types.TypeName, method string) bool {
	if doc == nil {
		return false
	}
	for _, m := range beforeRe.FindAllStringSubmatch(strings.Join(strings.Fields(doc.Text()), " "), -1) {
		if m[1] == method {
			return true
		}
	}
	return false
}

// Disclaimed returns the struct types declared in files whose doc comment
// says they are not safe for concurrent use.
func Disclaimed(files []*ast.File, info *types.Info) map[*types.TypeName]bool {
	out := map[*types.TypeName]bool{}
	for ts, doc := range StructDocs(files) {
		if !Disclaims(doc) {
			continue
		}
		if tn, ok := info.Defs[ts.Name].(*types.TypeName); ok {
			out[tn] = true
		}
	}
	return out
}

// DisclaimedInterfaces returns the interface types declared in files
// whose doc comment (the spec's, or a lone spec's declaration's) says
// their values are not safe for concurrent use: the callers serialize
// every call of the interface's methods.
func DisclaimedInterfaces(files []*ast.File, info *types.Info) map[*types.TypeName]bool {
	out := map[*types.TypeName]bool{}
	for td := range typeDecls(files) {
		if _, ok := td.spec.Type.(*ast.InterfaceType); !ok {
			continue
		}
		doc := td.spec.Doc
		if doc == nil && len(td.decl.Specs) == 1 {
			doc = td.decl.Doc
		}
		if !Disclaims(doc) {
			continue
		}
		if tn, ok := info.Defs[td.spec.Name].(*types.TypeName); ok {
			out[tn] = true
		}
	}
	return out
}
