package guardedby

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// Annotation grammar. A guard names a mutex field of the same struct
// (mu) or of the receiver (s.mu, for function annotations).
var (
	funcGuardRe = regexp.MustCompile(`(?i)\b(?:called|call)\s+with\s+(?:the\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s+(?:held|locked)` +
		`|\b(?:must|should)\s+hold\s+(?:the\s+)?([A-Za-z_][A-Za-z0-9_.]*)` +
		`|\b([A-Za-z_][A-Za-z0-9_.]*)\s+(?:must|should)\s+be\s+(?:held|locked)` +
		`|\bassumes\s+([A-Za-z_][A-Za-z0-9_.]*)\s+is\s+(?:held|locked)` +
		`|\+checklocks(read)?:([A-Za-z_][A-Za-z0-9_.]*)`)
	// needsRe: "asyncFlush needs bufMtx locked", "needs mtx AND bufMtx
	// locked". Read as a weak requirement on the first mutex named: it
	// sets the entry state, call sites are not checked.
	needsRe = regexp.MustCompile(`(?i)\bneeds?\s+(?:the\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s+(?:(?:and|&)\s+(?:the\s+)?[A-Za-z_][A-Za-z0-9_.]*\s+)?(?:to\s+be\s+)?(?:held|locked)\b`)
	// callOrderRe: the function documents when it may be called relative
	// to another ("must not be called until after WriteHeader", "must be
	// called before invoking Serve", "not safe to call this function until
	// l.Notify has been closed"): the order, not a lock, separates its
	// accesses from the others, as in a constructor.
	callOrderRe = regexp.MustCompile(`(?i)\b(?:must|should|may|can)(?:\s+not|n't)\s+(?:be\s+)?(?:called|used|invoked)\s+(?:until|before|once)\b` +
		`|\bnot\s+safe\s+to\s+(?:call|use)\b[^.;]*\b(?:until|before|unless)\b` +
		`|\b(?:must|should)\s+(?:only\s+)?be\s+(?:called|used|invoked)\s+(?:only\s+)?(?:before|prior\s+to)\b`)
	// lockHeldRe: the doc says the caller holds "the lock" without naming
	// it (nats: "Lock should be held", "Lock is assumed held").
	lockHeldRe = regexp.MustCompile(`(?i)\b(?:read\s+|write\s+)?lock\s+(?:should|must|is|needs\s+to)\s+(?:be\s+)?(?:assumed\s+)?(?:held|acquired|locked)` +
		`|\b(?:called|call|invoked|run)\s+(?:with|while|under)\s+(?:the\s+)?(?:\w+\s+)?lock(?:\s+(?:held|acquired))?\b` +
		`|\bcallers?\s+(?:must|should)\s+(?:hold|have|acquire)\s+(?:the\s+)?(?:\w+\s+)?lock\b` +
		`|\bassumes?\s+(?:that\s+)?(?:the\s+)?(?:\w+\s+)?lock\s+is\s+(?:held|acquired|taken)` +
		`|\block\s+(?:is\s+)?held\s+on\s+entry|\bwith\s+(?:the\s+)?lock\s+held\b`)
	// negationRe: a negation in the same sentence before the match turns
	// a requirement into its opposite ("must not be called with mu
	// held"), which is not read as a requirement.
	negationRe = regexp.MustCompile(`(?i)\b(?:not|never|cannot|without|n't)\b|n't\b`)
	// permissionRe: the words just before a match make it a permission
	// ("Safe to call with r.mu held", "may be called with mu held"), not
	// a requirement.
	permissionRe = regexp.MustCompile(`(?i)\b(?:safe|ok|okay|fine|allowed|may|can|could)\s+(?:(?:to|be)\s+)*$`)
)

