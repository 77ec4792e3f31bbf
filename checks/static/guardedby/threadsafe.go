package guardedby

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// notConcurrentRe: a method documented as not for concurrent use (setup
// before the value is shared) is outside the type's promise.
var notConcurrentRe = regexp.MustCompile(`(?i)\bbefore\b[^.]{0,40}?\b(?:use|used|using|start|started|starting|shared|serving|calling|called|running|run)\b|\bnot\s+(?:safe|thread-?safe|goroutine-?safe|concurrency-?safe)\b|\bmust\s+not\s+be\s+called\s+concurrently`)

// reportThreadSafe reports IL5003: in a type documented as safe for
// concurrent use, every exported method may run at the same time as any
// other, so a field accessed under the type's mutex in one place and
// without any of its mutexes in an exported method races, when one of
// the two accesses is a write.
func (pc *passContext) reportThreadSafe() {
	claims := lockset.ThreadSafeTypes(pc.pass.Files, pc.pass.TypesInfo)
	if len(claims) == 0 {
		return
	}
	byStruct := map[*types.Struct]*types.TypeName{}
	for tn := range claims {
		if st, ok := tn.Type().Underlying().(*types.Struct); ok {
			byStruct[st] = tn
		}
	}
	docs := pc.methodDocs()
	for _, f := range pc.order {
		info := pc.fields[f]
		tn := byStruct[info.strct]
		if tn == nil || pc.atomic[f] || !info.written {
			continue
		}
		var lockedWrite, lockedAny *obs
		var lockName *types.Var
		for _, o := range info.obs {
			if len(o.held) == 0 {
				continue
			}
			if lockedAny == nil {
				lockedAny, lockName = o, o.held[0]
			}
			if o.write && lockedWrite == nil {
				lockedWrite = o
				lockName = o.held[0]
			}
		}
		if lockedAny == nil {
			continue
		}
		for _, o := range info.obs {
			if !o.onRecv || o.quiet(lockName) || !exportedMethod(o.fn) || notConcurrentRe.MatchString(docs[o.fn.Object()]) || initMethod(o.fn.Name()) {
				continue
			}
			other := lockedWrite
			if o.write {
				other = lockedAny
			}
			if other == nil {
				continue // two reads do not race
			}
			verb, otherVerb := "reads", "read"
			if o.write {
				verb = "writes"
			}
			if other.write {
				otherVerb = "written"
			}
			field := o.base + "." + f.Name()
			if o.sel != "" {
				field = o.base + "." + o.sel
			}
			c := claims[tn]
			d := analysis.Diagnostic{
				Pos: o.pos, End: o.pos + token.Pos(len(f.Name())), Category: RuleThreadsafeInconsistentLock,
				Message: fmt.Sprintf("%s is documented as %s, but %s %s %s without holding %s.%s, which is held where %s is %s in %s",
					tn.Name(), claimText(c.Phrase, c.Quote), o.fn.Name(), verb, field, o.base, lockName.Name(), f.Name(), otherVerb, other.fn.Name()),
				Related: []analysis.RelatedInformation{
					{Pos: other.pos, Message: fmt.Sprintf("%s.%s %s with %s.%s held", other.base, f.Name(), otherVerb, other.base, lockName.Name())},
					{Pos: c.Pos, Message: tn.Name() + " claims safety for concurrent use here"},
				},
			}
			if o.end.IsValid() {
				d.End = o.end
			}
			pc.reported[o.pos] = true
			pc.pass.Report(d)
		}
	}
}

// claimText quotes a type's claim with its qualifier (Claim.Quote).
func claimText(phrase, quote string) string {
	if phrase == lockset.ThreadSafeDirective {
		return "thread-safe (" + phrase + ")"
	}
	return fmt.Sprintf("%q", quote)
}

// exportedMethod reports whether fn is an exported method declared in
// source.
func exportedMethod(fn *ssa.Function) bool {
	return fn.Signature.Recv() != nil && fn.Parent() == nil && fn.Synthetic == "" && token.IsExported(fn.Name())
}

// methodDocs returns the doc comment text of each method declared in
// the package.
func (pc *passContext) methodDocs() map[types.Object]string {
	out := map[types.Object]string{}
	for _, f := range pc.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Doc == nil {
				continue
			}
			if obj := pc.pass.TypesInfo.Defs[fd.Name]; obj != nil {
				out[obj] = strings.Join(strings.Fields(fd.Doc.Text()), " ")
			}
		}
	}
	return out
}

// initMethod reports whether a method's name says it initializes the
// value (Init, InitForTesting, InitWithClock): like Init, it runs before
// the value is shared.
func initMethod(name string) bool {
	rest, ok := strings.CutPrefix(name, "Init")
	return ok && (rest == "" || rest[0] >= 'A' && rest[0] <= 'Z')
}
