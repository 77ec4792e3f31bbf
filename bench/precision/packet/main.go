// Command packet finds, by syntax alone, the source ranges a triage packet
// quotes: the top-level declaration enclosing a line, and the struct types
// of a package that declare a given field or have a given name.
//
//	packet decl FILE LINE...    -> one JSON object per line: {file, line, name, start, end}
//	packet types DIR NAME...    -> JSON array: struct types with a field NAME or named NAME
//	packet funcs DIR NAME...    -> JSON array: functions and methods named NAME
//
// It prints JSON on standard output for bench/precision/packets.py.
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Range is a declaration's lines.
type Range struct {
	File  string `json:"file"`
	Line  int    `json:"line,omitempty"` // the line asked about (decl)
	Name  string `json:"name"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	Match string `json:"match,omitempty"` // types: the name that matched
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: packet decl FILE LINE... | packet types DIR NAME... | packet funcs DIR NAME...")
		os.Exit(2)
	}
	var out any
	var err error
	switch os.Args[1] {
	case "decl":
		out, err = decls(os.Args[2], os.Args[3:])
	case "types":
		out, err = types(os.Args[2], os.Args[3:])
	case "funcs":
		out, err = funcs(os.Args[2], os.Args[3:])
	default:
		err = fmt.Errorf("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "packet:", err)
		os.Exit(2)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "packet:", err)
		os.Exit(1)
	}
}

func decls(file string, lines []string) ([]Range, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var res []Range
	for _, s := range lines {
		line, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("bad line %q", s)
		}
		r := Range{File: file, Line: line}
		for _, d := range f.Decls {
			start, end := fset.Position(d.Pos()).Line, fset.Position(d.End()).Line
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
				start = fset.Position(fd.Doc.Pos()).Line
			}
			if gd, ok := d.(*ast.GenDecl); ok && gd.Doc != nil {
				start = fset.Position(gd.Doc.Pos()).Line
			}
			if line < start || line > end {
				continue
			}
			r.Start, r.End, r.Name = start, end, declName(d)
			break
		}
		res = append(res, r)
	}
	return res, nil
}

func declName(d ast.Decl) string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil && len(d.Recv.List) == 1 {
			return "(" + recvType(d.Recv.List[0].Type) + ")." + d.Name.Name
		}
		return d.Name.Name
	case *ast.GenDecl:
		var names []string
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					names = append(names, n.Name)
				}
			}
		}
		return d.Tok.String() + " " + strings.Join(names, ", ")
	}
	return ""
}

func recvType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return "*" + recvType(e.X)
	case *ast.IndexExpr:
		return recvType(e.X)
	case *ast.IndexListExpr:
		return recvType(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}

// types lists the struct types of the package in dir (all its .go files,
// tests included) that are named one of names or declare a field of one
// of those names (embedded fields by their type name).
func types(dir string, names []string) ([]Range, error) {
	want := nameSet(names)
	fset, files, err := parseDir(dir)
	if err != nil {
		return nil, err
	}
	res := []Range{}
	for _, pf := range files {
		file, f := pf.name, pf.file
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				match := ""
				if want[ts.Name.Name] {
					match = ts.Name.Name
				} else if st, ok := ts.Type.(*ast.StructType); ok {
					match = fieldMatch(st, want)
				}
				if match == "" {
					continue
				}
				start, end := fset.Position(ts.Pos()).Line, fset.Position(ts.End()).Line
				if len(gd.Specs) == 1 {
					start, end = fset.Position(gd.Pos()).Line, fset.Position(gd.End()).Line
					if gd.Doc != nil {
						start = fset.Position(gd.Doc.Pos()).Line
					}
				} else if ts.Doc != nil {
					start = fset.Position(ts.Doc.Pos()).Line
				}
				res = append(res, Range{File: file, Name: ts.Name.Name, Start: start, End: end, Match: match})
			}
		}
	}
	return res, nil
}

func fieldMatch(st *ast.StructType, want map[string]bool) string {
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			n := strings.TrimPrefix(recvType(f.Type), "*")
			if sel, ok := f.Type.(*ast.SelectorExpr); ok {
				n = sel.Sel.Name
			}
			if want[n] {
				return n
			}
		}
		for _, n := range f.Names {
			if want[n.Name] {
				return n.Name
			}
		}
	}
	return ""
}

// funcs lists the functions and methods of the package in dir named one of
// names, with their doc comments.
func funcs(dir string, names []string) ([]Range, error) {
	want := nameSet(names)
	fset, files, err := parseDir(dir)
	if err != nil {
		return nil, err
	}
	res := []Range{}
	for _, pf := range files {
		file, f := pf.name, pf.file
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !want[fd.Name.Name] {
				continue
			}
			start := fset.Position(fd.Pos()).Line
			if fd.Doc != nil {
				start = fset.Position(fd.Doc.Pos()).Line
			}
			res = append(res, Range{File: file, Name: declName(fd), Start: start, End: fset.Position(fd.End()).Line, Match: fd.Name.Name})
		}
	}
	return res, nil
}

func nameSet(names []string) map[string]bool {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	return want
}

type parsedFile struct {
	name string
	file *ast.File
}

// parseDir parses the package's .go files in dir (tests included), in
// name order; a file that does not parse (another build's, or broken) is
// left out: it is not needed.
func parseDir(dir string) (*token.FileSet, []parsedFile, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(names)
	fset := token.NewFileSet()
	var files []parsedFile
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		files = append(files, parsedFile{name, f})
	}
	return fset, files, nil
}
