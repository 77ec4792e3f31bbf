package rewrite

import "testing"

// TestEditorNesting: edits compose (an outer rewrite renders the inner ones
// in its operands), an edit of the same range made later is inner, and
// newlines dropped by glue are re-emitted.
func TestEditorNesting(t *testing.T) {
	src := "for v := range <-chch {\n\tx(a,\n\t\tb)\n}"
	ed := &editor{src: []byte(src)}
	// range operand `<-chch` at [15,21): first the range rewrite, then the
	// receive (same range, made later: inner).
	var outer *edit
	outer = ed.add(15, 21, func() string { return "R(" + ed.render(outer.pos, outer.end) + ")" })
	ed.add(15, 21, func() string { return "Recv(" + ed.render(17, 21) + ")" })
	// x(a,\n\t\tb) at [25,34): glue that drops the newline re-emits it.
	call := ed.add(25, 34, func() string {
		return "y(" + ed.render(27, 28) + ", " + ed.newlines(28, 32) + ed.render(32, 33) + ")"
	})
	ed.add(27, 28, func() string { return "A" })
	got := ed.render(0, len(src))
	want := "for v := range R(Recv(chch)) {\n\ty(A, \nb)\n}"
	if got != want {
		t.Fatalf("render = %q, want %q", got, want)
	}
	if call.pos != 25 {
		t.Fatal("edit moved")
	}
}
