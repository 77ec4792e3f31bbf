package threadsafe

import (
	"go/ast"
	"testing"
)

func TestClaimOf(t *testing.T) {
	tests := []struct {
		name string
		doc  []string
		want string
	}{
		{"concurrent use", []string{"// Cache is safe for concurrent use."}, "safe for concurrent use"},
		{"wrapped line", []string{"// Cache is safe for", "// concurrent use by multiple goroutines."}, "safe for concurrent use"},
		{"multiple goroutines", []string{"// Pool is safe for use by multiple goroutines."}, "safe for use by multiple goroutines"},
		{"thread-safe capitalized", []string{"// A Thread-Safe registry."}, "thread-safe"},
		{"goroutine-safe", []string{"// Stats is goroutine-safe."}, "goroutine-safe"},
		{"directive", []string{"// Registry holds names.", "//interleave:threadsafe"}, directive},
		{"negated", []string{"// Conn is not thread-safe."}, ""},
		{"negated contraction", []string{"// Builder isn't safe for concurrent use."}, ""},
		{"never", []string{"// It is never safe for concurrent use."}, ""},
		{"negated then claimed", []string{"// Conn is not thread-safe; Pool is thread-safe."}, "thread-safe"},
		{"simultaneously", []string{"// A Client may be used by multiple goroutines simultaneously."}, "used by multiple goroutines simultaneously"},
		{"must not", []string{"// A Decoder must not be used by multiple goroutines simultaneously."}, ""},
		{"no claim", []string{"// Buffer holds bytes."}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cg := &ast.CommentGroup{}
			for _, line := range tt.doc {
				cg.List = append(cg.List, &ast.Comment{Text: line})
			}
			if got := claimOf(cg); got != tt.want {
				t.Errorf("claimOf(%q) = %q, want %q", tt.doc, got, tt.want)
			}
		})
	}
}