// findRequirement returns the submatches of the first match of re in doc
// that no negation precedes in its sentence.
func findRequirement(re *regexp.Regexp, doc string) []string {
	doc = strings.Join(strings.Fields(doc), " ")
	for _, loc := range re.FindAllStringSubmatchIndex(doc, -1) {
		start := 0
		for _, sep := range []string{". ", "; ", "? ", "! "} {
			if i := strings.LastIndex(doc[:loc[0]], sep); i >= 0 && i+len(sep) > start {
				start = i + len(sep)
			}
		}
		if negationRe.MatchString(doc[start:loc[1]]) || permissionRe.MatchString(doc[start:loc[0]]) {
			continue
		}
		out := make([]string, len(loc)/2)
		for i := range out {
			if loc[2*i] >= 0 {
				out[i] = doc[loc[2*i]:loc[2*i+1]]
			}
		}
		return out
	}
	return nil
}

// guard is a documented guard: the mutex field that guards a field.
type guard struct {
	mutex *types.Var // sibling mutex field
	pos   token.Pos  // the annotated field
	doc   token.Pos  // the comment that says so
	how   string     // lockset.ByAnnotation, ByBlock or ByName
}

// guardVerbRe finds the sentence of a comment that documents a guard.
var guardVerbRe = regexp.MustCompile(`(?i)\b(?:protect|guard|serializ|lock|checklocks)`)

// maxQuote bounds a quoted guard sentence.
const maxQuote = 120

// guardQuote returns ` ("…")`: the sentence of the comment at doc that
// documents the guard, whole, so its qualifier ("on the server side",
// "while running") reaches the reader; "" when there is none.
func (pc *passContext) guardQuote(doc token.Pos) string {
	for _, f := range pc.pass.Files {
		if doc < f.Pos() || doc > f.End() {
			continue
		}
		for _, cg := range f.Comments {
			if cg.Pos() != doc {
				continue
			}
			text := strings.Join(strings.Fields(cg.Text()), " ")
			for _, sent := range strings.SplitAfter(text, ". ") {
				sent = strings.TrimSpace(sent)
				if !guardVerbRe.MatchString(sent) {
					continue
				}
				if len(sent) > maxQuote {
					sent = strings.TrimSpace(sent[:maxQuote]) + "…"
				}
				return fmt.Sprintf(" (%q)", sent)
			}
		}
	}
	return ""
}

// describe says how the guard is documented, for messages.
func (g guard) describe() string {
	switch g.how {
	case lockset.ByBlock:
		return "the comment on its block of fields"
	case lockset.ByName:
		return "the comment on " + g.mutex.Name()
	}
	return "annotation"
}

// requirement is a function that must be called with the receiver's
// mutex held.
type requirement struct {
	mutex *types.Var // nil when the name says a lock is held but not which
	mode  lockset.Mode
	why   string // "named fooLocked" or "documented"
	// weak: the doc says "the lock" without naming it. The requirement
	// sets the entry state but is not enforced at call sites (IL1002).
	weak bool
}

// mutexFields returns the mutex fields of struct s.
func mutexFields(s *types.Struct) []*types.Var {
	var out []*types.Var
	for i := 0; i < s.NumFields(); i++ {
		if f := s.Field(i); lockset.IsLock(f.Type()) {
			out = append(out, f)
		}
	}
	return out
}

func fieldByName(s *types.Struct, name string) *types.Var {
	for i := 0; i < s.NumFields(); i++ {
		if s.Field(i).Name() == name {
			return s.Field(i)
		}
	}
	return nil
}

// guardName trims a receiver prefix and trailing punctuation from an
// annotated lock name: "c.mu." -> "mu" when the receiver is c.
func guardName(name, recv string) (string, bool) {
	name = strings.TrimRight(name, ".")
	if recv != "" && strings.HasPrefix(name, recv+".") {
		name = name[len(recv)+1:]
	}
	return name, name != "" && !strings.Contains(name, ".")
}

// fieldGuards collects the documented guards of struct fields.
func fieldGuards(pass *analysis.Pass) map[*types.Var]guard {
	out := map[*types.Var]guard{}
	for f, g := range lockset.DocGuards(pass.Fset, pass.Files, pass.TypesInfo) {
		out[f] = guard{mutex: g.Mutex, pos: g.Pos, doc: g.Doc, how: g.How}
	}
	return out
}

