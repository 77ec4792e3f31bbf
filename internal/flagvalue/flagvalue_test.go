package flagvalue

import (
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestChoiceAndList(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := &Choice{Value: "text", Allowed: []string{"text", "json"}}
	var tags List
	fs.Var(format, "format", "")
	fs.Var(&tags, "tags", "")
	if err := fs.Parse([]string{"-format", "json", "-tags", "a, b,,", "-tags", "c"}); err != nil {
		t.Fatal(err)
	}
	if format.Value != "json" || !slices.Equal(tags, List{"a", "b", "c"}) || tags.String() != "a,b,c" {
		t.Errorf("format %q, tags %q", format.Value, tags)
	}
	err := fs.Parse([]string{"-format", "xml"})
	if err == nil || !strings.Contains(err.Error(), "valid values are text, json") {
		t.Errorf("bad choice: %v", err)
	}
}
