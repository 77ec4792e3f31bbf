package lockset

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"
)

// How a field's guard is documented.
const (
	ByAnnotation = "annotation" // on the field: "guarded by mu", +checklocks:mu
	ByBlock      = "block"      // on the mutex or a group: "mu protects the fields below"
	ByName       = "name"       // on the mutex, naming the field: "fooLock protects 'foo'"
)

// Lock documentation written on the mutex (or on the first field of a
// group) rather than on each field.
var (
	// blockRe: the comment covers the fields that follow it.
	blockRe = regexp.MustCompile(`(?i)\b(?:protects?|protecting|guards?|guarding|covers?|serializes?)\b[^.;:]{0,40}?\b(?:below|following|after\s+(?:it|this|me)|that\s+follow|hereafter|underneath|beneath)\b` +
		`|\b(?:below|following)\s+(?:fields?|members?|variables?|vars|ones|state|are|is)\b[^.;]{0,30}?\b(?:guarded|protected|locked)\s+by\b` +
		`|\b(?:fields?|members?|variables?|vars|everything|all)\s+(?:below|following|after\s+(?:it|this))\b[^.;]{0,30}?\b(?:guarded|protected|locked)\s+by\b` +
		`|\b(?:fields|members|variables)\b[^.;]{0,40}?\b(?:guarded|protected|locked)\s+by\b` +
		`|^\s*(?:guarded|protected|locked)\s+by\s+(?:the\s+)?[A-Za-z_][A-Za-z0-9_.]*\s*:\s*$`)
	// namedRe: "mu protects conns and state" (the rest of the sentence
	// names the fields; a "." left in a sentence is inside a dotted name).
	namedRe = regexp.MustCompile(`(?i)\b(?:protects|guards|serializes\s+access\s+to|protects\s+access\s+to|guards\s+access\s+to|(?:mutex|lock)\s+(?:for|protecting|guarding))\b([^;]*)`)
	// negRe: a negation before a match voids it.
	negRe = regexp.MustCompile(`(?i)\b(?:not|never|no\s+longer|nothing|doesn't|don't|isn't|aren't)\b`)
	// partialRe: a guard limited to some uses ("protects the options in a
	// few limited cases where needed for testing") is no discipline for
	// the other accesses.
	partialRe = regexp.MustCompile(`(?i)\b(?:in\s+(?:a\s+few|some|certain|rare|limited)\b|(?:where|when|if)\s+needed\b|for\s+test(?:s|ing)?\b|limited\s+cases|sometimes|partially)`)
	pathRe    = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*`)
)

// DocGuards returns the documented guard of each struct field declared in
// files: FieldGuards' per-field annotations, plus
//   - a comment on a mutex field that covers the fields after it ("mu
//     protects the fields below", "guards the following"), up to a blank
//     line, the next mutex field, or the end of the struct;
//   - the same on the first field of a group ("The following are
//     protected by mu", or "Protected by mu." alone), from that field on;
//   - a comment on a mutex field that names sibling fields ("fooLock
//     protects 'foo'", "mu guards conns and state").
//
// A field whose own comment names another guard, disclaims one ("not
// guarded", "atomic", "immutable", "read-only") or that has a sync or
// sync/atomic type is not covered by a block. Guard.How says which form
// was read.
func DocGuards(fset *token.FileSet, files []*ast.File, info *types.Info) map[*types.Var]Guard {
	out := FieldGuards(files, info)
	for k, g := range out {
		g.How = ByAnnotation
		out[k] = g
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			st, ok := n.(*ast.StructType)
			if !ok || st.Fields == nil {
				return true
			}
			tst, ok := info.Types[st].Type.(*types.Struct)
			if !ok {
				return true
			}
			blockGuards(fset, st, tst, info, out)
			return true
		})
	}
	return out
}

// blockGuards adds the block and name guards of one struct type.
func blockGuards(fset *token.FileSet, st *ast.StructType, tst *types.Struct, info *types.Info, out map[*types.Var]Guard) {
	list := st.Fields.List
	line := func(p token.Pos) int { return fset.Position(p).Line }
	var mu *types.Var // the mutex a block in progress is documented by
	var docPos token.Pos
	for i, fld := range list {
		if i > 0 && mu != nil {
			prev := list[i-1]
			end := prev.End()
			if prev.Comment != nil && prev.Comment.End() > end {
				end = prev.Comment.End()
			}
			start := fld.Pos()
			if fld.Doc != nil {
				start = fld.Doc.Pos()
			}
			if line(start) > line(end)+1 {
				mu = nil // a blank line ends the block
			}
		}
		text := fld.Doc.Text() + "\n" + fld.Comment.Text()
		if v := fieldVar(fld, info); v != nil && IsMutex(v.Type()) {
			mu = nil
			if hasBlockDoc(text) {
				mu, docPos = v, commentPos(fld)
			}
			for _, name := range namedFields(text, tst, v) {
				if _, done := out[name]; !done {
					out[name] = Guard{Mutex: v, Pos: fieldPos(name, fld), Doc: commentPos(fld), How: ByName}
				}
			}
			continue
		}
		// A group comment above a plain field: "The following are
		// guarded by mu." (a line comment speaks for its own line only).
		if m := fieldGuardRe.FindStringSubmatch(fld.Doc.Text()); m != nil && hasBlockDoc(fld.Doc.Text()) && !alsoRe.MatchString(text) {
			if g := siblingMutex(tst, strings.TrimRight(m[1]+m[2], ".")); g != nil {
				mu, docPos = g, commentPos(fld)
			}
		}
		if mu == nil {
			continue
		}
		if disclaims(text) {
			continue
		}
		for _, id := range fld.Names {
			v, ok := info.Defs[id].(*types.Var)
			if !ok || IsSyncType(v.Type()) {
				continue
			}
			if _, done := out[v]; !done {
				out[v] = Guard{Mutex: mu, Pos: id.Pos(), Doc: docPos, How: ByBlock}
			}
		}
		if len(fld.Names) == 0 { // embedded field
			if v := fieldVar(fld, info); v != nil && !IsSyncType(v.Type()) {
				if _, done := out[v]; !done {
					out[v] = Guard{Mutex: mu, Pos: fld.Type.Pos(), Doc: docPos, How: ByBlock}
				}
			}
		}
	}
}

// hasBlockDoc reports whether text documents a guard over the fields that
// follow, without negating it.
func hasBlockDoc(text string) bool {
	for _, sent := range sentences(text) {
		loc := blockRe.FindStringIndex(sent)
		if loc != nil && !negRe.MatchString(sent[:loc[1]]) && !partialRe.MatchString(sent) {
			return true
		}
	}
	return false
}

// namedFields returns the sibling fields that the comment of mutex mu
// names as protected: "fooLock protects 'foo'", "mu guards a, b and c".
func namedFields(text string, tst *types.Struct, mu *types.Var) []*types.Var {
	var out []*types.Var
	for _, sent := range sentences(text) {
		m := namedRe.FindStringSubmatchIndex(sent)
		if m == nil || negRe.MatchString(sent[:m[1]]) || partialRe.MatchString(sent) {
			continue
		}
		for _, w := range pathRe.FindAllString(sent[m[2]:m[3]], -1) {
			// "config.URL" guards that sub-field only, not config;
			// "s.conns" names the field conns through a receiver.
			if i := strings.LastIndexByte(w, '.'); i >= 0 {
				if fieldNamed(tst, w[:strings.IndexByte(w, '.')]) != nil || strings.Count(w, ".") > 1 {
					continue
				}
				w = w[i+1:]
			}
			f := fieldNamed(tst, w)
			if f == nil || f == mu || IsMutex(f.Type()) || IsSyncType(f.Type()) {
				continue
			}
			out = append(out, f)
		}
	}
	return out
}

// disclaimRe: a field's own comment says it needs no lock, or names
// another one.
var disclaimRe = regexp.MustCompile(`(?i)\b(?:atomic(?:ally)?|immutable|read-?only|constant|never\s+(?:changes?|modified|written)|not\s+(?:guarded|protected)|unguarded|lock-?free|set\s+(?:once|at\s+(?:creation|construction|init))|(?:guarded|protected)\s+by)\b`)

func disclaims(text string) bool { return disclaimRe.MatchString(text) }

// sentences splits text at '.', ';' and line ends; a '.' inside a dotted
// name ("config.URL") does not end a sentence.
func sentences(text string) []string {
	text = strings.Join(strings.Fields(text), " ")
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '.' && i > 0 && i+1 < len(text) && isIdent(text[i-1]) && isIdent(text[i+1]) {
			continue
		}
		if c == '.' || c == ';' || c == '\n' {
			if i > start {
				out = append(out, text[start:i])
			}
			start = i + 1
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

func isIdent(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func fieldVar(fld *ast.Field, info *types.Info) *types.Var {
	if len(fld.Names) > 0 {
		v, _ := info.Defs[fld.Names[0]].(*types.Var)
		return v
	}
	// Embedded: Defs maps the type name to the field.
	t := fld.Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	var id *ast.Ident
	switch x := t.(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	case *ast.IndexExpr:
		if i, ok := x.X.(*ast.Ident); ok {
			id = i
		}
	}
	if id == nil {
		return nil
	}
	v, _ := info.Defs[id].(*types.Var)
	return v
}

func fieldPos(v *types.Var, fld *ast.Field) token.Pos {
	if v.Pos().IsValid() {
		return v.Pos()
	}
	return fld.Pos()
}

func commentPos(fld *ast.Field) token.Pos {
	if fld.Doc != nil {
		return fld.Doc.Pos()
	}
	if fld.Comment != nil {
		return fld.Comment.Pos()
	}
	return fld.Pos()
}

func fieldNamed(s *types.Struct, name string) *types.Var {
	for i := 0; i < s.NumFields(); i++ {
		if s.Field(i).Name() == name {
			return s.Field(i)
		}
	}
	return nil
}

func siblingMutex(s *types.Struct, name string) *types.Var {
	if f := fieldNamed(s, name); f != nil && IsMutex(f.Type()) {
		return f
	}
	return nil
}