// requirements collects the methods that must be called with the
// receiver's mutex held: named fooLocked, or documented as such.
func requirements(pass *analysis.Pass) map[*types.Func]requirement {
	out := map[*types.Func]requirement{}
	self := newSelfLockers(pass.Files, pass.TypesInfo)
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
				continue
			}
			fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			recv := fn.Signature().Recv()
			if _, isPtr := recv.Type().(*types.Pointer); !isPtr {
				continue // a value receiver copies the mutex
			}
			s, ok := lockset.StructOf(recv.Type())
			if !ok {
				continue
			}
			recvName := ""
			if names := fd.Recv.List[0].Names; len(names) == 1 {
				recvName = names[0].Name
			}
			if m := findRequirement(funcGuardRe, fd.Doc.Text()); m != nil {
				name, ok := guardName(m[1]+m[2]+m[3]+m[4]+m[6], recvName)
				if mu := fieldByName(s, name); ok && mu != nil && lockset.IsLock(mu.Type()) {
					if self.locksFirst(fd, mu, 0) {
						// Holding the receiver's mu would deadlock: the
						// doc means another instance's (selflock.go).
						out[fn] = requirement{why: "ambiguous"}
						continue
					}
					mode := lockset.Exclusive
					if m[5] != "" {
						mode = lockset.Shared
					}
					out[fn] = requirement{mutex: mu, mode: mode, why: "documented as requiring it"}
					continue
				}
			}
			if m := findRequirement(needsRe, fd.Doc.Text()); m != nil {
				name, ok := guardName(m[1], recvName)
				if mu := fieldByName(s, name); ok && mu != nil && lockset.IsLock(mu.Type()) {
					out[fn] = requirement{mutex: mu, mode: lockset.Exclusive, why: "documented as needing it", weak: true}
					continue
				}
			}
			if findRequirement(lockHeldRe, fd.Doc.Text()) != nil {
				if mus := mutexFields(s); len(mus) == 1 && !nestedMutex(s) {
					out[fn] = requirement{mutex: mus[0], mode: lockset.Exclusive, why: "documented as called with the lock held", weak: true}
				} else {
					out[fn] = requirement{why: "ambiguous"}
				}
				continue
			}
			name := fd.Name.Name
			if !strings.HasSuffix(name, "Locked") || strings.HasSuffix(name, "Unlocked") || name == "Locked" {
				continue
			}
			mus := mutexFields(s)
			if len(mus) != 1 || nestedMutex(s) || lockedParam(fn.Signature()) {
				// Which lock is meant is unclear (stopLocked(b) may mean
				// b.mu): the method holds one, so its accesses prove
				// nothing either way.
				out[fn] = requirement{why: "ambiguous"}
				continue
			}
			mode := lockset.Exclusive
			if strings.HasSuffix(name, "RLocked") {
				mode = lockset.Shared
			}
			if locksItself(fd.Body, recvName, mus[0]) || self.locksFirst(fd, mus[0], 0) {
				continue // fooLocked(needLock bool): the name does not bind callers
			}
			out[fn] = requirement{mutex: mus[0], mode: mode, why: "its name says the lock is held"}
		}
	}
	return out
}

// callOrdered returns the functions and methods whose doc fixes when they
// may be called relative to others (callOrderRe).
func callOrdered(pass *analysis.Pass) map[*types.Func]bool {
	out := map[*types.Func]bool{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil {
				continue
			}
			text := strings.Join(strings.Fields(fd.Doc.Text()), " ")
			if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok && callOrderRe.MatchString(text) {
				out[fn] = true
			}
		}
	}
	return out
}

// forbidRe: the doc says the function must be called WITHOUT the lock
// ("must not be called with c.mu held", "can not be called with mu
// locked", "must be called without holding mu", "mu must not be held").
var forbidRe = regexp.MustCompile(`(?i)\b(?:must|should|can|may)(?:\s*not|n't)\s+be\s+(?:called|invoked|run)\s+(?:with|while\s+holding|under)\s+(?:the\s+)?([A-Za-z_][A-Za-z0-9_.]*)` +
	`|\b(?:must|should)\s+be\s+(?:called|invoked)\s+without\s+(?:holding\s+)?(?:the\s+)?([A-Za-z_][A-Za-z0-9_.]*)` +
	`|\b([A-Za-z_][A-Za-z0-9_.]*)\s+(?:must|should)\s+not\s+be\s+(?:held|locked)`)

