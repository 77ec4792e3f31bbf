package static

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/interleave-dev/interleave/checks"
)

// The suppression grammar: the directive, then one or more comma-separated
// rule IDs (or slugs), then a mandatory reason.
//
//	//interleave:ignore IL1001 only called before the value is shared
//	//interleave:ignore IL1001,IL2001 reason
//
// A directive covers its own line and the line below it; in a function's
// doc comment it covers the whole function.
const ignoreDirective = "//interleave:ignore"

// The rules of the suppression directives, reported by the runner, not by
// a pass.
const (
	// ToolFamily is the prefix of the rules of the tool itself.
	ToolFamily = "IL0"

	RuleMalformedDirective = "IL0001"
	RuleUnusedDirective    = "IL0002"
)

// Directive lists the rules of the suppression directives.
var Directive = []checks.Rule{
	{ID: RuleMalformedDirective, Slug: "malformed-directive", Title: "Malformed interleave directive", Severity: checks.Warning, Level: checks.Default, Since: "0.1",
		Text: "An `//interleave:ignore` directive must name one or more rule IDs and give a reason: `//interleave:ignore IL1001 only called before the value is shared`."},
	{ID: RuleUnusedDirective, Slug: "unused-directive", Title: "Suppression that matched nothing", Severity: checks.Note, Level: checks.Default, Since: "0.1",
		Text: "An `//interleave:ignore` directive suppressed no finding; remove it so it does not hide a future one."},
}

// directive is one parsed //interleave:ignore comment.
type directive struct {
	pos        checks.Position
	pkg        string
	rules      []string // rule IDs
	text       string   // the comment as written
	start, end int      // lines covered, inclusive
	used       bool
}

// sourceFile is what the runner needs to know about one file the user wrote:
// its lines, whether it is generated, its functions and its directives.
type sourceFile struct {
	lines      [][]byte
	generated  bool
	funcs      []funcRange
	directives []*directive
	malformed  []checks.Finding
}

type funcRange struct {
	name       string
	start, end int // lines, inclusive
}

// converter turns diagnostics into findings, reading each source file the
// findings point into at most once.
type converter struct {
	pkgOf map[string]string // file name -> import path of a root package holding it
	files map[string]*sourceFile
	rules []checks.Rule // what a directive may name
}

func newConverter(roots []*packages.Package, rules []checks.Rule) *converter {
	c := &converter{pkgOf: map[string]string{}, files: map[string]*sourceFile{}, rules: rules}
	for _, p := range roots {
		for _, f := range p.GoFiles {
			if _, ok := c.pkgOf[f]; !ok {
				c.pkgOf[f] = p.PkgPath
			}
		}
	}
	return c
}

// file reads and parses name. A file that cannot be read or parsed (a
// //line target that is not Go) yields a sourceFile with what is known.
func (c *converter) file(name string) *sourceFile {
	if sf, ok := c.files[name]; ok {
		return sf
	}
	sf := &sourceFile{}
	c.files[name] = sf
	src, err := os.ReadFile(name)
	if err != nil {
		return sf
	}
	sf.lines = bytes.Split(src, []byte("\n"))
	if !strings.HasSuffix(name, ".go") {
		// A //line directive points into the real source (a .y grammar,
		// a template): the Go file was generated from it.
		sf.generated = true
		return sf
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if f == nil {
		return sf
	}
	_ = err // a partial AST still has the functions and comments we need
	sf.generated = ast.IsGenerated(f)
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok {
			continue
		}
		sf.funcs = append(sf.funcs, funcRange{
			name:  funcName(fd),
			start: fset.Position(fd.Pos()).Line,
			end:   fset.Position(fd.End()).Line,
		})
	}
	if sf.generated || !bytes.Contains(src, []byte(ignoreDirective)) {
		return sf
	}
	docOf := map[*ast.CommentGroup]*ast.FuncDecl{}
	for _, decl := range f.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok && fd.Doc != nil {
			docOf[fd.Doc] = fd
		}
	}
	for _, cg := range f.Comments {
		for _, cm := range cg.List {
			if !strings.HasPrefix(cm.Text, ignoreDirective) {
				continue
			}
			rest := strings.TrimPrefix(cm.Text, ignoreDirective)
			if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
				continue // //interleave:ignorefoo is some other directive
			}
			p := fset.Position(cm.Pos())
			pos := checks.Position{File: name, Line: p.Line, Column: p.Column}
			rules, problem := parseIgnore(rest, c.rules)
			if problem != "" {
				sf.malformed = append(sf.malformed, checks.Finding{
					Rule:     RuleMalformedDirective,
					Message:  problem,
					Pos:      pos,
					Evidence: checks.Static,
					Package:  c.pkgOf[name],
					Snippet:  strings.TrimSpace(cm.Text),
				})
				continue
			}
			d := &directive{pos: pos, pkg: c.pkgOf[name], rules: rules, text: cm.Text, start: p.Line, end: p.Line + 1}
			if fd := docOf[cg]; fd != nil {
				d.start, d.end = fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line
			}
			sf.directives = append(sf.directives, d)
		}
	}
	return sf
}

// parseIgnore parses what follows //interleave:ignore. It returns the rule
// IDs, or a diagnostic message saying what is wrong.
func parseIgnore(rest string, known []checks.Rule) (rules []string, problem string) {
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return nil, "malformed //interleave:ignore directive: missing the rule ID and the reason"
	}
	if len(fields) == 1 {
		return nil, fmt.Sprintf("malformed //interleave:ignore directive: missing the reason after %s", fields[0])
	}
	for _, name := range strings.Split(fields[0], ",") {
		if name == "" {
			return nil, fmt.Sprintf("malformed //interleave:ignore directive: empty rule ID in %q", fields[0])
		}
		r, ok := ruleIn(known, name)
		if !ok {
			return nil, fmt.Sprintf("malformed //interleave:ignore directive: unknown rule %q", name)
		}
		rules = append(rules, r.ID)
	}
	return rules, ""
}

