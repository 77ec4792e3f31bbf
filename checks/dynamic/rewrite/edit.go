package rewrite

import (
	"sort"
	"strings"
)

// An edit replaces src[pos:end] (pos == end: inserts) with text(). Edits
// are properly nested or disjoint. text builds its result from literal glue
// and render() of sub-ranges, so rewrites compose: a nested operation inside
// a rewritten operand is rewritten too. Every rewrite keeps each original
// token on its line: glue never contains a newline and the newlines of any
// source text it drops are re-emitted at a place where a newline is legal.
//
// Two edits may cover the same range (`range <-chch`: the range operand and
// the receive); the one made first belongs to the outer node (the AST is
// visited top-down) and contains the other.
type edit struct {
	pos, end int
	seq      int
	text     func() string
}

type editor struct {
	src    []byte
	edits  []*edit
	owners []*edit // edits whose text is being computed, innermost last
}

func (ed *editor) add(pos, end int, text func() string) *edit {
	e := &edit{pos: pos, end: end, seq: len(ed.edits), text: text}
	ed.edits = append(ed.edits, e)
	return e
}

// render returns src[s:e] with every edit inside [s, e] applied. Called
// while computing an edit's text, it applies only edits nested in that one.
func (ed *editor) render(s, e int) string {
	var owner *edit
	if n := len(ed.owners); n > 0 {
		owner = ed.owners[n-1]
	}
	var cand []*edit
	for _, x := range ed.edits {
		if x.pos < s || x.end > e || x == owner {
			continue
		}
		if owner != nil && x.pos == owner.pos && x.end == owner.end && x.seq < owner.seq {
			continue
		}
		cand = append(cand, x)
	}
	sort.SliceStable(cand, func(i, j int) bool {
		if cand[i].pos != cand[j].pos {
			return cand[i].pos < cand[j].pos
		}
		if cand[i].end != cand[j].end {
			return cand[i].end > cand[j].end
		}
		return cand[i].seq < cand[j].seq
	})
	var b strings.Builder
	cur := s
	for _, x := range cand {
		if x.pos < cur {
			continue // inside an edit already applied
		}
		b.Write(ed.src[cur:x.pos])
		ed.owners = append(ed.owners, x)
		b.WriteString(x.text())
		ed.owners = ed.owners[:len(ed.owners)-1]
		cur = x.end
	}
	b.Write(ed.src[cur:e])
	return b.String()
}

// newlines returns as many newlines as src[s:e] holds.
func (ed *editor) newlines(s, e int) string {
	if s >= e {
		return ""
	}
	return strings.Repeat("\n", strings.Count(string(ed.src[s:e]), "\n"))
}