// whenCallingRe: the rest of a "must not be held" sentence names the
// function the rule is about ("… must not be held when calling
// handleStarted").
var whenCallingRe = regexp.MustCompile(`(?i)^\s*(?:when|while|before)\s+(?:calling|invoking|running)\s+(?:the\s+)?([A-Za-z_][A-Za-z0-9_.]*)` +
	`|^\s*(?:when|while|before)\s+(?:the\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s+(?:is|gets)\s+(?:called|invoked|run)`)

// aboutOther reports whether rest, the text after a forbidRe match, says
// the rule is about another function than name (a closure the method
// returns, say): "s.lifecycleMu must not be held when calling
// handleStarted" on preStart, which returns handleStarted.
func aboutOther(rest, name string) bool {
	m := whenCallingRe.FindStringSubmatch(rest)
	if m == nil {
		return false
	}
	other := strings.TrimSuffix(strings.TrimRight(m[1]+m[2], "."), "()")
	if i := strings.LastIndexByte(other, '.'); i >= 0 {
		other = other[i+1:]
	}
	return other != "" && other != name && other != "it" && other != "this"
}

// forbidden is a method that must not be called with the receiver's mutex
// held.
type forbidden struct {
	mutex *types.Var
	doc   token.Pos
}

// forbids collects the methods documented as called without the
// receiver's mutex held (forbidRe) where that mutex is named and is a
// field of the receiver's struct.
func forbids(pass *analysis.Pass) map[*types.Func]forbidden {
	out := map[*types.Func]forbidden{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil || fd.Recv == nil || len(fd.Recv.List) != 1 {
				continue
			}
			fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			s, ok := lockset.StructOf(fn.Signature().Recv().Type())
			if !ok {
				continue
			}
			text := strings.Join(strings.Fields(fd.Doc.Text()), " ")
			loc := forbidRe.FindStringSubmatchIndex(text)
			if loc == nil || aboutOther(text[loc[1]:], fd.Name.Name) {
				continue
			}
			m := make([]string, len(loc)/2)
			for i := range m {
				if loc[2*i] >= 0 {
					m[i] = text[loc[2*i]:loc[2*i+1]]
				}
			}
			recvName := ""
			if names := fd.Recv.List[0].Names; len(names) == 1 {
				recvName = names[0].Name
			}
			name, ok := guardName(m[1]+m[2]+m[3], recvName)
			if mu := fieldByName(s, name); ok && mu != nil && lockset.IsLock(mu.Type()) {
				out[fn] = forbidden{mutex: mu, doc: fd.Doc.Pos()}
			}
		}
	}
	return out
}

// nestedMutex reports whether s has a struct-valued field (or pointer to
// struct) that carries its own mutex: c.in.Mutex next to c.mu makes
// "fooLocked" ambiguous.
func nestedMutex(s *types.Struct) bool {
	for i := 0; i < s.NumFields(); i++ {
		f := s.Field(i)
		if lockset.IsLock(f.Type()) {
			continue
		}
		if inner, ok := lockset.StructOf(f.Type()); ok && len(mutexFields(inner)) > 0 {
			return true
		}
	}
	return false
}

// locksItself reports whether body locks the receiver's mutex mu
// (recv.mu.Lock(), recv.RLock() for an embedded mutex) anywhere.
func locksItself(body *ast.BlockStmt, recv string, mu *types.Var) bool {
	if body == nil || recv == "" {
		return false
	}
	want := recv + "." + mu.Name()
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		switch sel.Sel.Name {
		case "Lock", "RLock", "TryLock", "TryRLock":
			x := types.ExprString(sel.X)
			found = x == want || mu.Embedded() && x == recv
		}
		return !found
	})
	return found
}

// lockedParam reports whether a parameter of sig points to a struct with
// a mutex field of its own.
func lockedParam(sig *types.Signature) bool {
	for i := range sig.Params().Len() {
		t := sig.Params().At(i).Type()
		if _, ok := t.Underlying().(*types.Pointer); !ok {
			continue
		}
		if st, ok := lockset.StructOf(t); ok && len(mutexFields(st)) > 0 {
			return true
		}
	}
	return false
}