// funcName names a function the way the fingerprint wants it: F, T.M.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.ParenExpr:
			t = x.X
			continue
		}
		break
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// findings converts in-process diagnostics.
func (c *converter) findings(diags []diagnostic) []checks.Finding {
	resolved := make([]resolvedDiagnostic, 0, len(diags))
	for _, dg := range diags {
		fset := dg.pkg.Fset
		rd := resolvedDiagnostic{pass: dg.pass, pkgPath: dg.pkg.PkgPath, category: dg.d.Category, message: dg.d.Message,
			pos: position(fset, dg.d.Pos, dg.d.End)}
		for _, ri := range dg.d.Related {
			rd.related = append(rd.related, checks.Related{Position: position(fset, ri.Pos, ri.End), Message: ri.Message})
		}
		resolved = append(resolved, rd)
	}
	return c.convert(resolved)
}

// resolvedDiagnostic is a diagnostic of either driver, its positions
// resolved to file, line and column.
type resolvedDiagnostic struct {
	pass              Pass
	pkgPath           string
	category, message string
	pos               checks.Position
	related           []checks.Related
}

// convert turns diagnostics into findings, dropping those in generated
// files and positions that point nowhere.
func (c *converter) convert(diags []resolvedDiagnostic) []checks.Finding {
	var out []checks.Finding
	for _, dg := range diags {
		if !dg.pos.IsValid() {
			continue // nowhere to show it; a pass bug, not a finding
		}
		sf := c.file(dg.pos.File)
		if sf.generated {
			continue
		}
		r, ok := ruleIn(dg.pass.Rules, dg.category)
		if !ok {
			// No category, or one that is not an ID of this pass: the
			// pass's first rule owns it.
			r = dg.pass.Rules[0]
		}
		f := checks.Finding{
			Rule:     r.ID,
			Severity: r.Severity,
			Message:  dg.message,
			Pos:      dg.pos,
			Evidence: checks.Static,
			Package:  dg.pkgPath,
			Func:     sf.funcAt(dg.pos.Line),
			Snippet:  sf.line(dg.pos.Line),
		}
		for _, rel := range dg.related {
			if rel.IsValid() {
				f.Related = append(f.Related, rel)
			}
		}
		out = append(out, f)
	}
	return out
}

func ruleIn(rules []checks.Rule, id string) (checks.Rule, bool) {
	for _, r := range rules {
		if r.ID == id || (id != "" && r.Slug == id) {
			return r, true
		}
	}
	return checks.Rule{}, false
}

func (sf *sourceFile) line(n int) string {
	if n < 1 || n > len(sf.lines) {
		return ""
	}
	return strings.TrimSpace(string(sf.lines[n-1]))
}

// funcAt names the innermost function declaration around line n.
func (sf *sourceFile) funcAt(n int) string {
	for _, fr := range sf.funcs {
		if fr.start <= n && n <= fr.end {
			return fr.name
		}
	}
	return ""
}

// applyDirectives drops suppressed findings and adds the directive rules'
// own findings: IL0001 for a malformed directive, IL0002 for one that
// suppressed nothing although one of its rules ran.
func (c *converter) applyDirectives(fs []checks.Finding, enabled map[string]bool) []checks.Finding {
	// Every file of the analyzed packages may hold a directive, including
	// files without findings (that is how unused ones are found).
	for name := range c.pkgOf {
		if _, ok := c.files[name]; ok {
			continue
		}
		if src, err := os.ReadFile(name); err == nil && bytes.Contains(src, []byte(ignoreDirective)) {
			c.file(name)
		}
	}
	out := fs[:0]
	for _, f := range fs {
		if !c.suppressed(f) {
			out = append(out, f)
		}
	}
	rule := func(id string) checks.Rule { r, _ := ruleIn(Directive, id); return r }
	for _, sf := range c.files {
		for _, m := range sf.malformed {
			m.Severity = rule(RuleMalformedDirective).Severity
			m.Func = sf.funcAt(m.Pos.Line)
			out = append(out, m)
		}
		for _, d := range sf.directives {
			if d.used || !anyEnabled(d.rules, enabled) {
				continue
			}
			out = append(out, checks.Finding{
				Rule:     RuleUnusedDirective,
				Severity: rule(RuleUnusedDirective).Severity,
				Message:  fmt.Sprintf("directive %s matched no finding", strings.Join(strings.Fields(d.text)[:2], " ")),
				Pos:      d.pos,
				Evidence: checks.Static,
				Package:  d.pkg,
				Func:     sf.funcAt(d.pos.Line),
				Snippet:  sf.line(d.pos.Line),
			})
		}
	}
	return out
}

func (c *converter) suppressed(f checks.Finding) bool {
	sf := c.file(f.Pos.File)
	hit := false
	for _, d := range sf.directives {
		if d.start <= f.Pos.Line && f.Pos.Line <= d.end && slices.Contains(d.rules, f.Rule) {
			d.used = true // keep looking: every directive that covers it is used
			hit = true
		}
	}
	return hit
}

func anyEnabled(ids []string, enabled map[string]bool) bool {
	for _, id := range ids {
		if enabled[id] {
			return true
		}
	}
	return false
}
