// Package stdsyntax lets a go/packages load that needs its dependencies'
// syntax read the standard library's without function bodies.
package stdsyntax

import (
	"bytes"
	"crypto/sha256"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// ParseFile is a packages.Config.ParseFile that parses the standard
// library's files (under goroot, when known) without the bodies of their
// functions: nothing here rewrites or reads them, and type-checking them
// was most of a load's time. Generic functions and init keep a body, as
// go/types wants one, but a "for{}" in place of theirs; the package-level
// values' composite literals are empty, a [...]T one but its last element
// (blankBodies, before the parse).
// The declarations, and so every type the module's code uses, are whole.
// Other files are parsed as the loader does.
func ParseFile(goroot string) func(*token.FileSet, string, []byte) (*ast.File, error) {
	std := ""
	if goroot != "" {
		std = filepath.Join(goroot, "src") + string(filepath.Separator)
	}
	return func(fset *token.FileSet, name string, src []byte) (*ast.File, error) {
		// The loader's own mode (it resolves objects) outside.
		mode := parser.AllErrors | parser.ParseComments
		inStd := std != "" && strings.HasPrefix(name, std)
		if inStd {
			mode |= parser.SkipObjectResolution
			src = blanked(src)
		}
		f, err := parser.ParseFile(fset, name, src, mode)
		if f == nil || !inStd {
			return f, err
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && !pkgInit(fd) && !genericFunc(fd) {
				fd.Body = nil
			}
		}
		return f, err
	}
}

// blankCache holds blankBodies' output by its input's SHA-256, for the
// process: every load of a module reads the standard library again (pr
// instruments the head, the base and gen's tests; a test binary, many
// modules), and blanking was half of its parse. Content keys it, not the
// file's name: another GOROOT's file of that name is another key.
var blankCache struct {
	sync.Mutex
	m     map[[sha256.Size]byte][]byte // nil: blankBodies returned its input
	bytes int
	hits  int // for tests
}

// maxBlankCache bounds the bytes blankCache keeps (a standard library's
// sources are some tens of megabytes); past it, files are blanked anew.
const maxBlankCache = 256 << 20

// blanked is blankBodies(src), from blankCache when src was blanked before.
func blanked(src []byte) []byte {
	key := sha256.Sum256(src)
	c := &blankCache
	c.Lock()
	out, ok := c.m[key]
	if ok {
		c.hits++
	}
	c.Unlock()
	if ok {
		if out == nil {
			return src
		}
		return out
	}
	out = blankBodies(src)
	keep := out
	if len(out) > 0 && len(src) > 0 && &out[0] == &src[0] {
		keep = nil // unchanged: the caller's bytes are not held
	}
	c.Lock()
	if _, ok := c.m[key]; !ok && c.bytes+len(keep) <= maxBlankCache {
		if c.m == nil {
			c.m = map[[sha256.Size]byte][]byte{}
		}
		c.m[key] = keep
		c.bytes += len(keep)
	}
	c.Unlock()
	return out
}

// blank turns b[from:to] into spaces but its newlines.
func blank(b []byte, from, to int) {
	for i := from; i < to; i++ {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
}

// arrayKey is where, in src[from:last], a [...]T literal of n unkeyed
// elements whose last begins at last can hold "n-1:" once the elements
// before it are blanked (the start of the last line there with room:
// blanks and newlines only may follow a key), or -1. The literal then
// keeps its length, and so its type, with one element to check.
func arrayKey(src []byte, from, last, n int) int {
	size := len(strconv.Itoa(n-1)) + 1
	end := last
	for end > from {
		start := bytes.LastIndexByte(src[from:end], '\n') + 1 + from
		if end-start >= size {
			return start
		}
		end = start - 1
	}
	return -1
}

// pkgInit: fd is a package's init function (not a method named init).
func pkgInit(fd *ast.FuncDecl) bool { return fd.Recv == nil && fd.Name.Name == "init" }

// genericFunc: fd has type parameters, or is a method of a generic type.
func genericFunc(fd *ast.FuncDecl) bool {
	if fd.Type.TypeParams != nil {
		return true
	}
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return false
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch t.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// blankBodies returns src with the inside of some top-level braces
// blanked (spaces, newlines kept: every position stays): the bodies of
// function declarations and of package-level function literals, and the
// composite literals of package-level variables; a [...]T literal, whose
// length is part of its type, keeps its last element keyed by its index
// when none is keyed (arrayKey: crypto's and x/text's tables of tens of
// thousands of elements). A body ParseFile keeps (init's, a generic
// function's) and a function literal's become "for{}", a terminating
// statement: it type-checks whatever the results (a line of the body
// with room for it holds it; a body without one stays). A file it cannot follow (unbalanced braces, a line directive
// inside a region) comes back as it was.
func blankBodies(src []byte) []byte {
	var sc scanner.Scanner
	file := token.NewFileSet().AddFile("", -1, len(src))
	sc.Init(file, src, nil, scanner.ScanComments)
	const loop = "for{}"
	type brace struct {
		off   int  // offset of the '{'
		blank bool // a region to blank
		loop  bool // ... that gets the loop
		array bool // a package-level [...]T literal (arrayKey)
	}
	// In a package-level [...]T literal: its elements, where the last
	// began, whether one is keyed, the depth of ( and [ inside it.
	var (
		elems, lastElem int
		keyed, newElem  bool
		arrParens       int
	)
	var (
		out    []byte // the copy, made at the first region blanked
		braces []brace
		prev   token.Token // the last token that is not a comment
		// Outside braces: the header of a function declaration, from
		// func to its body's '{' (or to the semicolon of one without).
		header  bool
		recv    bool // the header has a receiver
		inRecv  bool // inside the receiver's parentheses
		named   bool // the function's name was read
		name    bool // the last token was the name
		generic bool
		isInit  bool
		parens  int  // depth of ( and [ outside braces
		lit     bool // in a function literal's signature, at depth litAt
		litAt   int
		dots    bool // "...]" read: the next '{' opens a [...]T literal
	)
	for {
		pos, tok, text := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.COMMENT {
			if len(braces) > 0 && (strings.HasPrefix(text, "//line ") || strings.HasPrefix(text, "/*line ")) {
				return src
			}
			continue
		}
		off := file.Offset(pos)
		if len(braces) == 1 && braces[0].array {
			// An element of the literal begins after its '{' or a comma.
			if newElem && tok != token.RBRACE {
				elems, lastElem, newElem = elems+1, off, false
			}
			switch tok {
			case token.LPAREN, token.LBRACK:
				arrParens++
			case token.RPAREN, token.RBRACK:
				arrParens--
			case token.COMMA:
				newElem = arrParens == 0
			case token.COLON:
				keyed = keyed || arrParens == 0
			}
		}
		wasName := name
		name = false
		if len(braces) == 0 {
			switch tok {
			case token.FUNC:
				switch {
				case header || lit:
				case parens == 0 && (prev == token.SEMICOLON || prev == token.ILLEGAL):
					header, recv, inRecv, named, generic, isInit = true, false, false, false, false, false
				case prev == token.ASSIGN || prev == token.LPAREN || prev == token.COMMA || prev == token.COLON:
					lit, litAt = true, parens // not a type: func() after ']' or an identifier
				}
			case token.LPAREN, token.LBRACK:
				if header && tok == token.LPAREN && !named && !recv && parens == 0 {
					recv, inRecv = true, true
				} else if header && tok == token.LBRACK && (inRecv || wasName && parens == 0) {
					generic = true
				}
				parens++
			case token.RPAREN, token.RBRACK:
				parens--
				if parens == 0 {
					inRecv = false
				}
				if lit && parens < litAt {
					lit = false
				}
				if tok == token.RBRACK && prev == token.ELLIPSIS {
					dots = true
				}
			case token.IDENT:
				if header && !named && !inRecv && parens == 0 {
					named, name, isInit = true, true, text == "init" && !recv
				}
			case token.SEMICOLON:
				lit, dots = false, false
				if parens == 0 {
					header = false // a declaration without a body
				}
			}
		}
		switch tok {
		case token.LBRACE:
			b := brace{off: off}
			if len(braces) == 0 && prev != token.STRUCT && prev != token.INTERFACE {
				switch {
				case header:
					if parens == 0 {
						header = false
						b.blank, b.loop = true, generic || isInit
					}
				case lit:
					if parens == litAt {
						lit = false
						b.blank, b.loop = true, true
					}
				case dots:
					dots = false
					b.array = true
					elems, lastElem, keyed, newElem, arrParens = 0, 0, false, true, 0
				default:
					b.blank = true // a composite literal's elements
				}
			}
			braces = append(braces, b)
		case token.RBRACE:
			if len(braces) == 0 {
				return src
			}
			b := braces[len(braces)-1]
			braces = braces[:len(braces)-1]
			if b.array && !keyed && elems > 1 {
				if key := arrayKey(src, b.off+1, lastElem, elems); key >= 0 {
					if out == nil {
						out = append([]byte(nil), src...)
					}
					blank(out, b.off+1, lastElem)
					copy(out[key:], strconv.Itoa(elems-1)+":")
				}
			}
			at := b.off + 1 // where the loop goes: a line with room for it
			if b.loop {
				for at < off {
					k := bytes.IndexByte(src[at:min(at+len(loop), off)], '\n')
					if k < 0 {
						break
					}
					at += k + 1
				}
			}
			if b.blank && (!b.loop || at+len(loop) <= off) {
				if out == nil {
					out = append([]byte(nil), src...)
				}
				blank(out, b.off+1, off)
				if b.loop {
					copy(out[at:], loop)
				}
			}
		}
		prev = tok
	}
	if len(braces) > 0 || parens != 0 || out == nil {
		return src
	}
	return out
}
